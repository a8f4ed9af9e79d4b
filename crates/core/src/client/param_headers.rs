//! 2026-07-28 `x-mcp-header` (SEP-2243, `basic/transports/streamable-http`
//! "Custom Headers from Tool Parameters"): a property of a tool's `inputSchema` may
//! name an HTTP header, `Mcp-Param-{name}`, that mirrors the argument's value on
//! `tools/call`. Clients must send those headers, and must leave out of `tools/list`
//! every tool whose annotations break the rules checked here.
//!
//! The core computes these headers like every other protocol header, so each driver
//! (native, browser, bridge) sends the same ones.

use serde_json::Value;

use super::outgoing::header_value;
use crate::model::JsonObject;

/// One valid annotation: where the argument sits and which header mirrors it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ParamHeader {
    /// The chain of `properties` keys from the schema root to the annotated property.
    pub path: Vec<String>,
    /// The `{name}` of `Mcp-Param-{name}`, as the server spelled it.
    pub name: String,
    /// Whether the property is declared `integer` (its values are written in decimal).
    pub integer: bool,
}

/// Keywords whose value is one subschema. A header annotation below any of these
/// is not "statically reachable" from the root, which makes it invalid.
const ONE_SCHEMA: &[&str] = &[
    "additionalProperties",
    "unevaluatedProperties",
    "items",
    "additionalItems",
    "unevaluatedItems",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "contentSchema",
];

/// Keywords whose value is an array of subschemas.
const SCHEMA_ARRAYS: &[&str] = &["allOf", "anyOf", "oneOf", "prefixItems", "items"];

/// Keywords whose value maps names to subschemas (besides `properties`).
const SCHEMA_MAPS: &[&str] = &[
    "$defs",
    "definitions",
    "patternProperties",
    "dependentSchemas",
    "dependencies",
];

/// Reads the `x-mcp-header` annotations of an `inputSchema`: all of them when
/// every one is valid, else the first rule broken, in words.
pub(crate) fn annotations(schema: &Value) -> Result<Vec<ParamHeader>, String> {
    let mut found = Vec::new();
    walk(schema, &mut Vec::new(), true, "inputSchema", &mut found)?;
    let mut seen: Vec<String> = Vec::new();
    for h in &found {
        // Header names are case-insensitive, so two annotations that differ only in
        // case would name the same header.
        let lower = h.name.to_ascii_lowercase();
        if seen.contains(&lower) {
            return Err(format!(
                "x-mcp-header {:?} is used more than once (names must be unique, ignoring case)",
                h.name
            ));
        }
        seen.push(lower);
    }
    Ok(found)
}

/// Why an `inputSchema`'s `x-mcp-header` annotations are invalid (the first rule
/// broken, in words), or `None` when they are valid or absent: the check behind
/// leaving a tool out of a 2026-07-28 listing, for tools that judge a server
/// (`mcpg doctor`).
pub fn param_header_problem(schema: &Value) -> Option<String> {
    annotations(schema).err()
}

/// How many `x-mcp-header` annotations an `inputSchema` has, when they are valid.
pub fn param_header_count(schema: &Value) -> Option<usize> {
    annotations(schema).ok().map(|v| v.len())
}

/// Visits one schema. `reachable` says whether the path so far is made only of
/// `properties` keys; `at` names the place for messages.
fn walk(
    schema: &Value,
    path: &mut Vec<String>,
    reachable: bool,
    at: &str,
    found: &mut Vec<ParamHeader>,
) -> Result<(), String> {
    let Some(obj) = schema.as_object() else {
        // Boolean schemas and junk carry no annotations.
        return Ok(());
    };
    if let Some(raw) = obj.get("x-mcp-header") {
        found.push(check_one(obj, raw, path, reachable, at)?);
    }
    for (key, value) in obj {
        if key == "properties" {
            for (prop, sub) in value.as_object().into_iter().flatten() {
                path.push(prop.clone());
                let here = if reachable {
                    format!("property {:?}", path.join("."))
                } else {
                    format!("{at} → {prop:?}")
                };
                let r = walk(sub, path, reachable, &here, found);
                path.pop();
                r?;
            }
            continue;
        }
        let here = format!("{at} → {key}");
        if ONE_SCHEMA.contains(&key.as_str()) && value.is_object() {
            walk(value, path, false, &here, found)?;
        }
        if SCHEMA_ARRAYS.contains(&key.as_str()) {
            for sub in value.as_array().into_iter().flatten() {
                walk(sub, path, false, &here, found)?;
            }
        }
        if SCHEMA_MAPS.contains(&key.as_str()) {
            for sub in value.as_object().into_iter().flatten().map(|(_, s)| s) {
                walk(sub, path, false, &here, found)?;
            }
        }
    }
    Ok(())
}

/// Checks one annotation against the spec's constraints.
fn check_one(
    prop: &JsonObject,
    raw: &Value,
    path: &[String],
    reachable: bool,
    at: &str,
) -> Result<ParamHeader, String> {
    let Some(name) = raw.as_str() else {
        return Err(format!("x-mcp-header on {at} is not a string"));
    };
    if !reachable || path.is_empty() {
        return Err(format!(
            "x-mcp-header {name:?} on {at} is not reachable from the schema root through `properties` alone"
        ));
    }
    if name.is_empty() {
        return Err(format!("x-mcp-header on {at} is empty"));
    }
    // RFC 9110 `1*tchar`, which also rules out spaces, colons, control characters
    // and anything outside ASCII.
    if !name.bytes().all(is_tchar) {
        return Err(format!(
            "x-mcp-header {name:?} on {at} is not a valid header name (RFC 9110 token characters only)"
        ));
    }
    let types: Vec<&str> = match prop.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    };
    // Only values with one exact text form fit in a header; `null` is allowed
    // beside them because a null argument simply sends no header.
    let primitive = !types.is_empty()
        && types.iter().any(|t| *t != "null")
        && types
            .iter()
            .all(|t| matches!(*t, "string" | "integer" | "boolean" | "null"));
    if !primitive {
        let declared = match prop.get("type") {
            Some(t) => t.to_string(),
            None => "no type".to_owned(),
        };
        return Err(format!(
            "x-mcp-header {name:?} is on {at} of type {declared}; only string, integer and boolean may be mirrored"
        ));
    }
    Ok(ParamHeader {
        path: path.to_vec(),
        name: name.to_owned(),
        integer: types.contains(&"integer"),
    })
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// The largest integer a JavaScript number holds exactly (2^53 − 1); the spec keeps
/// mirrored integers within ±this so every server reads them the same.
const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// The `Mcp-Param-*` headers for `arguments`, plus a note for each value that
/// could not be mirrored faithfully. Absent and null arguments send no header.
pub(crate) fn headers(
    specs: &[ParamHeader],
    arguments: Option<&Value>,
) -> (Vec<(String, String)>, Vec<String>) {
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for spec in specs {
        let mut value = arguments;
        for key in &spec.path {
            value = value.and_then(|v| v.get(key));
        }
        let text = match value {
            None | Some(Value::Null) => continue,
            Some(Value::String(s)) => s.clone(),
            Some(Value::Bool(b)) => b.to_string(),
            Some(Value::Number(n)) => {
                let whole = n.as_i64().or_else(|| {
                    // 42.0 for an integer property is still 42 in decimal.
                    n.as_f64()
                        .filter(|f| spec.integer && f.fract() == 0.0 && f.abs() < 9.0e15)
                        .map(|f| f as i64)
                });
                if let Some(i) = whole.filter(|i| i.abs() > MAX_SAFE_INTEGER) {
                    notes.push(format!(
                        "argument {:?} = {i} is outside ±(2^53 − 1), so Mcp-Param-{} may not match on every server",
                        spec.path.join("."),
                        spec.name
                    ));
                }
                whole.map_or_else(|| n.to_string(), |i| i.to_string())
            }
            Some(other) => {
                notes.push(format!(
                    "argument {:?} is {}, not a string, integer or boolean; Mcp-Param-{} carries its JSON text",
                    spec.path.join("."),
                    crate::validate::kind_of(other),
                    spec.name
                ));
                other.to_string()
            }
        };
        out.push((format!("Mcp-Param-{}", spec.name), header_value(&text)));
    }
    (out, notes)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema(props: Value) -> Value {
        json!({"type": "object", "properties": props})
    }

    #[test]
    fn valid_annotations_are_read_with_their_paths() {
        let s = schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "opts": {"type": "object", "properties": {
                "tenant": {"type": ["string", "null"], "x-mcp-header": "Tenant"}
            }},
            "n": {"type": "integer", "x-mcp-header": "N"},
            "plain": {"type": "number"}
        }));
        let got = annotations(&s).unwrap();
        let paths: Vec<(String, &str)> = got
            .iter()
            .map(|h| (h.path.join("."), h.name.as_str()))
            .collect();
        assert_eq!(
            paths,
            [
                ("region".to_owned(), "Region"),
                ("opts.tenant".to_owned(), "Tenant"),
                ("n".to_owned(), "N")
            ]
        );
    }

    #[test]
    fn every_rule_is_enforced() {
        let bad = [
            schema(json!({"r": {"type": "string", "x-mcp-header": ""}})),
            schema(json!({"r": {"type": "string", "x-mcp-header": 7}})),
            schema(json!({"r": {"type": "number", "x-mcp-header": "Score"}})),
            schema(json!({"r": {"type": "object", "x-mcp-header": "Data"}})),
            schema(
                json!({"r": {"type": "array", "items": {"type": "string"}, "x-mcp-header": "Items"}}),
            ),
            schema(json!({"r": {"type": "null", "x-mcp-header": "Nil"}})),
            schema(json!({"r": {"x-mcp-header": "Untyped"}})),
            schema(json!({"r": {"type": "string", "x-mcp-header": "Region:Primary"}})),
            schema(json!({"r": {"type": "string", "x-mcp-header": "Région"}})),
            schema(json!({"r": {"type": "string", "x-mcp-header": "Region 1"}})),
            schema(json!({"r": {"type": "string", "x-mcp-header": "Region\t1"}})),
            schema(
                json!({"a": {"type": "string", "x-mcp-header": "MyField"}, "b": {"type": "string", "x-mcp-header": "myfield"}}),
            ),
            schema(
                json!({"a": {"type": "object", "properties": {"x": {"type": "string", "x-mcp-header": "A"}}}, "b": {"type": "string", "x-mcp-header": "a"}}),
            ),
            schema(
                json!({"list": {"type": "array", "items": {"type": "string", "x-mcp-header": "Item"}}}),
            ),
            json!({"type": "object", "oneOf": [{"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}]}),
            json!({"type": "object", "$defs": {"id": {"type": "string", "x-mcp-header": "Id"}}, "properties": {"id": {"$ref": "#/$defs/id"}}}),
            json!({"type": "object", "if": {"properties": {"a": {"type": "string", "x-mcp-header": "A"}}}}),
            json!({"type": "object", "x-mcp-header": "Root"}),
        ];
        for s in bad {
            assert!(annotations(&s).is_err(), "{s}");
        }
    }

    #[test]
    fn a_header_name_inside_instance_data_is_not_an_annotation() {
        // `default`, `const` and `examples` hold data, not schemas.
        let s = schema(json!({"cfg": {"type": "object", "default": {"x-mcp-header": "not one"}}}));
        assert_eq!(annotations(&s).unwrap(), []);
    }

    #[test]
    fn values_are_converted_and_encoded() {
        let specs = annotations(&schema(json!({
            "region": {"type": "string", "x-mcp-header": "Region"},
            "n": {"type": "integer", "x-mcp-header": "Priority"},
            "f": {"type": "integer", "x-mcp-header": "Whole"},
            "v": {"type": "boolean", "x-mcp-header": "Verbose"},
            "w": {"type": "string", "x-mcp-header": "Whitespace"},
            "s": {"type": "string", "x-mcp-header": "Sentinel"},
            "o": {"type": "object", "properties": {"t": {"type": "boolean", "x-mcp-header": "Deep"}}},
            "missing": {"type": "string", "x-mcp-header": "Missing"}
        })))
        .unwrap();
        let args = json!({"region": "us-west1", "n": -7, "f": 42.0, "v": null, "w": " padded ",
            "s": "=?base64?literal?=", "o": {"t": false}});
        let (h, notes) = headers(&specs, Some(&args));
        let h: Vec<(&str, &str)> = h.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(
            h,
            [
                ("Mcp-Param-Region", "us-west1"),
                ("Mcp-Param-Priority", "-7"),
                ("Mcp-Param-Whole", "42"),
                ("Mcp-Param-Whitespace", "=?base64?IHBhZGRlZCA=?="),
                ("Mcp-Param-Sentinel", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
                ("Mcp-Param-Deep", "false"),
            ]
        );
        assert!(notes.is_empty(), "{notes:?}");
    }

    #[test]
    fn unfaithful_values_are_noted() {
        let specs = annotations(&schema(json!({
            "n": {"type": "integer", "x-mcp-header": "Big"},
            "s": {"type": "string", "x-mcp-header": "Obj"}
        })))
        .unwrap();
        let (h, notes) = headers(
            &specs,
            Some(&json!({"n": 9007199254740993_i64, "s": {"a": 1}})),
        );
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].1, "9007199254740993");
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}
