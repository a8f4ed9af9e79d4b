//! The fixtures that ask the client mid-call (initialize generation): sampling
//! and three elicitations, answered once the client's answer comes back. When the
//! server cannot ask (the client did not declare the capability, or speaks
//! 2026-07-28, where asking is `input_required`: see `mrtr`), the call says so in
//! its text, as the suite's reference server does.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::model::{CallToolResult, JsonObject};
use mcpg_core::server::AskOutcome;
use serde_json::{Value, json};

use crate::ConformanceServer;

/// Questions in flight at most (the oldest is forgotten).
const MAX_ASKS: usize = 64;

/// Which fixture asked, so its answer reads the client's reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Sampling,
    /// `test_elicitation`: the answer says "User response".
    Elicitation,
    /// The SEP-1034 and SEP-1330 fixtures: the answer says "Elicitation completed".
    Form,
}

/// A question sent to the client: its id, the call waiting on it, which fixture.
#[derive(Debug)]
pub(crate) struct Asked {
    ask: RequestId,
    call: RequestId,
    kind: Kind,
}

/// What `test_elicitation_sep1034_defaults` asks: every primitive with a default.
fn sep1034() -> Value {
    json!({
        "message": "Please review and update the form fields with defaults",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": { "type": "string", "description": "User name", "default": "John Doe" },
                "age": { "type": "integer", "description": "User age", "default": 30 },
                "score": { "type": "number", "description": "User score", "default": 95.5 },
                "status": {
                    "type": "string", "description": "User status",
                    "enum": ["active", "inactive", "pending"], "default": "active",
                },
                "verified": { "type": "boolean", "description": "Verification status", "default": true },
            },
            "required": [],
        },
    })
}

/// What `test_elicitation_sep1330_enums` asks: the five enum shapes.
fn sep1330() -> Value {
    let titled = |names: [&str; 3]| {
        names
            .iter()
            .enumerate()
            .map(|(i, t)| json!({ "const": format!("value{}", i + 1), "title": t }))
            .collect::<Vec<_>>()
    };
    json!({
        "message": "Please select options from the enum fields",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "untitledSingle": {
                    "type": "string", "description": "Select one option",
                    "enum": ["option1", "option2", "option3"],
                },
                "titledSingle": {
                    "type": "string", "description": "Select one option with titles",
                    "oneOf": titled(["First Option", "Second Option", "Third Option"]),
                },
                "legacyEnum": {
                    "type": "string", "description": "Select one option (legacy)",
                    "enum": ["opt1", "opt2", "opt3"],
                    "enumNames": ["Option One", "Option Two", "Option Three"],
                },
                "untitledMulti": {
                    "type": "array", "description": "Select multiple options",
                    "minItems": 1, "maxItems": 3,
                    "items": { "type": "string", "enum": ["option1", "option2", "option3"] },
                },
                "titledMulti": {
                    "type": "array", "description": "Select multiple options with titles",
                    "minItems": 1, "maxItems": 3,
                    "items": { "anyOf": titled(["First Choice", "Second Choice", "Third Choice"]) },
                },
            },
            "required": [],
        },
    })
}

/// The question fixture `name` sends, from its arguments.
fn question(name: &str, args: &JsonObject) -> (Kind, &'static str, Value) {
    let arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default();
    match name {
        "test_sampling" => (
            Kind::Sampling,
            "sampling/createMessage",
            json!({
                "messages": [{ "role": "user", "content": { "type": "text", "text": arg("prompt") } }],
                "maxTokens": 100,
            }),
        ),
        "test_elicitation_sep1034_defaults" => (Kind::Form, "elicitation/create", sep1034()),
        "test_elicitation_sep1330_enums" => (Kind::Form, "elicitation/create", sep1330()),
        _ => (
            Kind::Elicitation,
            "elicitation/create",
            json!({
                "message": arg("message"),
                "requestedSchema": {
                    "type": "object",
                    "properties": { "response": { "type": "string", "description": "User's response" } },
                    "required": ["response"],
                },
            }),
        ),
    }
}

impl ConformanceServer {
    /// Call `call` of fixture `name` asks the client its question.
    pub(crate) fn ask(&mut self, now: Timestamp, call: RequestId, name: &str, args: &JsonObject) {
        let (kind, method, params) = question(name, args);
        match self.server.ask(now, method, params) {
            Ok(ask) => {
                if self.asks.len() >= MAX_ASKS {
                    self.asks.remove(0);
                }
                self.asks.push(Asked { ask, call, kind });
            }
            Err(e) => {
                let what = match kind {
                    Kind::Sampling => "Sampling",
                    Kind::Elicitation | Kind::Form => "Elicitation",
                };
                let text = format!("{what} not supported or error: {e}");
                self.server.respond(now, &call, &CallToolResult::text(text));
            }
        }
    }

    /// The client answered question `ask` (or it timed out): its call is answered.
    pub(crate) fn answered(&mut self, now: Timestamp, ask: &RequestId, outcome: AskOutcome) {
        let Some(i) = self.asks.iter().position(|a| a.ask == *ask) else {
            return;
        };
        let Asked { call, kind, .. } = self.asks.remove(i);
        let text = match (kind, outcome) {
            (Kind::Sampling, AskOutcome::Result(r)) => {
                let said = r
                    .pointer("/content/text")
                    .or_else(|| r.pointer("/message/content/text"))
                    .and_then(Value::as_str)
                    .unwrap_or("No response");
                format!("LLM response: {said}")
            }
            (Kind::Elicitation | Kind::Form, AskOutcome::Result(r)) => {
                let action = r.get("action").and_then(Value::as_str).unwrap_or_default();
                let content = r.get("content").cloned().unwrap_or_else(|| json!({}));
                let lead = if kind == Kind::Form {
                    "Elicitation completed"
                } else {
                    "User response"
                };
                format!("{lead}: action={action}, content={content}")
            }
            (kind, AskOutcome::Error(e)) => format!("{kind:?} failed: {}", e.message),
            (kind, AskOutcome::TimedOut) => format!("{kind:?}: the client did not answer in time"),
        };
        self.server.respond(now, &call, &CallToolResult::text(text));
    }
}
