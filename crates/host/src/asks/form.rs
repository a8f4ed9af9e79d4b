//! Elicitation forms: `requestedSchema` (a flat object of primitives) as the tool
//! form's fields, and the form's input back to `ElicitResult.content`, checked
//! against the schema, formats included.

use mcpg_core::model::JsonObject;
use serde_json::Value;

use crate::form::{self, Field, FieldError, FieldKind, Values};
use crate::schema;

/// The form's fields for `requestedSchema`: the tool form's, plus what elicitation
/// schemas add: titled enums (`oneOf` of `const`+`title`, legacy `enumNames`) and
/// multi-select (an array whose items are an enum, titled through `anyOf`), with
/// `titles` filled in. String formats show as the field's hint.
pub fn elicit_fields(requested_schema: &Value) -> Vec<Field> {
    let props = requested_schema
        .get("properties")
        .and_then(Value::as_object);
    let mut fields = form::fields(requested_schema);
    for f in &mut fields {
        let Some(prop) = props.and_then(|p| p.get(&f.key)) else {
            continue;
        };
        if let Some((values, titles)) = choices(prop) {
            f.kind = FieldKind::Enum(values);
            f.titles = titles;
        } else if let Some((values, titles)) = prop.get("items").and_then(choices) {
            f.kind = FieldKind::List(Box::new(FieldKind::Enum(values)));
            f.titles = titles;
        }
    }
    fields
}

/// An enum's values and titles: `oneOf`/`anyOf` of `{const, title}`, or `enum`
/// with `enumNames` (titles empty when neither gives any).
fn choices(prop: &Value) -> Option<(Vec<Value>, Vec<String>)> {
    let titled = ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| prop.get(*k).and_then(Value::as_array))
        .filter(|opts| opts.iter().all(|o| o.get("const").is_some()));
    if let Some(opts) = titled {
        let values = opts
            .iter()
            .filter_map(|o| o.get("const").cloned())
            .collect();
        let titles = opts
            .iter()
            .map(|o| match o.get("title").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => o.get("const").map(plain).unwrap_or_default(),
            })
            .collect();
        return Some((values, titles));
    }
    let values = prop.get("enum").and_then(Value::as_array)?.clone();
    let titles = prop
        .get("enumNames")
        .and_then(Value::as_array)
        .map(|n| {
            n.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .filter(|n: &Vec<String>| n.len() == values.len())
        .unwrap_or_default();
    Some((values, titles))
}

/// A value as a person reads it (strings without quotes).
fn plain(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_owned)
}

/// The schema's defaults, property by property (what accepting an untouched form
/// sends; SEP-1034).
pub fn elicit_defaults(requested_schema: &Value) -> JsonObject {
    requested_schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| {
            props
                .iter()
                .filter_map(|(k, p)| p.get("default").map(|d| (k.clone(), d.clone())))
                .collect()
        })
        .unwrap_or_default()
}

/// The form's input as `ElicitResult.content`, and every problem with it (empty
/// when it may be sent). An enum choice may be typed bare (`red`) or as JSON
/// (`"red"`); a multi-select takes one choice per line.
pub fn elicit_content(
    requested_schema: &Value,
    fields: &[Field],
    values: &Values,
) -> (JsonObject, Vec<FieldError>) {
    let mut typed = values.clone();
    for f in fields {
        if let Some(raw) = typed.get_mut(&f.path) {
            match &f.kind {
                FieldKind::Enum(opts) => *raw = as_choice(opts, raw),
                FieldKind::List(item) => {
                    if let FieldKind::Enum(opts) = item.as_ref() {
                        *raw = raw
                            .lines()
                            .map(|l| as_choice(opts, l))
                            .collect::<Vec<_>>()
                            .join("\n");
                    }
                }
                _ => {}
            }
        }
    }
    let (content, mut errors) = form::build(requested_schema, fields, &typed);
    // The form stops at the first unreadable field; the rest is still checked, so
    // every mistake shows at once (one per field).
    for e in check_content(requested_schema, &content) {
        if !errors.iter().any(|x| x.path == e.path) {
            errors.push(e);
        }
    }
    (content, errors)
}

/// Bare option text becomes the JSON the form's parser reads.
fn as_choice(opts: &[Value], raw: &str) -> String {
    let t = raw.trim();
    if serde_json::from_str::<Value>(t).is_ok_and(|v| opts.contains(&v)) {
        return t.to_owned();
    }
    let bare = Value::from(t);
    if opts.contains(&bare) {
        return bare.to_string();
    }
    raw.to_owned()
}

/// Every way `content` breaks `requestedSchema`: the schema checker's findings,
/// the string formats (`email`, `uri`, `date`, `date-time`), and values that are
/// not the primitives an `ElicitResult` may carry.
pub fn check_content(requested_schema: &Value, content: &JsonObject) -> Vec<FieldError> {
    let instance = Value::Object(content.clone());
    let mut errors: Vec<FieldError> = schema::validate(requested_schema, &instance)
        .into_iter()
        .map(|e| {
            let path = e
                .path
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or_default();
            FieldError::invalid(path, e.message)
        })
        .collect();
    let props = requested_schema
        .get("properties")
        .and_then(Value::as_object);
    for (key, value) in content {
        let primitive = match value {
            Value::String(_) | Value::Number(_) | Value::Bool(_) => true,
            Value::Array(items) => items.iter().all(Value::is_string),
            _ => false,
        };
        if !primitive {
            errors.push(FieldError::invalid(
                key.as_str(),
                "an elicitation answer is a string, number, boolean or list of strings",
            ));
            continue;
        }
        let format = props
            .and_then(|p| p.get(key))
            .and_then(|p| p.get("format"))
            .and_then(Value::as_str);
        if let (Some(format), Value::String(s)) = (format, value)
            && let Some(problem) = super::formats::check(format, s)
        {
            errors.push(FieldError::invalid(key.as_str(), problem));
        }
    }
    errors
}
