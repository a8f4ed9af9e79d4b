//! 2026-07-28 `x-mcp-header` (SEP-2243): a tool's `inputSchema` may mark a top-level
//! argument to be mirrored into an `Mcp-Param-{Name}` HTTP header; clients must send
//! those headers and must drop tools whose annotations are invalid.
//!
//! This belongs in the core (it builds every other protocol header), but the core's
//! `Outgoing.headers` only holds `&'static str` names, which cannot express
//! `Mcp-Param-{Name}`; until it can, the driver does it here.

use base64::Engine as _;
use mcpg_core::model::{JsonObject, Tool};
use serde_json::Value;

/// Why a tool's `x-mcp-header` annotations are invalid, or `None` if they are fine
/// (or absent).
pub(crate) fn invalid(tool: &Tool) -> Option<String> {
    let props = tool
        .input_schema
        .get("properties")
        .and_then(Value::as_object)?;
    let mut seen: Vec<String> = Vec::new();
    for (arg, prop) in props {
        let Some(raw) = prop.get("x-mcp-header") else {
            continue;
        };
        let Some(name) = raw.as_str() else {
            return Some(format!("x-mcp-header of {arg:?} is not a string"));
        };
        if name.is_empty() {
            return Some(format!("x-mcp-header of {arg:?} is empty"));
        }
        if !name.bytes().all(is_token_byte) {
            return Some(format!(
                "x-mcp-header {name:?} of {arg:?} is not a valid header name"
            ));
        }
        // Only values with a single, exact text form can travel in a header.
        match prop.get("type").and_then(Value::as_str) {
            Some("string" | "integer" | "boolean") => {}
            other => {
                return Some(format!(
                    "x-mcp-header {name:?} is on {arg:?} of type {}, not string, integer or boolean",
                    other.unwrap_or("(none)")
                ));
            }
        }
        let lower = name.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Some(format!("x-mcp-header {name:?} is used twice"));
        }
        seen.push(lower);
    }
    None
}

/// RFC 9110 `tchar`.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The `Mcp-Param-*` headers for calling `tool` with `args`. Absent and null
/// arguments send no header.
pub(crate) fn headers(tool: &Tool, args: Option<&JsonObject>) -> Vec<(String, String)> {
    let (Some(props), Some(args)) = (
        tool.input_schema
            .get("properties")
            .and_then(Value::as_object),
        args,
    ) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for (arg, prop) in props {
        let Some(name) = prop.get("x-mcp-header").and_then(Value::as_str) else {
            continue;
        };
        let value = match args.get(arg) {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => encode(s),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => n.to_string(),
            Some(other) => encode(&other.to_string()),
        };
        out.push((format!("Mcp-Param-{name}"), value));
    }
    out
}

/// Printable ASCII without surrounding whitespace goes as is; anything else (non-ASCII,
/// control characters, leading or trailing spaces) as `=?base64?…?=`.
fn encode(s: &str) -> String {
    let plain =
        s.bytes().all(|b| (0x20..0x7f).contains(&b)) && s.trim() == s && !s.starts_with("=?");
    if plain {
        s.to_owned()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(s)
        )
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tool(props: Value) -> Tool {
        serde_json::from_value(
            json!({"name": "t", "inputSchema": {"type": "object", "properties": props}}),
        )
        .unwrap()
    }

    #[test]
    fn annotations_are_validated() {
        assert_eq!(
            invalid(&tool(
                json!({"r": {"type": "string", "x-mcp-header": "Region"}})
            )),
            None
        );
        for bad in [
            json!({"r": {"type": "string", "x-mcp-header": ""}}),
            json!({"r": {"type": "number", "x-mcp-header": "Score"}}),
            json!({"r": {"type": "object", "x-mcp-header": "Data"}}),
            json!({"r": {"type": "string", "x-mcp-header": "Region:Primary"}}),
            json!({"r": {"type": "string", "x-mcp-header": "Région"}}),
            json!({"r": {"type": "string", "x-mcp-header": "Region 1"}}),
            json!({"a": {"type": "string", "x-mcp-header": "MyField"}, "b": {"type": "string", "x-mcp-header": "myfield"}}),
        ] {
            assert!(invalid(&tool(bad.clone())).is_some(), "{bad}");
        }
    }

    #[test]
    fn values_are_mirrored_and_encoded() {
        let t = tool(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "Priority"},
            "v": {"type": "boolean", "x-mcp-header": "Verbose"},
            "w": {"type": "string", "x-mcp-header": "Whitespace"},
            "free": {"type": "number"}
        }));
        let args = json!({"region": "us-west1", "n": 42, "v": null, "w": " padded ", "free": 3.5});
        let h = headers(&t, args.as_object());
        assert_eq!(
            h,
            [
                ("Mcp-Param-Region".to_owned(), "us-west1".to_owned()),
                ("Mcp-Param-Priority".to_owned(), "42".to_owned()),
                (
                    "Mcp-Param-Whitespace".to_owned(),
                    "=?base64?IHBhZGRlZCA=?=".to_owned()
                ),
            ]
        );
    }
}
