//! What the input-required fixtures ask (forms, a sampling request, the roots)
//! and how they read the answers into their final text.

use mcpg_core::model::JsonObject;
use mcpg_core::server::InputRequest;
use serde_json::{Value, json};

/// A form asking for one required string.
pub(super) fn form(message: &str, property: &str) -> InputRequest {
    InputRequest::elicitation(json!({
        "message": message,
        "requestedSchema": {
            "type": "object",
            "properties": {property: {"type": "string"}},
            "required": [property],
        },
    }))
}

pub(super) fn name_form(key: &str) -> (String, InputRequest) {
    (key.to_owned(), form("What is your name?", "name"))
}

pub(super) fn confirm() -> (String, InputRequest) {
    let r = InputRequest::elicitation(json!({
        "message": "Please confirm to continue",
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}},
    }));
    ("confirm".to_owned(), r)
}

pub(super) fn capital() -> (String, InputRequest) {
    let r = InputRequest::sampling(json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "What is the capital of France?"}}],
        "maxTokens": 100,
    }));
    ("capital_question".to_owned(), r)
}

pub(super) fn roots() -> (String, InputRequest) {
    ("client_roots".to_owned(), InputRequest::roots())
}

/// A form answer's string field, or what the user did instead of accepting.
pub(super) fn field(answer: &JsonObject, name: &str) -> String {
    let value = answer
        .get("content")
        .and_then(|c| c.get(name))
        .and_then(Value::as_str);
    match (answer.get("action").and_then(Value::as_str), value) {
        (Some("accept"), Some(v)) => v.to_owned(),
        (action, _) => format!("(no {name}: {})", action.unwrap_or("no action")),
    }
}

/// A sampling answer's text.
pub(super) fn sampled(answer: &JsonObject) -> String {
    let text = answer
        .get("content")
        .and_then(|c| c.get("text"))
        .and_then(Value::as_str);
    text.unwrap_or("(no text)").to_owned()
}

/// A roots answer, as a sentence naming each root.
pub(super) fn listed(answer: &JsonObject) -> String {
    let uris: Vec<&str> = answer
        .get("roots")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(|x| x.get("uri")?.as_str()).collect())
        .unwrap_or_default();
    format!("The client has {} root(s): {}", uris.len(), uris.join(", "))
}
