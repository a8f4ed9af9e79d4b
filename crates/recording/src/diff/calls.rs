//! The answers to the same call compared: same tool and same arguments (as JSON,
//! member order aside) in both sessions. The n-th such call of A is paired with
//! the n-th of B; calls only one session made are counted, not compared.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::snapshot::{Answer, Call};
use super::value::{FieldChange, canonical, value_changes};

/// What kind of answer a call got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    /// A result.
    Result,
    /// A result with `isError: true`.
    ToolError,
    /// A JSON-RPC error.
    RpcError,
    /// No answer.
    Missing,
}

impl AnswerKind {
    /// The kind of `answer`.
    pub fn of(answer: &Answer) -> AnswerKind {
        match answer {
            Answer::Result(v) if v.get("isError") == Some(&Value::Bool(true)) => {
                AnswerKind::ToolError
            }
            Answer::Result(_) => AnswerKind::Result,
            Answer::Error { .. } => AnswerKind::RpcError,
            Answer::Missing => AnswerKind::Missing,
        }
    }
}

/// A call whose answer differs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ResultChanged {
    /// The tool.
    pub tool: String,
    /// The arguments (`null`: none were sent).
    pub arguments: Value,
    /// Which call with these arguments, from 1 (the same call may be made twice).
    pub occurrence: usize,
    /// A's kind of answer.
    pub before: AnswerKind,
    /// B's kind of answer.
    pub after: AnswerKind,
    /// Every difference, pointers from the result's root (`/content/0/text`,
    /// `/isError`, `/structuredContent/…`; `/error/code` between two errors; `""`
    /// when a result and an error meet).
    pub changes: Vec<FieldChange>,
}

/// How many calls were compared and how many only one session made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CallCounts {
    /// Pairs of the same call with an answer on both sides.
    pub compared: usize,
    /// Calls only A made (or whose answer is missing on either side).
    pub only_a: usize,
    /// Calls only B made (or whose answer is missing on either side).
    pub only_b: usize,
}

/// The differences between two answers. Two JSON-RPC errors differ only by code:
/// messages are an implementation's words and vary between runs and versions.
/// A missing answer is not compared.
pub fn answer_changes(a: &Answer, b: &Answer) -> Vec<FieldChange> {
    match (a, b) {
        (Answer::Result(x), Answer::Result(y)) => value_changes(x, y),
        (Answer::Error { code: c, .. }, Answer::Error { code: d, .. }) if c == d => vec![],
        (Answer::Error { code: c, .. }, Answer::Error { code: d, .. }) => vec![FieldChange {
            pointer: "/error/code".into(),
            before: Some(Value::from(*c)),
            after: Some(Value::from(*d)),
        }],
        (Answer::Missing, _) | (_, Answer::Missing) => vec![],
        (x, y) => vec![FieldChange {
            pointer: String::new(),
            before: Some(as_value(x)),
            after: Some(as_value(y)),
        }],
    }
}

fn as_value(a: &Answer) -> Value {
    match a {
        Answer::Result(v) => super::value::strip(v),
        Answer::Error { code, message } => {
            let mut error = Map::new();
            error.insert("code".into(), Value::from(*code));
            error.insert("message".into(), Value::from(message.as_str()));
            let mut outer = Map::new();
            outer.insert("error".into(), Value::Object(error));
            Value::Object(outer)
        }
        Answer::Missing => Value::Null,
    }
}

type Key = (String, String);

fn key(c: &Call) -> Key {
    let args = c.arguments.as_ref().map_or_else(
        || "null".to_owned(),
        |m| canonical(&Value::Object(m.clone())),
    );
    (c.name.clone(), args)
}

/// The answered calls by key, in the order made.
fn grouped(calls: &[Call]) -> (BTreeMap<Key, Vec<&Call>>, usize) {
    let mut out: BTreeMap<Key, Vec<&Call>> = BTreeMap::new();
    let mut unanswered = 0;
    for c in calls {
        if c.answer == Answer::Missing {
            unanswered += 1;
        } else {
            out.entry(key(c)).or_default().push(c);
        }
    }
    (out, unanswered)
}

/// Compares the answers to the calls both sessions made, in key order (tool name,
/// then the arguments' canonical JSON, then occurrence).
pub fn diff_calls(a: &[Call], b: &[Call]) -> (Vec<ResultChanged>, CallCounts) {
    let ((ga, mut only_a), (gb, mut only_b)) = (grouped(a), grouped(b));
    let mut counts = CallCounts::default();
    let mut out = Vec::new();
    for (k, xs) in &ga {
        let ys = gb.get(k).map_or(&[][..], Vec::as_slice);
        for (i, x) in xs.iter().enumerate() {
            let Some(y) = ys.get(i) else {
                only_a += 1;
                continue;
            };
            counts.compared += 1;
            let changes = answer_changes(&x.answer, &y.answer);
            if !changes.is_empty() {
                out.push(ResultChanged {
                    tool: x.name.clone(),
                    arguments: x.arguments.clone().map_or(Value::Null, Value::Object),
                    occurrence: i + 1,
                    before: AnswerKind::of(&x.answer),
                    after: AnswerKind::of(&y.answer),
                    changes,
                });
            }
        }
        only_b += ys.len().saturating_sub(xs.len());
    }
    only_b += gb
        .iter()
        .filter(|(k, _)| !ga.contains_key(*k))
        .map(|(_, ys)| ys.len())
        .sum::<usize>();
    counts.only_a = only_a;
    counts.only_b = only_b;
    (out, counts)
}
