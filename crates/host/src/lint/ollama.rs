//! Ollama: `/api/chat` decodes `tools` into Go structs, and a keyword those structs
//! have no field for is gone before the model's template renders the tools. Ollama
//! refuses nothing here; it drops.
//!
//! The fields below are those of `ToolFunctionParameters` and `ToolProperty` in
//! Ollama's `api/types.go` (0.12 and later; older releases kept fewer, e.g. no
//! `anyOf`). `items` and `$defs` are decoded as `any`, so what lies under them is
//! kept whole.

use serde_json::{Map, Value};

use super::walk::seg;
use super::{HostAction, Rule, Severity, Sink};

/// `ToolFunctionParameters`: the root of `parameters`.
const ROOT_KEPT: &[&str] = &["type", "$defs", "items", "required", "properties"];
/// `ToolProperty`: each property, and each property of a property.
const PROPERTY_KEPT: &[&str] = &[
    "anyOf",
    "type",
    "items",
    "description",
    "enum",
    "properties",
];

pub(super) fn check(schema: &Value, sink: &mut Sink<'_>) {
    let Value::Object(root) = schema else { return };
    dropped(root, "/inputSchema", ROOT_KEPT, sink);
    properties(root, "/inputSchema", sink);
}

fn properties(o: &Map<String, Value>, ptr: &str, sink: &mut Sink<'_>) {
    if let Some(Value::Object(props)) = o.get("properties") {
        for (k, p) in props {
            property(p, &format!("{ptr}/properties/{}", seg(k)), sink);
        }
    }
}

fn property(p: &Value, ptr: &str, sink: &mut Sink<'_>) {
    let Value::Object(o) = p else { return };
    dropped(o, ptr, PROPERTY_KEPT, sink);
    properties(o, ptr, sink);
    if let Some(Value::Array(list)) = o.get("anyOf") {
        for (i, s) in list.iter().enumerate() {
            property(s, &format!("{ptr}/anyOf/{i}"), sink);
        }
    }
}

fn dropped(o: &Map<String, Value>, ptr: &str, kept: &[&str], sink: &mut Sink<'_>) {
    for k in o.keys().filter(|k| !kept.contains(&k.as_str())) {
        sink.push(
            format!("{ptr}/{}", seg(k)),
            Rule::OllamaDroppedKeyword,
            Severity::Drop,
            HostAction::SendsAsIs,
            format!("Ollama's request types have no {k:?} here: it is dropped before the model sees the tool"),
        );
    }
}
