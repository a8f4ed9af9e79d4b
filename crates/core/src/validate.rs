//! Spec checks on what a server sends, as pure functions returning diagnostics.
//! Tools and call results here; resources, prompts and completions in
//! `catalog.rs`; RFC 6570 URI templates in `uri_template.rs`.

mod catalog;
pub(crate) mod uri_template;

pub use catalog::{
    base64_problem, check_completion, check_contents, check_prompt, check_prompt_result,
    check_resource, check_template, has_scheme, wrong_member,
};
pub use uri_template::{
    UriTemplateError, check_uri_template, expand_uri_template, template_variables,
};

use std::collections::HashSet;

use serde_json::Value;

use crate::diag::{Diagnostic, Rule, Severity};
use crate::model::{CallToolResult, ContentBlock, Tool};
use crate::version::ProtocolVersion;

/// Whether `name` follows the tool-name guidance of 2025-11-25 (SEP-986):
/// 1–128 characters from `A-Za-z0-9_-.`.
pub fn tool_name_ok(name: &str) -> bool {
    (1..=128).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Checks one tool definition against the negotiated revision.
pub fn check_tool(tool: &Tool, version: ProtocolVersion, out: &mut Vec<Diagnostic>) {
    if !tool_name_ok(&tool.name) {
        // The naming rules became normative guidance in 2025-11-25; before that an odd
        // name is legal but still breaks many hosts, so it is a warning either way.
        out.push(Diagnostic::new(
            Rule::ToolName,
            Severity::Warning,
            format!(
                "tool name {:?} is not 1–128 characters of A-Z a-z 0-9 _ - . (hosts may reject or rewrite it)",
                truncate(&tool.name, 80)
            ),
        ));
    }
    check_object_schema(
        &tool.input_schema,
        &tool.name,
        "inputSchema",
        Rule::InputSchema,
        out,
    );
    if let Some(schema) = &tool.output_schema {
        if !version.has_structured_output() {
            out.push(Diagnostic::new(
                Rule::FieldNotInVersion,
                Severity::Warning,
                format!(
                    "tool {:?} has outputSchema, which {version} does not define (2025-06-18+)",
                    tool.name
                ),
            ));
        }
        if version < ProtocolVersion::V2026_07_28 {
            check_object_schema(schema, &tool.name, "outputSchema", Rule::OutputSchema, out);
        }
    }
}

fn check_object_schema(
    schema: &Value,
    tool: &str,
    field: &str,
    rule: Rule,
    out: &mut Vec<Diagnostic>,
) {
    let problem = match schema {
        Value::Null => Some(format!("{field} is missing or null")),
        Value::Object(o) => match o.get("type") {
            Some(Value::String(t)) if t == "object" => None,
            Some(other) => Some(format!("{field}.type is {other}, not \"object\"")),
            None => Some(format!("{field} has no \"type\": \"object\"")),
        },
        other => Some(format!(
            "{field} is {}, not a JSON Schema object",
            kind_of(other)
        )),
    };
    if let Some(p) = problem {
        out.push(Diagnostic::new(
            rule,
            Severity::Error,
            format!("tool {tool:?}: {p}"),
        ));
    }
}

/// Checks names across a whole list (duplicates), keeping `seen` between pages.
pub fn check_unique(tool: &Tool, seen: &mut HashSet<String>, out: &mut Vec<Diagnostic>) {
    if !seen.insert(tool.name.clone()) {
        out.push(duplicate_name(&tool.name));
    }
}

/// The diagnostic for a tool name seen a second time in one listing.
pub fn duplicate_name(name: &str) -> Diagnostic {
    Diagnostic::new(
        Rule::DuplicateToolName,
        Severity::Error,
        format!("tool name {name:?} appears more than once; names must be unique per server"),
    )
}

/// Checks a `CallToolResult` as received (`raw` is the `result` JSON).
pub fn check_call_result(
    raw: &Value,
    result: &CallToolResult,
    tool: Option<&Tool>,
    version: ProtocolVersion,
    out: &mut Vec<Diagnostic>,
) {
    match raw.get("content") {
        None => out.push(Diagnostic::new(
            Rule::MissingContent,
            Severity::Error,
            "CallToolResult has no \"content\" array (it is required; use [] for none)",
        )),
        Some(Value::Array(_)) => {}
        Some(other) => out.push(Diagnostic::new(
            Rule::MissingContent,
            Severity::Error,
            format!("CallToolResult.content is {}, not an array", kind_of(other)),
        )),
    }
    for (i, block) in result.content.iter().enumerate() {
        let name = match block {
            ContentBlock::Unknown(v) => {
                out.push(Diagnostic::new(
                    Rule::ContentShape,
                    Severity::Error,
                    format!(
                        "content[{i}] (type {:?}) does not match any content block type",
                        v.get("type").and_then(Value::as_str).unwrap_or("?")
                    ),
                ));
                continue;
            }
            ContentBlock::Audio(_) if version < ProtocolVersion::V2025_03_26 => "audio",
            ContentBlock::ResourceLink(_) if version < ProtocolVersion::V2025_06_18 => {
                "resource_link"
            }
            _ => continue,
        };
        out.push(Diagnostic::new(
            Rule::FieldNotInVersion,
            Severity::Warning,
            format!("content[{i}] is {name:?}, which {version} does not define"),
        ));
    }
    if let Some(sc) = &result.structured_content {
        if !version.has_structured_output() {
            out.push(Diagnostic::new(
                Rule::FieldNotInVersion,
                Severity::Warning,
                format!("structuredContent is not defined in {version} (2025-06-18+)"),
            ));
        } else if version < ProtocolVersion::V2026_07_28 && !sc.is_object() {
            out.push(Diagnostic::new(
                Rule::StructuredContent,
                Severity::Error,
                format!(
                    "structuredContent is {}, but {version} requires an object",
                    kind_of(sc)
                ),
            ));
        }
    }
    if let Some(tool) = tool
        && tool.output_schema.is_some()
        && result.structured_content.is_none()
        && !result.failed()
    {
        out.push(Diagnostic::new(
            Rule::StructuredContent,
            Severity::Error,
            format!(
                "tool {:?} declares outputSchema but the result has no structuredContent",
                tool.name
            ),
        ));
    }
}

/// A short name for a JSON value's type, for messages.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Cuts `s` to at most `max` characters (for messages about hostile input).
pub fn truncate(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names() {
        assert!(tool_name_ok("get_weather"));
        assert!(tool_name_ok("a.b-c_D9"));
        assert!(!tool_name_ok(""));
        assert!(!tool_name_ok("has space"));
        assert!(!tool_name_ok("ünï"));
        assert!(!tool_name_ok(&"x".repeat(129)));
    }

    #[test]
    fn schema_problems_are_named() {
        let mut out = vec![];
        let t: Tool =
            serde_json::from_value(json!({"name":"bad name","inputSchema":{"type":"string"}}))
                .unwrap();
        check_tool(&t, ProtocolVersion::V2025_11_25, &mut out);
        let rules: Vec<Rule> = out.iter().map(|d| d.rule).collect();
        assert_eq!(rules, [Rule::ToolName, Rule::InputSchema]);
    }

    #[test]
    fn missing_content_and_structured_mismatch() {
        let raw = json!({"isError": false});
        let r: CallToolResult = serde_json::from_value(raw.clone()).unwrap();
        let tool: Tool = serde_json::from_value(
            json!({"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}}),
        )
        .unwrap();
        let mut out = vec![];
        check_call_result(
            &raw,
            &r,
            Some(&tool),
            ProtocolVersion::V2025_11_25,
            &mut out,
        );
        let rules: Vec<Rule> = out.iter().map(|d| d.rule).collect();
        assert_eq!(rules, [Rule::MissingContent, Rule::StructuredContent]);
    }
}
