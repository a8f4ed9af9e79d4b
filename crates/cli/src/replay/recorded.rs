//! The steps a session recorded, read back from its wire log: each `tools/list`
//! (all its pages) and each `tools/call`, with what the server answered.

use std::collections::HashMap;

use mcpg_core::jsonrpc::{Body, Message, RequestId};
use mcpg_core::model::JsonObject;
use mcpg_recording::{Direction, Recording};
use serde_json::Value;

/// What the server answered, as recorded.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A result.
    Result(Value),
    /// A JSON-RPC error: code and message.
    Error(i64, String),
    /// No answer was recorded (cancelled, timed out, or the recording stopped).
    Missing,
}

/// One recorded step to re-run.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// A whole listing: the tools of every page, in order.
    List {
        /// The tools as recorded (JSON objects).
        tools: Vec<Value>,
        /// Pages recorded.
        pages: usize,
    },
    /// One call.
    Call {
        /// Tool name.
        name: String,
        /// Arguments.
        arguments: Option<JsonObject>,
        /// What came back.
        answer: Answer,
    },
}

/// Reads the steps out of `session`'s wire log (every message must have its text).
pub fn steps(session: &Recording) -> Result<Vec<Step>, String> {
    let mut requests: Vec<(RequestId, String, Option<Value>)> = Vec::new();
    let mut answers: HashMap<RequestId, Answer> = HashMap::new();
    for (i, w) in session.wire.iter().enumerate() {
        let text = w
            .text
            .as_deref()
            .ok_or_else(|| format!("wire message {i} has no text"))?;
        // Lines that are not JSON-RPC are kept in recordings on purpose; skip them.
        let Ok(msg) = Message::decode(text) else {
            continue;
        };
        match (w.direction, msg.body()) {
            (Direction::Sent, Body::Request { id, method, params }) => {
                requests.push((id.clone(), method.clone(), params.clone()))
            }
            (Direction::Received, Body::Response { id, result }) => {
                answers.insert(id.clone(), Answer::Result(result.clone()));
            }
            (
                Direction::Received,
                Body::Error {
                    id: Some(id),
                    error,
                },
            ) => {
                answers.insert(id.clone(), Answer::Error(error.code, error.message.clone()));
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (id, method, params) in requests {
        let answer = answers.remove(&id).unwrap_or(Answer::Missing);
        match method.as_str() {
            "tools/list" => {
                let continues = params.as_ref().and_then(|p| p.get("cursor")).is_some();
                let page: Vec<Value> = match &answer {
                    Answer::Result(r) => r
                        .get("tools")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                match out.last_mut() {
                    Some(Step::List { tools, pages }) if continues => {
                        tools.extend(page);
                        *pages += 1;
                    }
                    _ => out.push(Step::List {
                        tools: page,
                        pages: 1,
                    }),
                }
            }
            "tools/call" => {
                let p = params.unwrap_or(Value::Null);
                let name = p
                    .get("name")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let arguments = p.get("arguments").and_then(Value::as_object).cloned();
                out.push(Step::Call {
                    name,
                    arguments,
                    answer,
                });
            }
            _ => {}
        }
    }
    Ok(out)
}
