//! Walking a schema's subschemas with their JSON pointers.

use serde_json::{Map, Value};

/// The subschemas the host's reshaping descends into (`provider/schema.rs`'s
/// `children`): what it can rewrite is what lies along these.
pub(super) const HOST: &[&str] = &["properties", "items", "anyOf", "oneOf"];

/// Every place JSON Schema keeps a subschema that a validator looks into.
pub(super) const ALL: &[&str] = &[
    "properties",
    "items",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$defs",
    "definitions",
    "additionalProperties",
    "prefixItems",
];

/// One pointer segment, escaped (RFC 6901: `~` as `~0`, `/` as `~1`).
pub(super) fn seg(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Calls `f` on `v` (when it is an object schema) at `ptr`, then on every subschema
/// under the keywords `via`, depth first, in document order.
pub(super) fn walk(
    v: &Value,
    ptr: &str,
    via: &[&str],
    f: &mut dyn FnMut(&Map<String, Value>, &str),
) {
    let Value::Object(o) = v else { return };
    f(o, ptr);
    for &key in via {
        let Some(child) = o.get(key) else { continue };
        let at = format!("{ptr}/{key}");
        match (key, child) {
            ("properties" | "$defs" | "definitions", Value::Object(map)) => {
                for (k, s) in map {
                    walk(s, &format!("{at}/{}", seg(k)), via, f);
                }
            }
            (_, Value::Array(list)) => {
                for (i, s) in list.iter().enumerate() {
                    walk(s, &format!("{at}/{i}"), via, f);
                }
            }
            (_, s) => walk(s, &at, via, f),
        }
    }
}

/// The schema's `type` when it is one name (`"string"`), or the one name left in a
/// list once `"null"` is set aside (`["string", "null"]`).
pub(super) fn one_type(o: &Map<String, Value>) -> Option<&str> {
    match o.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(list) => {
            let mut names = list.iter().filter(|t| t.as_str() != Some("null"));
            let first = names.next()?.as_str()?;
            names.next().is_none().then_some(first)
        }
        _ => None,
    }
}

/// Whether the schema's `type` names `name`, alone or in a list.
pub(super) fn has_type(o: &Map<String, Value>, name: &str) -> bool {
    match o.get("type") {
        Some(Value::String(t)) => t == name,
        Some(Value::Array(list)) => list.iter().any(|t| t.as_str() == Some(name)),
        _ => false,
    }
}
