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

/// The MCP Apps extension's name (`io.modelcontextprotocol/ui`), as `mcpg_apps`
/// spells it (a test there checks they agree).
pub const APPS_EXTENSION: &str = "io.modelcontextprotocol/ui";

/// The one MIME type of a view the page hosts, as `mcpg_apps::MIME`.
pub const APPS_MIME: &str = "text/html;profile=mcp-app";

/// [`client_capabilities`] and the MCP Apps extension, with the MIME types the
/// page hosts: what the playground page declares (it hosts views; `mcpg loop`
/// does not).
pub fn page_capabilities() -> JsonObject {
    let mut caps = client_capabilities();
    caps.insert(
        "extensions".into(),
        json!({ APPS_EXTENSION: { "mimeTypes": [APPS_MIME] } }),
    );
    caps
}
