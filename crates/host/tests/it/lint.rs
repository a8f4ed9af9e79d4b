//! The schema portability lint: a case per rule per format it applies to, and the
//! formats it must stay quiet for (`lint_recorded.rs` has the recorded tool lists).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::collections::BTreeSet;

use mcpg_core::model::Tool;
use mcpg_host::lint::{Finding, HostAction, LintOptions, Rule, Severity, lint};
use mcpg_host::provider::Provider;
use serde_json::{Value, json};

/// The tools of a recorded `tools/list` (a JSON array).
pub(crate) fn tools(json: &str) -> Vec<Tool> {
    let list: Vec<Value> = serde_json::from_str(json).unwrap();
    list.iter().map(|t| Tool::from_json(t).unwrap()).collect()
}

pub(crate) fn tool(name: &str, schema: Value) -> Tool {
    Tool::from_json(&json!({"name": name, "description": "d", "inputSchema": schema})).unwrap()
}

pub(crate) const LOOSE: LintOptions = LintOptions { strict: false };
pub(crate) const STRICT: LintOptions = LintOptions { strict: true };

/// `(format, severity, host)` for each finding of `rule` on `t`, every format, in order.
fn fired(t: &Tool, rule: Rule, opts: LintOptions) -> Vec<(Provider, Severity, HostAction, String)> {
    lint(std::slice::from_ref(t), &Provider::ALL, opts)
        .into_iter()
        .filter(|f| f.rule == rule)
        .map(|f| (f.format, f.severity, f.host, f.pointer))
        .collect()
}

use HostAction::{Removes, Renames, Rewrites, SendsAsIs};
use Provider::{Anthropic, Gemini, Ollama, OpenAiChat, OpenAiResponses};
use Severity::{Drop, Reject, Rewrite};

/// One row: a tool, a rule, the options, and exactly what fires, format by format.
struct Case {
    rule: Rule,
    tool: Tool,
    opts: LintOptions,
    expect: Vec<(Provider, Severity, HostAction, &'static str)>,
}

fn case(
    rule: Rule,
    tool: Tool,
    opts: LintOptions,
    expect: &[(Provider, Severity, HostAction, &'static str)],
) -> Case {
    Case {
        rule,
        tool,
        opts,
        expect: expect.to_vec(),
    }
}

pub(crate) fn object() -> Value {
    json!({"type": "object", "properties": {}})
}

fn cases() -> Vec<Case> {
    let long = "x".repeat(65);
    let mut no_description = tool("t", object());
    no_description.description = None;
    let props: serde_json::Map<String, Value> = (0..5001)
        .map(|i| (format!("p{i}"), json!({"type": "string"})))
        .collect();
    let required: Vec<String> = props.keys().cloned().collect();
    let many = json!({"type": "object", "properties": props, "required": required, "additionalProperties": false});
    let values: Vec<u32> = (0..1001).collect();
    let enums = json!({"type": "object", "properties": {"v": {"type": "integer", "enum": values}}, "required": ["v"], "additionalProperties": false});
    let deep = (0..11).fold(json!({"type": "string"}), |s, _| {
        json!({"type": "object", "properties": {"x": s}, "required": ["x"], "additionalProperties": false})
    });
    let deep_at = format!("/inputSchema{}", "/properties/x".repeat(10));
    let deep_at: &'static str = Box::leak(deep_at.into_boxed_str());
    vec![
        case(
            Rule::NameTooLong,
            tool(&long, object()),
            LOOSE,
            &[
                (Anthropic, Reject, Renames, "/name"),
                (OpenAiChat, Reject, Renames, "/name"),
                (OpenAiResponses, Reject, Renames, "/name"),
                (Gemini, Reject, Renames, "/name"),
                (Ollama, Rewrite, Renames, "/name"),
            ],
        ),
        case(
            Rule::NameCharacters,
            tool("math.square", object()),
            LOOSE,
            &[
                (Anthropic, Reject, Renames, "/name"),
                (OpenAiChat, Reject, Renames, "/name"),
                (OpenAiResponses, Reject, Renames, "/name"),
                (Ollama, Rewrite, Renames, "/name"),
            ],
        ),
        case(
            Rule::NameCharacters,
            tool("a b", object()),
            LOOSE,
            &[
                (Anthropic, Reject, Renames, "/name"),
                (OpenAiChat, Reject, Renames, "/name"),
                (OpenAiResponses, Reject, Renames, "/name"),
                (Gemini, Reject, Renames, "/name"),
                (Ollama, Rewrite, Renames, "/name"),
            ],
        ),
        case(
            Rule::NameFirstCharacter,
            tool("9lives", object()),
            LOOSE,
            &[(Gemini, Reject, Renames, "/name")],
        ),
        case(
            Rule::MissingDescription,
            no_description,
            LOOSE,
            &[
                (Anthropic, Rewrite, Rewrites, "/description"),
                (OpenAiChat, Rewrite, Rewrites, "/description"),
                (OpenAiResponses, Rewrite, Rewrites, "/description"),
                (Gemini, Rewrite, Rewrites, "/description"),
                (Ollama, Rewrite, Rewrites, "/description"),
            ],
        ),
        case(
            Rule::SchemaNotObject,
            tool("t", json!(true)),
            LOOSE,
            &[
                (Anthropic, Reject, Rewrites, "/inputSchema"),
                (OpenAiChat, Reject, Rewrites, "/inputSchema"),
                (OpenAiResponses, Reject, Rewrites, "/inputSchema"),
                (Gemini, Reject, Rewrites, "/inputSchema"),
                (Ollama, Reject, Rewrites, "/inputSchema"),
            ],
        ),
        case(
            Rule::RootTypeNotObject,
            tool("t", json!({})),
            LOOSE,
            &[
                (Anthropic, Reject, Rewrites, "/inputSchema"),
                (OpenAiChat, Reject, Rewrites, "/inputSchema"),
                (OpenAiResponses, Reject, Rewrites, "/inputSchema"),
                (Gemini, Rewrite, Rewrites, "/inputSchema"),
                (Ollama, Rewrite, Rewrites, "/inputSchema"),
            ],
        ),
        case(
            Rule::RootComposition,
            tool(
                "t",
                json!({"type": "object", "anyOf": [{"required": ["a"]}]}),
            ),
            LOOSE,
            &[(Anthropic, Reject, SendsAsIs, "/inputSchema/anyOf")],
        ),
        case(
            Rule::RootComposition,
            tool(
                "t",
                json!({"type": "object", "anyOf": [{"required": ["a"]}]}),
            ),
            STRICT,
            &[
                (Anthropic, Reject, SendsAsIs, "/inputSchema/anyOf"),
                (OpenAiChat, Reject, SendsAsIs, "/inputSchema/anyOf"),
                (OpenAiResponses, Reject, SendsAsIs, "/inputSchema/anyOf"),
            ],
        ),
        case(
            Rule::ArrayWithoutItems,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": "array"}}}),
            ),
            LOOSE,
            &[
                (OpenAiChat, Reject, SendsAsIs, "/inputSchema/properties/a"),
                (
                    OpenAiResponses,
                    Reject,
                    SendsAsIs,
                    "/inputSchema/properties/a",
                ),
                (Gemini, Reject, SendsAsIs, "/inputSchema/properties/a"),
            ],
        ),
        case(
            Rule::GeminiUnknownKeyword,
            tool(
                "t",
                json!({"type": "object", "additionalProperties": false}),
            ),
            LOOSE,
            &[(Gemini, Reject, Removes, "/inputSchema/additionalProperties")],
        ),
        case(
            Rule::GeminiRef,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "string"}}}),
            ),
            LOOSE,
            &[
                (Gemini, Reject, Removes, "/inputSchema/$defs"),
                (Gemini, Reject, Removes, "/inputSchema/properties/a/$ref"),
            ],
        ),
        case(
            Rule::GeminiConst,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"const": "x"}}}),
            ),
            LOOSE,
            &[(Gemini, Reject, Rewrites, "/inputSchema/properties/a/const")],
        ),
        case(
            Rule::GeminiOneOf,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}}),
            ),
            LOOSE,
            &[(Gemini, Reject, Rewrites, "/inputSchema/properties/a/oneOf")],
        ),
        case(
            Rule::GeminiTypeList,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": ["string", "null"]}, "b": {"type": ["string", "integer"]}}}),
            ),
            LOOSE,
            &[
                (Gemini, Reject, Rewrites, "/inputSchema/properties/a/type"),
                (Gemini, Reject, Removes, "/inputSchema/properties/b/type"),
            ],
        ),
        case(
            Rule::GeminiEnumNotStrings,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": "integer", "enum": [1, 2]}, "b": {"const": 3}}}),
            ),
            LOOSE,
            &[
                (Gemini, Reject, Removes, "/inputSchema/properties/a/enum"),
                (Gemini, Reject, Removes, "/inputSchema/properties/b/const"),
            ],
        ),
        case(
            Rule::GeminiStringFormat,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": "string", "format": "email"}, "b": {"type": "string", "format": "date-time"}}}),
            ),
            LOOSE,
            &[(Gemini, Reject, Removes, "/inputSchema/properties/a/format")],
        ),
        case(
            Rule::StrictUnsupportedKeyword,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}]}}, "required": ["a"], "additionalProperties": false}),
            ),
            STRICT,
            &[
                (
                    OpenAiChat,
                    Reject,
                    Removes,
                    "/inputSchema/properties/a/allOf",
                ),
                (
                    OpenAiResponses,
                    Reject,
                    Removes,
                    "/inputSchema/properties/a/allOf",
                ),
            ],
        ),
        case(
            Rule::StrictOpenObject,
            tool("t", json!({"type": "object", "properties": {}})),
            STRICT,
            &[
                (OpenAiChat, Reject, Rewrites, "/inputSchema"),
                (OpenAiResponses, Reject, Rewrites, "/inputSchema"),
            ],
        ),
        case(
            Rule::StrictOptionalProperty,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": false}),
            ),
            STRICT,
            &[
                (OpenAiChat, Reject, Rewrites, "/inputSchema"),
                (OpenAiResponses, Reject, Rewrites, "/inputSchema"),
            ],
        ),
        case(
            Rule::StrictFormat,
            tool(
                "t",
                json!({"type": "object", "properties": {"a": {"type": "string", "format": "uri"}, "b": {"type": "string", "format": "email"}}, "required": ["a", "b"], "additionalProperties": false}),
            ),
            STRICT,
            &[
                (
                    OpenAiChat,
                    Reject,
                    SendsAsIs,
                    "/inputSchema/properties/a/format",
                ),
                (
                    OpenAiResponses,
                    Reject,
                    SendsAsIs,
                    "/inputSchema/properties/a/format",
                ),
            ],
        ),
        case(
            Rule::StrictTooDeep,
            tool("t", deep),
            STRICT,
            &[
                (OpenAiChat, Reject, SendsAsIs, deep_at),
                (OpenAiResponses, Reject, SendsAsIs, deep_at),
            ],
        ),
        case(
            Rule::StrictTooManyProperties,
            tool("t", many),
            STRICT,
            &[
                (OpenAiChat, Reject, SendsAsIs, "/inputSchema"),
                (OpenAiResponses, Reject, SendsAsIs, "/inputSchema"),
            ],
        ),
        case(
            Rule::StrictTooManyEnumValues,
            tool("t", enums),
            STRICT,
            &[
                (OpenAiChat, Reject, SendsAsIs, "/inputSchema"),
                (OpenAiResponses, Reject, SendsAsIs, "/inputSchema"),
            ],
        ),
        case(
            Rule::OllamaDroppedKeyword,
            tool(
                "t",
                json!({"type": "object", "$schema": "s", "properties": {"a": {"type": "number", "minimum": 1, "description": "kept"}}}),
            ),
            LOOSE,
            &[
                (Ollama, Drop, SendsAsIs, "/inputSchema/$schema"),
                (Ollama, Drop, SendsAsIs, "/inputSchema/properties/a/minimum"),
            ],
        ),
    ]
}

#[test]
fn a_case_per_rule_per_format() {
    let cases = cases();
    for rule in Rule::ALL {
        assert!(
            cases.iter().any(|c| c.rule == rule),
            "no case for {}",
            rule.id()
        );
    }
    for c in cases {
        let got = fired(&c.tool, c.rule, c.opts);
        let want: Vec<_> = c
            .expect
            .iter()
            .map(|(p, s, h, at)| (*p, *s, *h, (*at).to_owned()))
            .collect();
        assert_eq!(got, want, "rule {} on {}", c.rule.id(), c.tool.name);
    }
}

#[test]
fn strict_rules_wait_for_strict_mode() {
    let t = tool(
        "t",
        json!({"type": "object", "properties": {"a": {"type": "string", "format": "uri", "allOf": []}}}),
    );
    let strict_ones: Vec<Finding> = lint(&[t], &Provider::ALL, LOOSE)
        .into_iter()
        .filter(|f| f.rule.id().starts_with("strict-"))
        .collect();
    assert_eq!(strict_ones, []);
}

#[test]
fn rule_ids_are_stable_and_distinct() {
    let ids: BTreeSet<&str> = Rule::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(ids.len(), Rule::ALL.len());
    for r in Rule::ALL {
        assert_eq!(Rule::from_id(r.id()), Some(r));
        assert!(
            r.id().bytes().all(|b| b.is_ascii_lowercase() || b == b'-'),
            "{}",
            r.id()
        );
        for p in Provider::ALL {
            assert!(r.doc(p).starts_with("https://"), "{} {}", r.id(), p.id());
        }
    }
    assert_eq!(Rule::ArrayWithoutItems.id(), "array-without-items");
    assert_eq!(
        Rule::GeminiRef.doc(Provider::Gemini),
        "https://ai.google.dev/api/caching#Schema"
    );
}
