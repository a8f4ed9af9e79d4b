//! A recorded session served back as a server: the sans-IO answering logic behind
//! `mcpg mock`. [`Mock::new`] reads the session's exchanges (through
//! [`crate::diff::exchanges`], the same reading `mcpg diff` uses) and
//! [`Mock::handle_text`] answers one JSON-RPC line the way the recorded server did:
//! the handshake it recorded (`initialize` or `server/discover`), each `tools/list`
//! page by its cursor, each `tools/call` by tool name and arguments (member order
//! aside; the n-th identical call gets the n-th recorded answer, the last one
//! repeating), and any other recorded method by its params. No I/O: a stdio loop or
//! an HTTP front hands it lines and writes back what it returns.

mod nearest;

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::Recording;
use crate::diff::{Answer, SnapshotError, canonical, exchanges};

pub use nearest::{Nearest, nearest_call};

/// The error code of a call the recording never made (invalid params: the tool
/// exists or not, but nothing was recorded for these arguments).
pub const UNRECORDED_CALL: i32 = -32602;
/// The error code of a method the recording never answered.
pub const METHOD_NOT_FOUND: i32 = -32601;
/// The error code of a request the recorded server never answered (cancelled,
/// timed out, or the recording stopped first).
pub const NO_RECORDED_ANSWER: i32 = -32603;
/// The error code of a line that is not JSON-RPC.
pub const PARSE_ERROR: i32 = -32700;

/// The answers recorded for one key, and how many were already given.
#[derive(Clone, Debug, Default)]
struct Queue {
    answers: Vec<Answer>,
    given: usize,
}

impl Queue {
    /// The next answer; the last one repeats once all were given.
    fn next(&mut self) -> Option<&Answer> {
        let i = self.given.min(self.answers.len().checked_sub(1)?);
        self.given += 1;
        self.answers.get(i)
    }
}

/// A recorded call, for naming the nearest one to an unrecorded call.
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedCall {
    /// The tool's name.
    pub name: String,
    /// The arguments (empty when none were sent).
    pub arguments: Map<String, Value>,
}

/// A recorded session answering as its server did.
#[derive(Clone, Debug)]
pub struct Mock {
    /// Answers by (method, canonical params without `_meta`).
    answers: BTreeMap<(String, String), Queue>,
    /// Every distinct recorded call, in the order first made.
    calls: Vec<RecordedCall>,
}

/// The key a request is answered by: its method and its params as canonical JSON,
/// `_meta` left out (progress tokens and a stateless request's protocol fields vary
/// between runs). A handshake is answered whatever the client offers, so its params
/// do not count.
fn key(method: &str, params: Option<&Value>) -> (String, String) {
    let params = match (method, params) {
        ("initialize" | "server/discover" | "ping", _) | (_, None | Some(Value::Null)) => {
            String::new()
        }
        ("tools/call", Some(p)) => {
            let name = p.get("name").cloned().unwrap_or(Value::Null);
            let args = match p.get("arguments") {
                Some(Value::Object(m)) if !m.is_empty() => Value::Object(m.clone()),
                _ => Value::Null,
            };
            canonical(&json!([name, args]))
        }
        (_, Some(Value::Object(m))) => {
            let mut m = m.clone();
            m.remove("_meta");
            if m.is_empty() {
                String::new()
            } else {
                canonical(&Value::Object(m))
            }
        }
        (_, Some(p)) => canonical(p),
    };
    (method.to_owned(), params)
}

impl Mock {
    /// Reads `session`'s requests and answers (every message must have its text: a
    /// link's elided demo answers are regenerated first).
    pub fn new(session: &Recording) -> Result<Mock, SnapshotError> {
        let mut answers: BTreeMap<(String, String), Queue> = BTreeMap::new();
        let mut calls: Vec<RecordedCall> = Vec::new();
        for x in exchanges(session)? {
            let k = key(&x.method, x.params.as_ref());
            if x.method == "tools/call" {
                let p = x.params.as_ref();
                let call = RecordedCall {
                    name: p
                        .and_then(|p| p.get("name"))
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    arguments: p
                        .and_then(|p| p.get("arguments"))
                        .and_then(Value::as_object)
                        .cloned()
                        .unwrap_or_default(),
                };
                if !calls.contains(&call) {
                    calls.push(call);
                }
            }
            // A listing or handshake recorded again replaces the earlier one (the
            // last complete listing is the server's catalog); calls queue up.
            let q = answers.entry(k).or_default();
            if x.method == "tools/call" || q.answers.is_empty() {
                q.answers.push(x.answer);
            } else if x.answer != Answer::Missing {
                q.answers = vec![x.answer];
            }
        }
        Ok(Mock { answers, calls })
    }

    /// Every distinct call the session recorded, in the order first made.
    pub fn calls(&self) -> &[RecordedCall] {
        &self.calls
    }

    /// Answers one JSON-RPC line; `None` for what needs no answer (notifications,
    /// the client's answers, blank lines).
    pub fn handle_text(&mut self, text: &str) -> Option<String> {
        let Ok(msg) = serde_json::from_str::<Value>(text) else {
            return (!text.trim().is_empty())
                .then(|| error(&Value::Null, PARSE_ERROR, "not JSON".into(), None).to_string());
        };
        self.handle(&msg).map(|v| v.to_string())
    }

    /// Answers one JSON-RPC message (see [`Mock::handle_text`]).
    pub fn handle(&mut self, msg: &Value) -> Option<Value> {
        let method = msg.get("method").and_then(Value::as_str)?;
        let id = msg.get("id").filter(|id| !id.is_null())?;
        let params = msg.get("params");
        let k = key(method, params);
        if let Some(answer) = self.answers.get_mut(&k).and_then(Queue::next) {
            return Some(match answer {
                Answer::Result(r) => json!({"jsonrpc": "2.0", "id": id, "result": r}),
                Answer::Error { code, message } => {
                    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
                }
                Answer::Missing => error(
                    id,
                    NO_RECORDED_ANSWER,
                    format!("the recorded server never answered this {method}"),
                    None,
                ),
            });
        }
        Some(match method {
            // Always answerable, recorded or not.
            "ping" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
            "tools/call" => self.unrecorded_call(id, params),
            _ if self.answers.keys().any(|(m, _)| m == method) => error(
                id,
                UNRECORDED_CALL,
                format!("{method} was recorded, but not with these params"),
                None,
            ),
            _ => error(
                id,
                METHOD_NOT_FOUND,
                format!("{method} is not in the recording"),
                None,
            ),
        })
    }

    fn unrecorded_call(&self, id: &Value, params: Option<&Value>) -> Value {
        let name = params
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        let empty = Map::new();
        let args = params
            .and_then(|p| p.get("arguments"))
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let Some(near) = nearest_call(&self.calls, name, args) else {
            return error(
                id,
                UNRECORDED_CALL,
                format!("no recorded call of {name}: the recording made no tool calls"),
                None,
            );
        };
        let shown = canonical(&Value::Object(near.call.arguments.clone()));
        error(
            id,
            UNRECORDED_CALL,
            format!(
                "no recorded call of {name} with these arguments; nearest recorded: {} {shown}",
                near.call.name
            ),
            Some(json!({"nearest": {"name": near.call.name, "arguments": near.call.arguments}})),
        )
    }
}

fn error(id: &Value, code: i32, message: String, data: Option<Value>) -> Value {
    let mut e = json!({"code": code, "message": message});
    if let (Some(d), Some(o)) = (data, e.as_object_mut()) {
        o.insert("data".into(), d);
    }
    json!({"jsonrpc": "2.0", "id": id, "error": e})
}

#[cfg(test)]
mod tests;
