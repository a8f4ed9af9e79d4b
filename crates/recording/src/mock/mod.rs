//! A recorded session served back as a server: the sans-IO answering logic behind
//! `mcpg mock`. [`Mock::new`] reads the session's exchanges (through
//! [`crate::diff::exchanges`], the same reading `mcpg diff` uses) and
//! [`Mock::handle_text`] answers one JSON-RPC line the way the recorded server did:
//! the handshake it recorded (`initialize` or `server/discover`), each `tools/list`
//! page by its cursor, each `tools/call` by tool name and arguments (member order
//! aside; the n-th identical call gets the n-th recorded answer, the last one
//! repeating), and any other recorded method by its params. No I/O: a stdio loop or
//! an HTTP front hands it lines and writes back what it returns.

mod key;
mod nearest;

use std::collections::{BTreeMap, VecDeque};

use serde_json::{Map, Value, json};

use crate::Recording;
use crate::diff::{Answer, SnapshotError, canonical, exchanges};
use key::key;

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

/// Answers held while their questions wait, at most (the oldest is dropped).
pub const MAX_HELD: usize = 256;

/// A recorded answer and the questions the server asked before it.
type Recorded = (Answer, Vec<Value>);

/// The answers recorded for one key, and how many were already given.
#[derive(Clone, Debug, Default)]
struct Queue {
    answers: Vec<Recorded>,
    given: usize,
}

/// An answer held back while the server's recorded questions are asked again.
#[derive(Clone, Debug)]
struct Held {
    /// The id of the question now waiting for the client's answer.
    question: String,
    /// The questions still to ask, in order.
    rest: VecDeque<Value>,
    /// The answer to send once every question was answered.
    answer: Value,
}

impl Queue {
    /// The next answer; the last one repeats once all were given.
    fn next(&mut self) -> Option<&Recorded> {
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
    /// Answers waiting on the client's answers to recorded questions.
    held: Vec<Held>,
    /// Questions asked so far (their ids are `mock-N`).
    asked: u64,
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
                q.answers.push((x.answer, x.asked));
            } else if x.answer != Answer::Missing {
                q.answers = vec![(x.answer, x.asked)];
            }
        }
        Ok(Mock {
            answers,
            calls,
            held: Vec::new(),
            asked: 0,
        })
    }

    /// Every distinct call the session recorded, in the order first made.
    pub fn calls(&self) -> &[RecordedCall] {
        &self.calls
    }

    /// Takes one JSON-RPC line and returns the lines to send, in order: the answer,
    /// or the first question the recorded server asked before it (the answer follows
    /// once the client answered every question); nothing for notifications and
    /// blank lines.
    pub fn handle_text(&mut self, text: &str) -> Vec<String> {
        let Ok(msg) = serde_json::from_str::<Value>(text) else {
            if text.trim().is_empty() {
                return Vec::new();
            }
            return vec![error(&Value::Null, PARSE_ERROR, "not JSON".into(), None).to_string()];
        };
        self.handle(&msg).iter().map(Value::to_string).collect()
    }

    /// Takes one JSON-RPC message (see [`Mock::handle_text`]).
    pub fn handle(&mut self, msg: &Value) -> Vec<Value> {
        let Some(id) = msg.get("id").filter(|id| !id.is_null()) else {
            return Vec::new();
        };
        let Some(method) = msg.get("method").and_then(Value::as_str) else {
            // The client's answer to a question: ask the next, or give the answer.
            return self.answered(id).into_iter().collect();
        };
        let (answer, asked) = self.respond(id, method, msg.get("params"));
        let mut rest: VecDeque<Value> = asked.into();
        match rest.pop_front() {
            None => vec![answer],
            Some(q) => {
                let (question, sent) = self.ask(q);
                // A client that calls and never answers cannot grow this: the
                // oldest held answer is dropped (its question goes unanswered).
                if self.held.len() >= MAX_HELD {
                    self.held.remove(0);
                }
                self.held.push(Held {
                    question,
                    rest,
                    answer,
                });
                vec![sent]
            }
        }
    }

    /// The recorded question `q` with a fresh id, and that id.
    fn ask(&mut self, mut q: Value) -> (String, Value) {
        self.asked += 1;
        let id = format!("mock-{}", self.asked);
        if let Some(o) = q.as_object_mut() {
            o.insert("id".into(), Value::from(id.as_str()));
        }
        (id, q)
    }

    /// What follows the client's answer to question `id` (`None`: not a question
    /// of ours, ignored). The client's answer itself is not checked.
    fn answered(&mut self, id: &Value) -> Option<Value> {
        let at = self
            .held
            .iter()
            .position(|h| id.as_str() == Some(h.question.as_str()))?;
        let mut held = self.held.remove(at);
        match held.rest.pop_front() {
            None => Some(held.answer),
            Some(q) => {
                let (question, sent) = self.ask(q);
                held.question = question;
                self.held.push(held);
                Some(sent)
            }
        }
    }

    /// The answer to request `id`, and the recorded questions to ask before it.
    fn respond(&mut self, id: &Value, method: &str, params: Option<&Value>) -> (Value, Vec<Value>) {
        let k = key(method, params);
        if let Some((answer, asked)) = self.answers.get_mut(&k).and_then(Queue::next) {
            let answer = match answer {
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
            };
            return (answer, asked.clone());
        }
        let answer = match method {
            // Always answerable, recorded or not: `ping`, and `logging/setLevel`,
            // whose empty result says nothing about the tools (the Inspector sends
            // it right after the handshake when the server declared `logging`, and
            // gives up on an error).
            "ping" | "logging/setLevel" => json!({"jsonrpc": "2.0", "id": id, "result": {}}),
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
        };
        (answer, Vec::new())
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
