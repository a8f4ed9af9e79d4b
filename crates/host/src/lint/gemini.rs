//! Gemini: `functionDeclarations[].parameters` is Gemini's `Schema`, a protocol
//! buffer message, not JSON Schema. A member it has no field for fails the whole
//! request ("Invalid JSON payload received. Unknown name \"const\" … Cannot find
//! field."), as does a list where it wants one value. The host's reshaping
//! (`provider/schema.rs`'s `geminify`) rewrites or removes each of those; this
//! module walks the same subschemas with the same keyword table.

use serde_json::{Map, Value};

use super::walk::{self, HOST, one_type, seg};
use super::{HostAction, Rule, Severity, Sink};
use crate::provider::{GEMINI_KEYWORDS, GEMINI_STRING_FORMATS};

pub(super) fn check(schema: &Value, sink: &mut Sink<'_>) {
    walk::walk(schema, "/inputSchema", HOST, &mut |o, ptr| {
        node(o, ptr, sink)
    });
}

fn node(o: &Map<String, Value>, ptr: &str, sink: &mut Sink<'_>) {
    let mut reject = |key: &str, rule: Rule, host: HostAction, message: String| {
        sink.push(
            format!("{ptr}/{}", seg(key)),
            rule,
            Severity::Reject,
            host,
            message,
        );
    };
    if o.contains_key("const") {
        reject(
            "const",
            Rule::GeminiConst,
            HostAction::Rewrites,
            "Gemini's Schema has no const; the host sends a one-value enum".into(),
        );
    }
    if o.contains_key("oneOf") {
        reject(
            "oneOf",
            Rule::GeminiOneOf,
            HostAction::Rewrites,
            "Gemini's Schema has no oneOf; the host sends anyOf, which lets the model match several".into(),
        );
    }
    if let Some(Value::Array(types)) = o.get("type") {
        let host = if one_type(o).is_some() {
            HostAction::Rewrites
        } else {
            HostAction::Removes
        };
        let what = if host == HostAction::Rewrites {
            "the host sends the one type left, with nullable"
        } else {
            "the host removes the type, so the model is told none"
        };
        reject(
            "type",
            Rule::GeminiTypeList,
            host,
            format!(
                "Gemini's type is one value, not a list of {}; {what}",
                types.len()
            ),
        );
    }
    // `const` becomes the enum first, as the host does.
    let values = match (o.get("const"), o.get("enum")) {
        (Some(c), _) => Some(("const", std::slice::from_ref(c))),
        (None, Some(Value::Array(e))) => Some(("enum", e.as_slice())),
        _ => None,
    };
    if let Some((key, values)) = values
        && values.iter().any(|v| !v.is_string())
    {
        reject(
            key,
            Rule::GeminiEnumNotStrings,
            HostAction::Removes,
            "Gemini's enum values are strings; the host removes this enum, so the model is not told the allowed values".into(),
        );
    }
    for k in o.keys() {
        let k = k.as_str();
        if GEMINI_KEYWORDS.contains(&k) || k == "const" || k == "oneOf" {
            continue;
        }
        if matches!(k, "$ref" | "$defs" | "definitions") {
            reject(
                k,
                Rule::GeminiRef,
                HostAction::Removes,
                format!(
                    "Gemini's Schema has no {k}; the host removes it, so what it refers to never reaches the model"
                ),
            );
        } else {
            reject(
                k,
                Rule::GeminiUnknownKeyword,
                HostAction::Removes,
                format!("Gemini's Schema has no {k:?}; the host removes it"),
            );
        }
    }
    let ty = one_type(o);
    if ty == Some("string")
        && let Some(f) = o.get("format").and_then(Value::as_str)
        && !GEMINI_STRING_FORMATS.contains(&f)
    {
        reject(
            "format",
            Rule::GeminiStringFormat,
            HostAction::Removes,
            format!(
                "Gemini takes only \"enum\" and \"date-time\" as a string format, not {f:?}; the host removes it, so the model is not told the format"
            ),
        );
    }
    if ty == Some("array") && !o.contains_key("items") {
        sink.push(
            ptr.to_owned(),
            Rule::ArrayWithoutItems,
            Severity::Reject,
            HostAction::SendsAsIs,
            "an array schema without items: Gemini answers \"items: missing field\"; the host sends it as it is".into(),
        );
    }
}
