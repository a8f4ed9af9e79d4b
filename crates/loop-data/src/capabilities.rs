//! What the page's host declares to servers.

use mcpg_core::model::JsonObject;
use serde_json::{Value, json};

/// The client capabilities a host that answers every ask declares: `sampling`,
/// `elicitation` with `form` and `url`, and `roots` with `listChanged`. The page
/// declares exactly these, and `mcpg loop` too, so its runs replay in the page.
pub fn client_capabilities() -> JsonObject {
    let caps = json!({
        "sampling": {},
        "elicitation": {"form": {}, "url": {}},
        "roots": {"listChanged": true},
    });
    match caps {
        Value::Object(o) => o,
        _ => JsonObject::new(),
    }
}
