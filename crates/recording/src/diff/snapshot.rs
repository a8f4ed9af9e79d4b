//! What a session shows of a server, read back from its wire log: its tool
//! catalog (the last `tools/list`, all its pages) and every `tools/call` with the
//! answer. A live server gives the same shape, so both sides of a diff are one type.
//!
//! The wire log is read with `serde_json` alone (this crate does not depend on the
//! core): a request is an object with a `method` and an `id`, an answer one with an
//! `id` and a `result` or an `error`. Anything else (notifications, the server's own
//! requests, lines that are not JSON) is not part of the catalog and is skipped.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::doc::{Direction, Recording};

/// What a server answered to one call.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A `CallToolResult` (a tool error, `isError: true`, is a result too).
    Result(Value),
    /// A JSON-RPC error: its code and message.
    Error {
        /// The error code.
        code: i64,
        /// The error message.
        message: String,
    },
    /// No answer was recorded (cancelled, timed out, or the recording stopped).
    Missing,
}

/// One `tools/call` and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    /// The tool's name.
    pub name: String,
    /// The arguments (`None`: none were sent).
    pub arguments: Option<Map<String, Value>>,
    /// What came back.
    pub answer: Answer,
}

/// One side of a diff: a server's tools and the calls made to it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// The tools of the last complete listing, in the server's order (`None`: the
    /// session never listed its tools, so there is no catalog to compare).
    pub tools: Option<Vec<Value>>,
    /// Every call, in the order it was made.
    pub calls: Vec<Call>,
}

/// Why a session's wire log cannot be read as a [`Snapshot`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SnapshotError {
    /// A message's text was left out (a link elides what the embedded demo said):
    /// regenerate it first ([`crate::rehydrate_with`]).
    #[error("wire message {0} has no text (regenerate the demo's answers first)")]
    Elided(usize),
}

/// One request the client sent, with the server's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// The request's method.
    pub method: String,
    /// Its params (`None`: none were sent).
    pub params: Option<Value>,
    /// What came back.
    pub answer: Answer,
    /// The requests the server sent while this one was the newest unanswered
    /// (elicitation, sampling, roots: asked during a call), in order, as recorded.
    pub asked: Vec<Value>,
}

/// Every request the client sent in `session`, in order, each with its answer (the
/// one source both the diff and the mock read a session through).
pub fn exchanges(session: &Recording) -> Result<Vec<Exchange>, SnapshotError> {
    let mut requests: Vec<(String, String, Option<Value>)> = Vec::new();
    let mut answers: BTreeMap<String, Answer> = BTreeMap::new();
    // Requests not answered yet (by index), and what the server asked during each.
    let mut open: Vec<(String, usize)> = Vec::new();
    let mut asked: BTreeMap<usize, Vec<Value>> = BTreeMap::new();
    for (i, w) in session.wire.iter().enumerate() {
        let text = w.text.as_deref().ok_or(SnapshotError::Elided(i))?;
        let Ok(Value::Object(msg)) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let Some(id) = msg.get("id").filter(|id| !id.is_null()) else {
            continue;
        };
        let id = id.to_string();
        match w.direction {
            Direction::Sent => {
                if let Some(method) = msg.get("method").and_then(|m| m.as_str()) {
                    open.push((id.clone(), requests.len()));
                    requests.push((id, method.to_owned(), msg.get("params").cloned()));
                }
            }
            Direction::Received if msg.get("method").is_some() => {
                if let Some((_, at)) = open.last() {
                    asked
                        .entry(*at)
                        .or_default()
                        .push(Value::Object(msg.clone()));
                }
            }
            Direction::Received => {
                open.retain(|(o, _)| *o != id);
                if let Some(result) = msg.get("result") {
                    answers.insert(id, Answer::Result(result.clone()));
                } else if let Some(error) = msg.get("error") {
                    answers.insert(id, error_answer(error));
                }
            }
        }
    }
    Ok(requests
        .into_iter()
        .enumerate()
        .map(|(i, (id, method, params))| Exchange {
            answer: answers.remove(&id).unwrap_or(Answer::Missing),
            method,
            params,
            asked: asked.remove(&i).unwrap_or_default(),
        })
        .collect())
}

impl Snapshot {
    /// Reads `session`'s catalog and calls out of its wire log.
    pub fn from_recording(session: &Recording) -> Result<Snapshot, SnapshotError> {
        let mut snapshot = Snapshot::default();
        // The listing being read: a request with a cursor continues it.
        let mut listing: Option<Vec<Value>> = None;
        for Exchange {
            method,
            params,
            answer,
            ..
        } in exchanges(session)?
        {
            match method.as_str() {
                "tools/list" => {
                    let page = match &answer {
                        Answer::Result(r) => r.get("tools").and_then(|t| t.as_array()).cloned(),
                        _ => None,
                    };
                    let continues = params.as_ref().and_then(|p| p.get("cursor")).is_some();
                    let mut tools = match listing.take() {
                        Some(t) if continues => t,
                        _ => Vec::new(),
                    };
                    tools.extend(page.unwrap_or_default());
                    snapshot.tools = Some(tools.clone());
                    listing = Some(tools);
                }
                "tools/call" => {
                    let p = params.unwrap_or(Value::Null);
                    snapshot.calls.push(Call {
                        name: p
                            .get("name")
                            .and_then(|m| m.as_str())
                            .unwrap_or_default()
                            .to_owned(),
                        arguments: p.get("arguments").and_then(|a| a.as_object()).cloned(),
                        answer,
                    });
                }
                _ => {}
            }
        }
        Ok(snapshot)
    }
}

/// A JSON-RPC error object as an [`Answer`] (a missing code reads as 0).
pub fn error_answer(error: &Value) -> Answer {
    Answer::Error {
        code: error.get("code").and_then(|c| c.as_i64()).unwrap_or(0),
        message: error
            .get("message")
            .and_then(|m| m.as_str())
            .unwrap_or_default()
            .to_owned(),
    }
}
