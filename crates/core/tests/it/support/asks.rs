//! Sessions whose client answers what the server asks (issue 14): the capabilities
//! declared, the requests a server sends, and the client's responses read back.

use std::time::Duration;

use mcpg_core::client::{ClientConfig, Event};
use mcpg_core::jsonrpc::{Body, RequestId};
use mcpg_core::model::JsonObject;
use serde_json::{Value, json};

use super::Scripted;

/// The revisions of the `initialize` generation that have server requests.
pub const CLASSIC: [&str; 3] = ["2024-11-05", "2025-06-18", "2025-11-25"];

/// Every capability a server may ask for, `roots.listChanged` and `elicitation.url` included.
pub fn caps() -> JsonObject {
    json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}})
        .as_object()
        .cloned()
        .unwrap()
}

/// A session connected at `version` whose client declares [`caps`] (30 s to answer).
pub fn session(version: &str) -> Scripted {
    let mut s = Scripted::new(ClientConfig {
        capabilities: caps(),
        server_request_timeout: Duration::from_secs(30),
        ..Default::default()
    });
    s.connect_with(version, json!({"tools": {}}));
    s
}

/// A minimal `sampling/createMessage` params.
pub fn sampling() -> Value {
    json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 10})
}

/// A one-field form elicitation's params.
pub fn form() -> Value {
    json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}})
}

/// A URL elicitation's params with `elicitationId` `id`.
pub fn url(id: &str) -> Value {
    json!({"mode": "url", "message": "Sign in", "url": "https://auth.example/x", "elicitationId": id})
}

/// The server sends request `id`; returns the surfaced event's `answered`.
pub fn ask(s: &mut Scripted, id: &str, method: &str, params: Value) -> bool {
    let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    s.feed(&text);
    // The events stay for the test to check (its diagnostics included).
    s.events
        .iter()
        .find_map(|e| match e {
            Event::ServerRequest {
                id: got, answered, ..
            } if *got == RequestId::String(id.into()) => Some(*answered),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{id} not surfaced: {:#?}", s.events))
}

/// The client's response to request `id`: `Ok(result)` or `Err(error)`.
pub fn response(s: &Scripted, id: &str) -> Option<Result<Value, Value>> {
    s.sent.iter().find_map(|m| match m.body() {
        Body::Response { id: got, result } if *got == RequestId::String(id.into()) => {
            Some(Ok(result.clone()))
        }
        Body::Error { id: Some(got), .. } if *got == RequestId::String(id.into()) => {
            Some(Err(m.to_value()["error"].clone()))
        }
        _ => None,
    })
}

/// A string request id.
pub fn rid(id: &str) -> RequestId {
    RequestId::String(id.into())
}
