//! OpenAI (Chat Completions and Responses): any array schema needs `items`, strict
//! or not ("Invalid schema for function …: In context=(…), array schema missing
//! items."); in strict mode the schema must also be the subset Structured Outputs
//! supports. The host's strict reshaping (`provider/schema.rs`'s `strictify`)
//! closes objects, makes every property required and removes the unsupported
//! keywords; the limits and formats below it leaves as they are.

use serde_json::{Map, Value};

use super::walk::{self, ALL, HOST, has_type, seg};
use super::{HostAction, LintOptions, Rule, Severity, Sink};
use crate::provider::STRICT_UNSUPPORTED;

/// Strict mode's string formats ("Supported schemas").
const STRICT_FORMATS: [&str; 9] = [
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];
/// "Up to 10 levels of nesting" of objects.
const MAX_DEPTH: usize = 10;
/// "Up to 5000 object properties total".
const MAX_PROPERTIES: usize = 5000;
/// "Up to 1000 enum values across all enum properties".
const MAX_ENUM_VALUES: usize = 1000;

pub(super) fn check(schema: &Value, opts: LintOptions, sink: &mut Sink<'_>) {
    walk::walk(schema, "/inputSchema", ALL, &mut |o, ptr| {
        if has_type(o, "array") && !o.contains_key("items") {
            sink.push(
                ptr.to_owned(),
                Rule::ArrayWithoutItems,
                Severity::Reject,
                HostAction::SendsAsIs,
                "an array schema without items: OpenAI answers \"array schema missing items\"; the host sends it as it is".into(),
            );
        }
    });
    if opts.strict {
        strict(schema, sink);
    }
}

fn strict(schema: &Value, sink: &mut Sink<'_>) {
    let mut totals = Totals::default();
    strict_node(schema, "/inputSchema", 0, &mut totals, sink);
    // The limits count what the host sends, after its strict reshaping.
    if totals.properties > MAX_PROPERTIES {
        limit(
            sink,
            Rule::StrictTooManyProperties,
            format!(
                "{} object properties in all; strict mode allows {MAX_PROPERTIES}",
                totals.properties
            ),
        );
    }
    if totals.enum_values > MAX_ENUM_VALUES {
        limit(
            sink,
            Rule::StrictTooManyEnumValues,
            format!(
                "{} enum values in all; strict mode allows {MAX_ENUM_VALUES}",
                totals.enum_values
            ),
        );
    }
    if let Some(ptr) = totals.too_deep {
        sink.push(
            ptr,
            Rule::StrictTooDeep,
            Severity::Reject,
            HostAction::SendsAsIs,
            format!("objects nest deeper than the {MAX_DEPTH} levels strict mode allows"),
        );
    }
}

fn limit(sink: &mut Sink<'_>, rule: Rule, what: String) {
    sink.push(
        "/inputSchema".into(),
        rule,
        Severity::Reject,
        HostAction::SendsAsIs,
        format!("{what}; the host sends it as it is"),
    );
}

#[derive(Default)]
struct Totals {
    properties: usize,
    enum_values: usize,
    too_deep: Option<String>,
}

fn strict_node(v: &Value, ptr: &str, depth: usize, totals: &mut Totals, sink: &mut Sink<'_>) {
    let Value::Object(o) = v else { return };
    for k in STRICT_UNSUPPORTED.iter().filter(|k| o.contains_key(**k)) {
        sink.push(
            format!("{ptr}/{k}"),
            Rule::StrictUnsupportedKeyword,
            Severity::Reject,
            HostAction::Removes,
            format!("strict mode does not support {k}; the host removes it"),
        );
    }
    if let Some(f) = o.get("format").and_then(Value::as_str)
        && !STRICT_FORMATS.contains(&f)
    {
        // The page lists the formats strict mode supports; what the API answers to
        // another one is not quoted there: counted as a rejection, unverified.
        sink.push(
            format!("{ptr}/format"),
            Rule::StrictFormat,
            Severity::Reject,
            HostAction::SendsAsIs,
            format!(
                "strict mode supports only {} as a format, not {f:?}; the host sends it as it is",
                STRICT_FORMATS.join(", ")
            ),
        );
    }
    if let Some(Value::Array(e)) = o.get("enum") {
        totals.enum_values += e.len();
    }
    let is_object =
        o.get("type").and_then(Value::as_str) == Some("object") || o.contains_key("properties");
    let depth = depth + usize::from(is_object);
    if depth > MAX_DEPTH && totals.too_deep.is_none() {
        totals.too_deep = Some(ptr.to_owned());
    }
    if is_object {
        object(o, ptr, totals, sink);
    }
    for &key in HOST {
        match o.get(key) {
            Some(Value::Object(props)) if key == "properties" => {
                for (k, s) in props {
                    strict_node(
                        s,
                        &format!("{ptr}/properties/{}", seg(k)),
                        depth,
                        totals,
                        sink,
                    );
                }
            }
            Some(Value::Array(list)) => {
                for (i, s) in list.iter().enumerate() {
                    strict_node(s, &format!("{ptr}/{key}/{i}"), depth, totals, sink);
                }
            }
            Some(s) if key == "items" => {
                strict_node(s, &format!("{ptr}/items"), depth, totals, sink)
            }
            _ => {}
        }
    }
}

fn object(o: &Map<String, Value>, ptr: &str, totals: &mut Totals, sink: &mut Sink<'_>) {
    if o.get("additionalProperties") != Some(&Value::Bool(false)) {
        sink.push(
            ptr.to_owned(),
            Rule::StrictOpenObject,
            Severity::Reject,
            HostAction::Rewrites,
            "strict mode wants additionalProperties: false on every object; the host sets it"
                .into(),
        );
    }
    let keys: Vec<&String> = o
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    totals.properties += keys.len();
    let required: Vec<&str> = o
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let optional: Vec<&str> = keys
        .iter()
        .map(|k| k.as_str())
        .filter(|k| !required.contains(k))
        .collect();
    if !optional.is_empty() {
        sink.push(
            ptr.to_owned(),
            Rule::StrictOptionalProperty,
            Severity::Reject,
            HostAction::Rewrites,
            format!("strict mode wants every property required; the host makes {} required and nullable", optional.join(", ")),
        );
    }
}
