//! A small JSON Schema checker: enough of the keywords tool schemas use in practice
//! (type, required, enum, const, minimum/maximum and their exclusive forms,
//! minLength/maxLength, minItems/maxItems, items, properties, additionalProperties,
//! anyOf/oneOf/allOf, local `$ref`s) to check `structuredContent` against
//! `outputSchema` and the tool form before it is sent. Unknown keywords are ignored,
//! as JSON Schema says. A full validator crate would cost the page far more wasm
//! than the page itself.

pub use mcpg_loop_data::SchemaError;
use serde_json::{Map, Value};

/// Guards against self-referencing `$ref` chains.
const MAX_DEPTH: usize = 64;

/// Checks `instance` against `schema`; an empty list means it fits.
pub fn validate(schema: &Value, instance: &Value) -> Vec<SchemaError> {
    let mut out = Vec::new();
    check(schema, schema, instance, "", 0, &mut out);
    out
}

/// The JSON type name of a value, as JSON Schema spells it.
pub fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if is_integer(n) => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

fn is_integer(n: &serde_json::Number) -> bool {
    n.is_i64()
        || n.is_u64()
        || n.as_f64()
            .is_some_and(|f| f.fract() == 0.0 && f.is_finite())
}

fn type_matches(wanted: &str, v: &Value) -> bool {
    match (wanted, v) {
        ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => is_integer(n),
        _ => wanted == type_name(v),
    }
}

/// Resolves a local reference (`#/$defs/x`, `#/definitions/x`, `#`).
fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    let pointer = reference.strip_prefix('#')?;
    root.pointer(pointer)
}

fn push(out: &mut Vec<SchemaError>, path: &str, message: String) {
    out.push(SchemaError {
        path: path.to_owned(),
        message,
    });
}

fn check(
    root: &Value,
    schema: &Value,
    v: &Value,
    path: &str,
    depth: usize,
    out: &mut Vec<SchemaError>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let s = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => {
            push(out, path, "no value is allowed here".into());
            return;
        }
        Value::Object(s) => s,
        // Not a schema: nothing to check against.
        _ => return,
    };
    if let Some(Value::String(r)) = s.get("$ref") {
        match resolve(root, r) {
            Some(target) => check(root, target, v, path, depth + 1, out),
            None => push(out, path, format!("cannot follow $ref {r:?}")),
        }
    }
    check_type(s, v, path, out);
    check_values(s, v, path, out);
    check_combinators(root, s, v, path, depth, out);
    match v {
        Value::Number(n) => check_number(s, n.as_f64().unwrap_or(0.0), path, out),
        Value::String(text) => check_string(s, text, path, out),
        Value::Array(items) => check_array(root, s, items, path, depth, out),
        Value::Object(members) => check_object(root, s, members, path, depth, out),
        _ => {}
    }
}

fn check_type(s: &Map<String, Value>, v: &Value, path: &str, out: &mut Vec<SchemaError>) {
    let ok = match s.get("type") {
        Some(Value::String(t)) => type_matches(t, v),
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .any(|t| type_matches(t, v)),
        _ => true,
    };
    if !ok {
        let wanted = match s.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" or "),
            _ => String::new(),
        };
        push(
            out,
            path,
            format!("expected {wanted}, got {}", type_name(v)),
        );
    }
}

/// Equality as JSON Schema defines it for `enum` and `const`: numbers by value
/// (`1` equals `1.0`, which `Value`'s `==` denies), arrays and objects member-wise.
fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => match (x.as_u64(), y.as_u64()) {
                (Some(i), Some(j)) => i == j,
                _ => x.as_f64() == y.as_f64(),
            },
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| json_equal(a, b)))
        }
        _ => a == b,
    }
}

fn check_values(s: &Map<String, Value>, v: &Value, path: &str, out: &mut Vec<SchemaError>) {
    if let Some(Value::Array(allowed)) = s.get("enum")
        && !allowed.iter().any(|a| json_equal(a, v))
    {
        let list: Vec<String> = allowed.iter().map(Value::to_string).collect();
        push(out, path, format!("must be one of {}", list.join(", ")));
    }
    if let Some(c) = s.get("const")
        && !json_equal(c, v)
    {
        push(out, path, format!("must be {c}"));
    }
}

fn check_combinators(
    root: &Value,
    s: &Map<String, Value>,
    v: &Value,
    path: &str,
    depth: usize,
    out: &mut Vec<SchemaError>,
) {
    if let Some(Value::Array(all)) = s.get("allOf") {
        for sub in all {
            check(root, sub, v, path, depth + 1, out);
        }
    }
    let fits = |sub: &Value| {
        let mut errs = Vec::new();
        check(root, sub, v, path, depth + 1, &mut errs);
        errs.is_empty()
    };
    if let Some(Value::Array(any)) = s.get("anyOf")
        && !any.iter().any(fits)
    {
        push(
            out,
            path,
            "matches none of the allowed shapes (anyOf)".into(),
        );
    }
    if let Some(Value::Array(one)) = s.get("oneOf") {
        let n = one.iter().filter(|sub| fits(sub)).count();
        if n != 1 {
            push(
                out,
                path,
                format!("must match exactly one allowed shape (oneOf), matches {n}"),
            );
        }
    }
}

fn check_number(s: &Map<String, Value>, x: f64, path: &str, out: &mut Vec<SchemaError>) {
    let bound = |k: &str| s.get(k).and_then(Value::as_f64);
    if let Some(min) = bound("minimum")
        && x < min
    {
        push(out, path, format!("must be at least {}", fmt_num(min)));
    }
    if let Some(max) = bound("maximum")
        && x > max
    {
        push(out, path, format!("must be at most {}", fmt_num(max)));
    }
    if let Some(min) = bound("exclusiveMinimum")
        && x <= min
    {
        push(out, path, format!("must be more than {}", fmt_num(min)));
    }
    if let Some(max) = bound("exclusiveMaximum")
        && x >= max
    {
        push(out, path, format!("must be less than {}", fmt_num(max)));
    }
}

fn check_string(s: &Map<String, Value>, text: &str, path: &str, out: &mut Vec<SchemaError>) {
    let len = text.chars().count() as u64;
    if let Some(min) = s.get("minLength").and_then(Value::as_u64)
        && len < min
    {
        push(out, path, format!("must be at least {min} characters"));
    }
    if let Some(max) = s.get("maxLength").and_then(Value::as_u64)
        && len > max
    {
        push(out, path, format!("must be at most {max} characters"));
    }
}

fn check_array(
    root: &Value,
    s: &Map<String, Value>,
    items: &[Value],
    path: &str,
    depth: usize,
    out: &mut Vec<SchemaError>,
) {
    let n = items.len() as u64;
    if let Some(min) = s.get("minItems").and_then(Value::as_u64)
        && n < min
    {
        push(out, path, format!("needs at least {min} item(s)"));
    }
    if let Some(max) = s.get("maxItems").and_then(Value::as_u64)
        && n > max
    {
        push(out, path, format!("takes at most {max} item(s)"));
    }
    if let Some(item_schema) = s.get("items").filter(|i| i.is_object() || i.is_boolean()) {
        for (i, item) in items.iter().enumerate() {
            check(
                root,
                item_schema,
                item,
                &format!("{path}/{i}"),
                depth + 1,
                out,
            );
        }
    }
}

fn check_object(
    root: &Value,
    s: &Map<String, Value>,
    members: &Map<String, Value>,
    path: &str,
    depth: usize,
    out: &mut Vec<SchemaError>,
) {
    if let Some(Value::Array(required)) = s.get("required") {
        for name in required.iter().filter_map(Value::as_str) {
            if !members.contains_key(name) {
                push(out, path, format!("{name:?} is required"));
            }
        }
    }
    let props = s.get("properties").and_then(Value::as_object);
    for (key, value) in members {
        let child = format!("{path}/{}", escape_pointer(key));
        match props.and_then(|p| p.get(key)) {
            Some(sub) => check(root, sub, value, &child, depth + 1, out),
            None => match s.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    push(out, path, format!("{key:?} is not an allowed property"));
                }
                Some(extra @ Value::Object(_)) => {
                    check(root, extra, value, &child, depth + 1, out);
                }
                _ => {}
            },
        }
    }
}

/// JSON Pointer escaping (`~` → `~0`, `/` → `~1`).
fn escape_pointer(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A number without a trailing `.0` when whole (the shared printer, see
/// [`mcpg_text::num`]).
pub use mcpg_text::num::fmt_num;

/// Checks a result's `structuredContent` against the tool's `outputSchema`: `None`
/// when there is nothing to check (no schema, or a tool error without structured
/// content), else whether it fits.
pub fn check_structured(
    tool: &mcpg_core::model::Tool,
    result: &mcpg_core::model::CallToolResult,
) -> Option<Result<(), Vec<SchemaError>>> {
    let schema = tool.output_schema.as_ref()?;
    match &result.structured_content {
        Some(sc) => {
            let errors = validate(schema, sc);
            Some(if errors.is_empty() {
                Ok(())
            } else {
                Err(errors)
            })
        }
        None if result.failed() => None,
        None => Some(Err(vec![SchemaError {
            path: String::new(),
            message: "the tool declares an outputSchema but the result has no structuredContent"
                .into(),
        }])),
    }
}
