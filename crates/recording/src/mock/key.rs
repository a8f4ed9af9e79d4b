//! What a request is matched to a recorded one by.

use serde_json::{Value, json};

use crate::diff::canonical;

/// The key a request is answered by: its method and its params as canonical JSON,
/// `_meta` left out (progress tokens and a stateless request's protocol fields vary
/// between runs). A handshake is answered whatever the client offers, so its params
/// do not count.
pub(super) fn key(method: &str, params: Option<&Value>) -> (String, String) {
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
