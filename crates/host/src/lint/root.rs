//! The tool as a whole: its description and the root of its `inputSchema`, which
//! every format wants to be an object schema.

use serde_json::Value;

use super::{HostAction, LintOptions, Rule, Severity, Sink};
use crate::provider::Provider;

/// A tool without a description: the host sends `""`, and the model has only the
/// name to choose by. No API refuses it (Anthropic and OpenAI call the field
/// optional), so it is a rewrite, never a rejection.
pub(super) fn description(description: Option<&str>, sink: &mut Sink<'_>) {
    if description.is_none() {
        sink.push(
            "/description".into(),
            Rule::MissingDescription,
            Severity::Rewrite,
            HostAction::Rewrites,
            "the tool has no description: the host sends an empty one, and the model has only the name to choose by".into(),
        );
    }
}

/// The root's shape; `false` when the schema is no object, so nothing below it is
/// worth walking (the host replaces it whole).
pub(super) fn check(
    schema: &Value,
    format: Provider,
    opts: LintOptions,
    sink: &mut Sink<'_>,
) -> bool {
    let label = format.label();
    let Value::Object(root) = schema else {
        // `input_schema` / `parameters` must be a JSON object in every format's
        // request type; `true`, `null` or an array fails to parse (Ollama's Go
        // decoder answers 400 as well).
        let kind = match schema {
            Value::Null => "null (or missing)",
            Value::Bool(_) => "a boolean",
            Value::Array(_) => "an array",
            Value::String(_) => "a string",
            Value::Number(_) => "a number",
            Value::Object(_) => "an object",
        };
        sink.push(
            "/inputSchema".into(),
            Rule::SchemaNotObject,
            Severity::Reject,
            HostAction::Rewrites,
            format!("inputSchema is {kind}, and {label} takes only an object schema; the host sends {{\"type\": \"object\"}} instead, so the model sees no arguments"),
        );
        return false;
    };
    if root.get("type").and_then(Value::as_str) != Some("object") {
        // Anthropic: `input_schema.type` must be "object"; OpenAI: "schema must be a
        // JSON Schema of 'type: \"object\"'". Gemini and Ollama are not known to
        // refuse it, so there it is only the host's rewrite.
        let severity = match format {
            Provider::Anthropic | Provider::OpenAiChat | Provider::OpenAiResponses => {
                Severity::Reject
            }
            Provider::Gemini | Provider::Ollama => Severity::Rewrite,
        };
        let was = match root.get("type") {
            None => "has no type".to_owned(),
            Some(t) => format!("has type {t}"),
        };
        sink.push(
            "/inputSchema".into(),
            Rule::RootTypeNotObject,
            severity,
            HostAction::Rewrites,
            format!(
                "the root schema {was}; {label} wants \"type\": \"object\", which the host sets"
            ),
        );
    }
    let composition: &[&str] = match format {
        // "input_schema does not support oneOf, allOf, or anyOf at the top level".
        Provider::Anthropic => &["allOf", "anyOf", "oneOf"],
        // Strict mode: "the root level object must not be anyOf" (allOf is refused
        // everywhere in strict mode: `strict-unsupported-keyword`).
        Provider::OpenAiChat | Provider::OpenAiResponses if opts.strict => &["anyOf"],
        _ => &[],
    };
    for &k in composition {
        if root.contains_key(k) {
            sink.push(
                format!("/inputSchema/{k}"),
                Rule::RootComposition,
                Severity::Reject,
                HostAction::SendsAsIs,
                format!("{label} does not take {k} at the top level of a tool's schema; the host sends it as it is, so the request fails"),
            );
        }
    }
    true
}
