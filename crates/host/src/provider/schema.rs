//! Adapting `inputSchema` to what a provider accepts, recording every change so the
//! page can show exactly what the model will see. MCP allows any JSON Schema;
//! OpenAI's strict mode and Gemini take subsets.

use serde_json::{Map, Value, json};

use super::Provider;

/// One change made to a tool's schema.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaChange {
    /// The MCP tool name (filled in by [`super::shape_tools`]).
    pub tool: String,
    /// Where, as a JSON pointer into the schema (`""` is the root).
    pub path: String,
    /// What changed and why.
    pub what: String,
}

/// Keywords Gemini's `Schema` understands (the lint reads it too).
pub(crate) const GEMINI_KEYWORDS: [&str; 22] = [
    "anyOf",
    "default",
    "description",
    "enum",
    "example",
    "format",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "nullable",
    "pattern",
    "properties",
    "propertyOrdering",
    "required",
    "title",
    "type",
];

/// The string formats Gemini's `Schema` takes: "only 'enum' and 'date-time' are
/// supported for STRING type" (its 400 for any other; the `Schema` page lists the
/// same two). The lint reads it too.
pub(crate) const GEMINI_STRING_FORMATS: [&str; 2] = ["enum", "date-time"];

/// Keywords OpenAI's strict mode rejects (the lint reads it too).
pub(crate) const STRICT_UNSUPPORTED: [&str; 7] = [
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
];

/// Adapts `schema` for `provider`; returns the new schema and the changes made.
pub fn adapt_schema(
    schema: &Value,
    provider: Provider,
    strict: bool,
) -> (Value, Vec<SchemaChange>) {
    let mut changes = Vec::new();
    let mut out = schema.clone();
    if !out.is_object() {
        changes.push(change(
            "",
            "the schema was not an object; replaced with an empty object schema",
        ));
        out = json!({"type": "object"});
    }
    if let Value::Object(root) = &mut out
        && root.get("type").and_then(Value::as_str) != Some("object")
    {
        root.insert("type".into(), Value::from("object"));
        changes.push(change(
            "",
            "set \"type\": \"object\" at the root, which every provider requires",
        ));
    }
    match provider {
        Provider::Anthropic | Provider::Ollama => {}
        Provider::OpenAiChat | Provider::OpenAiResponses if strict => {
            strictify(&mut out, "", &mut changes)
        }
        Provider::OpenAiChat | Provider::OpenAiResponses => {}
        Provider::Gemini => geminify(&mut out, "", &mut changes),
    }
    (out, changes)
}

fn change(path: &str, what: &str) -> SchemaChange {
    SchemaChange {
        tool: String::new(),
        path: path.to_owned(),
        what: what.to_owned(),
    }
}

fn children(o: &mut Map<String, Value>, path: &str, f: &mut dyn FnMut(&mut Value, &str)) {
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        for (k, v) in props.iter_mut() {
            f(v, &format!("{path}/properties/{k}"));
        }
    }
    if let Some(items) = o.get_mut("items") {
        f(items, &format!("{path}/items"));
    }
    for key in ["anyOf", "oneOf"] {
        if let Some(Value::Array(list)) = o.get_mut(key) {
            for (i, v) in list.iter_mut().enumerate() {
                f(v, &format!("{path}/{key}/{i}"));
            }
        }
    }
}

/// OpenAI strict mode: every object closed, every property required (optional ones
/// become nullable), unsupported keywords removed.
fn strictify(v: &mut Value, path: &str, changes: &mut Vec<SchemaChange>) {
    let Value::Object(o) = v else { return };
    for k in STRICT_UNSUPPORTED {
        if o.remove(k).is_some() {
            changes.push(change(
                path,
                &format!("removed \"{k}\", which strict mode does not support"),
            ));
        }
    }
    let is_object =
        o.get("type").and_then(Value::as_str) == Some("object") || o.contains_key("properties");
    if is_object {
        if o.get("additionalProperties") != Some(&Value::Bool(false)) {
            o.insert("additionalProperties".into(), Value::Bool(false));
            changes.push(change(
                path,
                "set additionalProperties: false (strict mode requires closed objects)",
            ));
        }
        let keys: Vec<String> = o
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
            .unwrap_or_default();
        let required: Vec<String> = o
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let optional: Vec<String> = keys
            .iter()
            .filter(|k| !required.contains(k))
            .cloned()
            .collect();
        if !optional.is_empty() {
            if let Some(Value::Object(props)) = o.get_mut("properties") {
                for k in &optional {
                    if let Some(p) = props.get_mut(k) {
                        make_nullable(p);
                    }
                }
            }
            changes.push(change(
                path,
                &format!(
                    "made {} required and nullable (strict mode has no optional properties)",
                    optional.join(", ")
                ),
            ));
        }
        if !keys.is_empty() || o.contains_key("required") {
            o.insert(
                "required".into(),
                Value::Array(keys.into_iter().map(Value::from).collect()),
            );
        }
    }
    children(o, path, &mut |c, p| strictify(c, p, changes));
}

fn make_nullable(p: &mut Value) {
    let Value::Object(o) = p else { return };
    match o.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = t.clone();
            o.insert("type".into(), json!([t, "null"]));
        }
        Some(Value::Array(a)) if !a.contains(&Value::from("null")) => a.push(Value::from("null")),
        Some(_) => {}
        None => {
            let inner = Value::Object(std::mem::take(o));
            o.insert("anyOf".into(), json!([inner, {"type": "null"}]));
        }
    }
}

/// Gemini: only its `Schema` keywords; `type` arrays become `nullable`; `const`
/// becomes a one-value `enum`; `oneOf` becomes `anyOf`.
fn geminify(v: &mut Value, path: &str, changes: &mut Vec<SchemaChange>) {
    let Value::Object(o) = v else { return };
    if let Some(c) = o.remove("const") {
        o.insert("enum".into(), json!([c]));
        changes.push(change(path, "const became a one-value enum"));
    }
    if let Some(one) = o.remove("oneOf") {
        o.insert("anyOf".into(), one);
        changes.push(change(path, "oneOf became anyOf (Gemini has no oneOf)"));
    }
    if let Some(Value::Array(types)) = o.get("type").cloned() {
        let non_null: Vec<&Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .collect();
        if non_null.len() == 1 {
            o.insert("type".into(), non_null[0].clone());
            if non_null.len() < types.len() {
                o.insert("nullable".into(), Value::Bool(true));
            }
            changes.push(change(path, "a type list became one type (plus nullable)"));
        } else {
            o.remove("type");
            changes.push(change(
                path,
                "removed a multi-type list, which Gemini cannot express",
            ));
        }
    }
    if let Some(Value::Array(values)) = o.get("enum")
        && values.iter().any(|e| !e.is_string())
    {
        o.remove("enum");
        changes.push(change(
            path,
            "removed an enum of non-strings (Gemini enums are strings)",
        ));
    }
    // Gemini answers 400 to any other string format ("only 'enum' and 'date-time'
    // are supported for STRING type"), so one it would refuse is removed.
    if o.get("type").and_then(Value::as_str) == Some("string")
        && let Some(f) = o.get("format").and_then(Value::as_str)
        && !GEMINI_STRING_FORMATS.contains(&f)
    {
        let f = f.to_owned();
        o.remove("format");
        changes.push(change(
            path,
            &format!("removed format {f:?} (Gemini takes only enum and date-time for strings)"),
        ));
    }
    let dropped: Vec<String> = o
        .keys()
        .filter(|k| !GEMINI_KEYWORDS.contains(&k.as_str()))
        .cloned()
        .collect();
    for k in &dropped {
        o.remove(k);
    }
    if !dropped.is_empty() {
        changes.push(change(
            path,
            &format!(
                "removed {} (not in Gemini's schema subset)",
                dropped.join(", ")
            ),
        ));
    }
    children(o, path, &mut |c, p| geminify(c, p, changes));
}
