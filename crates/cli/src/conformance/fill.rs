//! Making up values from a JSON Schema: tool arguments for scenarios that only need
//! a call to happen, and elicitation answers that take the schema's defaults.

use mcpg_core::jsonrpc::RpcError;
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

/// Answers `elicitation/create` by accepting, with every field the schema gives a
/// default for set to that default (SEP-1034).
pub fn answer_elicitation(method: &str, params: Option<&Value>) -> Result<Value, RpcError> {
    if method != "elicitation/create" {
        return Err(super::unsupported(method));
    }
    let mut content = JsonObject::new();
    let props = params
        .and_then(|p| p.pointer("/requestedSchema/properties"))
        .and_then(Value::as_object);
    for (name, prop) in props.into_iter().flatten() {
        if let Some(d) = prop.get("default") {
            content.insert(name.clone(), d.clone());
        }
    }
    Ok(json!({ "action": "accept", "content": content }))
}

/// Answers every entry of an `InputRequiredResult`'s `inputRequests` map (only
/// elicitation is supported), keyed as the server keyed them.
pub fn input_responses(pending: &Value) -> JsonObject {
    let mut out = JsonObject::new();
    for (key, req) in pending
        .get("inputRequests")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let method = req
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let answer = answer_elicitation(method, req.get("params"))
            .unwrap_or_else(|e| json!({ "error": e.to_value() }));
        out.insert(key.clone(), answer);
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn required_properties_get_values() {
        let schema = json!({"type":"object","properties":{"a":{"type":"number"},"b":{"type":"string","default":"x"},"c":{"type":"boolean"}},"required":["a","b"]});
        assert_eq!(Value::Object(from_schema(&schema)), json!({"a":1,"b":"x"}));
        let params = json!({"requestedSchema":{"properties":{"name":{"type":"string","default":"John"},"free":{"type":"string"}}}});
        let answer = answer_elicitation("elicitation/create", Some(&params)).unwrap();
        assert_eq!(answer, json!({"action":"accept","content":{"name":"John"}}));
    }
}
