//! A tool's `inputSchema` as form fields, and form input back to arguments, checked
//! before anything is sent. Pure, so the page only renders and the rules are tested
//! natively.
//!
//! Input is kept as text per field (what an `<input>` holds), keyed by a dotted path
//! (`party.adults`); arrays of scalars take one item per line.

use std::collections::BTreeMap;

use mcpg_core::model::JsonObject;
use serde_json::{Map, Value};

use crate::schema;

/// What kind of input a field needs.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldKind {
    /// A string.
    Text,
    /// A number.
    Number,
    /// An integer.
    Integer,
    /// A boolean (a checkbox with a "not set" state).
    Boolean,
    /// One of fixed values.
    Enum(Vec<Value>),
    /// A list of scalars of this kind, one per line.
    List(Box<FieldKind>),
    /// An object, member by member.
    Object(Vec<Field>),
    /// Anything the form cannot express: raw JSON.
    Json,
}

/// One form field.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    /// Property name.
    pub key: String,
    /// Dotted path from the top (`party.adults`).
    pub path: String,
    /// Its kind.
    pub kind: FieldKind,
    /// Whether the schema requires it.
    pub required: bool,
    /// The schema's default.
    pub default: Option<Value>,
    /// The schema's description (untrusted text).
    pub description: Option<String>,
    /// Bounds and hints worth showing ("1–5", "date").
    pub hint: Option<String>,
    /// Display titles of an `Enum` field's values (or of a list of enum values), in
    /// the values' order; empty when the schema gives none (elicitation schemas do,
    /// with `oneOf`/`anyOf` `const`+`title` or the legacy `enumNames`).
    pub titles: Vec<String>,
}

/// Why raw argument text (the form's JSON mode) cannot be sent at all, whatever
/// the schema says. The page tells these apart from schema problems, which a
/// learner may send anyway to see the server's answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArgumentsError {
    /// The text does not parse as JSON (serde_json's reason).
    #[error("not valid JSON: {0}")]
    NotJson(String),
    /// It parses, but `tools/call` arguments are an object.
    #[error("the arguments must be a JSON object")]
    NotAnObject,
}

/// Reads raw argument text: a JSON object, or why not.
pub fn parse_arguments(raw: &str) -> Result<JsonObject, ArgumentsError> {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(ArgumentsError::NotAnObject),
        Err(e) => Err(ArgumentsError::NotJson(e.to_string())),
    }
}

/// A problem with one field, or with the whole form (empty path).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Dotted path, `""` for the whole object.
    pub path: String,
    /// What kind of problem, for callers that treat them apart.
    pub kind: FieldErrorKind,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`FieldError`] a form treats apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum FieldErrorKind {
    /// A required field is empty (a form shows this only after a send attempt:
    /// an empty new form is not a mistake).
    Required,
    /// The text does not read as the field's type, or the value breaks the schema.
    Invalid,
    /// The raw arguments are not a JSON object ([`ArgumentsError`]): nothing can be
    /// sent, checked or not.
    Unreadable,
}

impl FieldError {
    /// A [`FieldErrorKind::Invalid`] problem at `path`.
    pub fn invalid(path: impl Into<String>, message: impl Into<String>) -> Self {
        FieldError {
            path: path.into(),
            kind: FieldErrorKind::Invalid,
            message: message.into(),
        }
    }
}

impl From<ArgumentsError> for FieldError {
    fn from(e: ArgumentsError) -> Self {
        FieldError {
            path: String::new(),
            kind: FieldErrorKind::Unreadable,
            message: e.to_string(),
        }
    }
}

/// The form input: text per dotted path.
pub type Values = BTreeMap<String, String>;

/// The fields of an object schema, in property order.
pub fn fields(schema: &Value) -> Vec<Field> {
    object_fields(schema, "")
}

fn object_fields(schema: &Value, prefix: &str) -> Vec<Field> {
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let Some(props) = schema.get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    props
        .iter()
        .map(|(key, prop)| {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            Field {
                kind: kind_of(prop, &path),
                key: key.clone(),
                required: required.contains(&key.as_str()),
                default: prop.get("default").cloned(),
                description: prop
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                hint: hint(prop),
                titles: Vec::new(),
                path,
            }
        })
        .collect()
}

fn type_name(prop: &Value) -> &str {
    match prop.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or(""),
        _ => "",
    }
}

fn kind_of(prop: &Value, path: &str) -> FieldKind {
    if let Some(Value::Array(values)) = prop.get("enum") {
        return FieldKind::Enum(values.clone());
    }
    match type_name(prop) {
        "string" => FieldKind::Text,
        "number" => FieldKind::Number,
        "integer" => FieldKind::Integer,
        "boolean" => FieldKind::Boolean,
        "array" => match prop.get("items").map(|i| kind_of(i, path)) {
            Some(k @ (FieldKind::Text | FieldKind::Number | FieldKind::Integer)) => {
                FieldKind::List(Box::new(k))
            }
            _ => FieldKind::Json,
        },
        "object" if prop.get("properties").is_some() => {
            FieldKind::Object(object_fields(prop, path))
        }
        _ => FieldKind::Json,
    }
}

fn hint(prop: &Value) -> Option<String> {
    let n = |k: &str| prop.get(k).and_then(Value::as_f64).map(schema::fmt_num);
    let mut parts = Vec::new();
    match (n("minimum"), n("maximum")) {
        (Some(a), Some(b)) => parts.push(format!("{a} to {b}")),
        (Some(a), None) => parts.push(format!("at least {a}")),
        (None, Some(b)) => parts.push(format!("at most {b}")),
        (None, None) => {}
    }
    if let Some(f) = prop.get("format").and_then(Value::as_str) {
        parts.push(f.to_owned());
    }
    if type_name(prop) == "array" {
        parts.push("one item per line".to_owned());
    }
    (!parts.is_empty()).then(|| parts.join(", "))
}

/// The starting input: the given arguments where present, else defaults.
pub fn initial_values(fields: &[Field], arguments: Option<&JsonObject>) -> Values {
    let mut out = Values::new();
    fill_values(fields, arguments, &mut out);
    out
}

fn fill_values(fields: &[Field], arguments: Option<&JsonObject>, out: &mut Values) {
    for f in fields {
        let given = arguments.and_then(|a| a.get(&f.key));
        if let FieldKind::Object(inner) = &f.kind {
            let nested = given.or(f.default.as_ref()).and_then(Value::as_object);
            fill_values(inner, nested, out);
            continue;
        }
        if let Some(v) = given.or(f.default.as_ref()) {
            out.insert(f.path.clone(), value_to_input(&f.kind, v));
        }
    }
}

/// How a JSON value is typed into a field of this kind.
pub fn value_to_input(kind: &FieldKind, v: &Value) -> String {
    match (kind, v) {
        (FieldKind::List(_), Value::Array(items)) => items
            .iter()
            .map(|i| i.as_str().map_or_else(|| i.to_string(), str::to_owned))
            .collect::<Vec<_>>()
            .join("\n"),
        (FieldKind::Enum(_), v) => v.to_string(),
        (FieldKind::Json, v) => serde_json::to_string_pretty(v).unwrap_or_default(),
        (_, Value::String(s)) => s.clone(),
        (_, v) => v.to_string(),
    }
}

/// Builds the arguments from the input and checks them against the schema. Empty
/// optional fields are left out (the server applies its defaults).
pub fn build(schema: &Value, fields: &[Field], values: &Values) -> (JsonObject, Vec<FieldError>) {
    let mut errors = Vec::new();
    let args = build_object(fields, values, &mut errors);
    if errors.is_empty() {
        for e in schema::validate(schema, &Value::Object(args.clone())) {
            errors.push(FieldError::invalid(pointer_to_path(&e.path), e.message));
        }
    }
    (args, errors)
}

fn build_object(fields: &[Field], values: &Values, errors: &mut Vec<FieldError>) -> JsonObject {
    let mut obj = Map::new();
    for f in fields {
        if let FieldKind::Object(inner) = &f.kind {
            let nested = build_object(inner, values, errors);
            if !nested.is_empty() || f.required {
                obj.insert(f.key.clone(), Value::Object(nested));
            }
            continue;
        }
        let raw = values.get(&f.path).map_or("", String::as_str);
        // An empty required field is a mistake far more often than a wish to send "".
        if raw.trim().is_empty() {
            if f.required {
                errors.push(FieldError {
                    path: f.path.clone(),
                    kind: FieldErrorKind::Required,
                    message: "required".into(),
                });
            }
            continue;
        }
        match parse(&f.kind, raw) {
            Ok(v) => {
                obj.insert(f.key.clone(), v);
            }
            Err(message) => errors.push(FieldError::invalid(f.path.clone(), message)),
        }
    }
    obj
}

fn parse(kind: &FieldKind, raw: &str) -> Result<Value, String> {
    let t = raw.trim();
    match kind {
        FieldKind::Text => Ok(Value::from(raw)),
        FieldKind::Number => t
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .and_then(serde_json::Number::from_f64)
            .map(|n| match n.as_f64() {
                Some(x) if x.fract() == 0.0 && x.abs() < 1e15 => Value::from(x as i64),
                _ => Value::Number(n),
            })
            .ok_or_else(|| format!("{t:?} is not a number")),
        FieldKind::Integer => t
            .parse::<i64>()
            .map(Value::from)
            .map_err(|_| format!("{t:?} is not a whole number")),
        FieldKind::Boolean => match t {
            "true" => Ok(Value::Bool(true)),
            "false" => Ok(Value::Bool(false)),
            _ => Err("choose true or false".into()),
        },
        FieldKind::Enum(_) | FieldKind::Json => {
            serde_json::from_str(t).map_err(|e| format!("not valid JSON: {e}"))
        }
        FieldKind::List(item) => t
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| parse(item, l))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        FieldKind::Object(_) => Err("an object is filled member by member".into()),
    }
}

/// `/party/adults` → `party.adults` (array indexes are dropped: errors show on the list field).
fn pointer_to_path(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .filter(|s| s.parse::<usize>().is_err())
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}
