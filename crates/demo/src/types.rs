//! The one check the demo makes before a tool runs: every argument's JSON type
//! against the type its `inputSchema` declares.
//!
//! Why here and not in the tool: a value of the wrong JSON type (a string where the
//! schema says number) never reaches the tool. What the client gets depends on the
//! revision (`serve.rs`): since 2025-11-25 (SEP-1303) an input validation error is
//! a tool error (`isError`) the model can read and correct; before, it was the
//! protocol error `-32602` (invalid params). A value of the right type that the
//! tool cannot use (an unknown city, a number out of range) is a tool error in
//! every revision.

use mcpg_core::model::JsonObject;
use serde_json::Value;

/// Why `args` does not fit the types `schema` declares for its properties, if it
/// does not (the first wrong argument only). Undeclared properties and schemas
/// without a `type` are not checked.
pub fn wrong_type(tool: &str, schema: &Value, args: &JsonObject) -> Option<String> {
    let props = schema.get("properties")?.as_object()?;
    args.iter().find_map(|(key, value)| {
        let declared = props.get(key)?.get("type")?;
        let names: Vec<&str> = match declared {
            Value::String(t) => vec![t.as_str()],
            Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
            _ => return None,
        };
        if names.is_empty() || names.iter().any(|t| fits(t, value)) {
            return None;
        }
        Some(format!(
            "Invalid arguments: {key:?} of {tool} must be {}, got {value}",
            names.join(" or ")
        ))
    })
}

/// Whether `v` is of JSON Schema type `t` (an unknown type name accepts anything).
fn fits(t: &str, v: &Value) -> bool {
    match t {
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "null" => v.is_null(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn args(v: Value) -> JsonObject {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn a_wrong_json_type_is_named_and_a_right_one_passes() {
        let schema = json!({"type": "object", "properties": {"a": {"type": "number"}, "n": {"type": ["integer", "null"]}}});
        let bad = wrong_type("add_numbers", &schema, &args(json!({"a": "two"})));
        assert_eq!(
            bad.as_deref(),
            Some("Invalid arguments: \"a\" of add_numbers must be number, got \"two\"")
        );
        assert_eq!(
            wrong_type("t", &schema, &args(json!({"a": 2.5, "n": null}))),
            None
        );
        assert_eq!(
            wrong_type("t", &schema, &args(json!({"n": 3.0, "extra": "x"}))),
            None
        );
        assert!(wrong_type("t", &schema, &args(json!({"n": 3.5}))).is_some());
    }
}
