//! Making up tool arguments from a JSON Schema, for scenarios that only need a call
//! to happen. (What the server asks back is answered by `crate::asks`, like every
//! other command's.)

use mcpg_core::model::JsonObject;
use serde_json::{Value, json};

/// Arguments for a tool: every required property gets its `default`, else a
/// plain value of its type.
pub fn from_schema(schema: &Value) -> JsonObject {
    let mut out = JsonObject::new();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return out;
    };
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (name, prop) in props {
        if required.contains(&name.as_str()) {
            out.insert(name.clone(), value_for(prop));
        }
    }
    out
}

fn value_for(prop: &Value) -> Value {
    if let Some(d) = prop.get("default") {
        return d.clone();
    }
    if let Some(first) = prop
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    match prop.get("type").and_then(Value::as_str) {
        Some("number" | "integer") => json!(1),
        Some("boolean") => json!(true),
        Some("object") => json!({}),
        Some("array") => json!([]),
        Some("null") => Value::Null,
        _ => json!("test"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_properties_get_values() {
        let schema = json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string","default":"x"},"c":{"type":"boolean"}},"required":["a","b"]});
        assert_eq!(Value::Object(from_schema(&schema)), json!({"a":1,"b":"x"}));
    }
}
