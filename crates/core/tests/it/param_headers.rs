//! 2026-07-28 `x-mcp-header`: annotated arguments become `Mcp-Param-*` headers on
//! `tools/call`, and tools with invalid annotations are left out of the listing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::Generation;
use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, Failure};
use mcpg_core::diag::{Rule, Severity};
use serde_json::{Value, json};
use support::Scripted;

/// Two tools with annotations (one nested) and three with invalid ones.
fn tools() -> Value {
    json!([
        {"name": "weather", "inputSchema": {"type": "object", "properties": {
            "city": {"type": "string", "x-mcp-header": "City"},
            "days": {"type": "integer", "x-mcp-header": "Days"},
            "units": {"type": "string", "x-mcp-header": "Units"},
            "opts": {"type": "object", "properties": {
                "verbose": {"type": "boolean", "x-mcp-header": "Verbose"}
            }},
            "note": {"type": "string"}
        }}},
        {"name": "space", "inputSchema": {"type": "object", "properties": {
            "v": {"type": "string", "x-mcp-header": "Has Space"}
        }}},
        {"name": "score", "inputSchema": {"type": "object", "properties": {
            "s": {"type": "number", "x-mcp-header": "Score"}
        }}},
        {"name": "twice", "inputSchema": {"type": "object", "properties": {
            "a": {"type": "string", "x-mcp-header": "Tenant"},
            "b": {"type": "string", "x-mcp-header": "tenant"}
        }}},
        {"name": "plain", "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    ])
}

fn listed(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::ToolsPage { tools, .. } => Some(tools.iter().map(|t| t.name.clone())),
            _ => None,
        })
        .flatten()
        .collect()
}

fn header_diags(ev: &[Event]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Diagnostic(d) if d.rule == Rule::ParamHeader => Some(d.message.clone()),
            _ => None,
        })
        .collect()
}

fn stateless() -> Scripted {
    let mut s = Scripted::new(ClientConfig::default());
    s.discover_ok();
    s.take();
    s
}

fn list(s: &mut Scripted, tools: Value) -> Vec<Event> {
    s.client.list_tools(s.now);
    s.drain();
    s.reply(
        "tools/list",
        json!({"resultType": "complete", "tools": tools}),
    );
    s.take()
}

#[test]
fn invalid_annotations_leave_the_tool_out_with_a_diagnostic() {
    let mut s = stateless();
    let ev = list(&mut s, tools());
    assert_eq!(listed(&ev), ["weather", "plain"]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ToolsListed { tools: 2, .. })),
        "{ev:#?}"
    );
    let why = header_diags(&ev);
    assert_eq!(why.len(), 3, "{why:#?}");
    for (name, words) in [
        ("space", "not a valid header name"),
        ("score", "only string, integer and boolean"),
        ("twice", "more than once"),
    ] {
        assert!(
            why.iter()
                .any(|m| m.contains(&format!("{name:?}")) && m.contains(words)),
            "{name}: {why:#?}"
        );
    }
    assert!(ev.iter().any(|e| matches!(e, Event::Diagnostic(d)
        if d.rule == Rule::ParamHeader && d.severity == Severity::Error && d.raw.is_some())));
    assert!(s.client.known_tool("space").is_none());
    assert!(
        s.client
            .dropped_tool("space")
            .is_some_and(|w| w.contains("Has Space"))
    );
}

#[test]
fn annotated_arguments_travel_as_param_headers() {
    let mut s = stateless();
    list(&mut s, tools());
    let args =
        json!({"city": "Zürich", "days": 3, "units": null, "opts": {"verbose": true}, "note": "x"});
    s.client.call_tool(
        s.now,
        "weather",
        args.as_object().cloned(),
        CallOptions::default(),
    );
    s.drain();
    let out = s.last_outgoing("tools/call");
    let params: Vec<(&str, &str)> = out
        .param_headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    // Null and absent arguments send no header; non-ASCII goes base64-wrapped.
    assert_eq!(
        params,
        [
            ("Mcp-Param-City", "=?base64?WsO8cmljaA==?="),
            ("Mcp-Param-Days", "3"),
            ("Mcp-Param-Verbose", "true"),
        ]
    );
    // The fixed protocol headers are where they always were.
    let fixed: Vec<(&str, &str)> = out.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(
        fixed,
        [
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "weather"),
        ]
    );
    // Other requests and tools without annotations carry none.
    s.client
        .call_tool(s.now, "plain", None, CallOptions::default());
    s.drain();
    assert!(s.last_outgoing("tools/call").param_headers.is_empty());
    assert!(s.last_outgoing("tools/list").param_headers.is_empty());
    assert!(header_diags(&s.take()).is_empty());
}

#[test]
fn a_dropped_tool_cannot_be_called_until_a_listing_fixes_it() {
    let mut s = stateless();
    list(&mut s, tools());
    let op = s
        .client
        .call_tool(s.now, "space", None, CallOptions::default());
    s.drain();
    assert!(
        s.sent.iter().all(|m| m.method() != Some("tools/call")),
        "nothing goes out"
    );
    let ev = s.take();
    assert!(
        ev.iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: CallOutcome::Failed(Failure::Malformed(why)), message: None }
            if *o == op && why.contains("left out of the listing"))),
        "{ev:#?}"
    );
    // The server fixes the annotation: the next listing keeps the tool.
    let fixed = json!([{"name": "space", "inputSchema": {"type": "object", "properties": {
        "v": {"type": "string", "x-mcp-header": "Space"}
    }}}]);
    assert_eq!(listed(&list(&mut s, fixed)), ["space"]);
    assert!(s.client.dropped_tool("space").is_none());
    s.client.call_tool(
        s.now,
        "space",
        json!({"v": "x"}).as_object().cloned(),
        CallOptions::default(),
    );
    s.drain();
    assert_eq!(
        s.last_outgoing("tools/call").param_headers,
        [("Mcp-Param-Space".to_owned(), "x".to_owned())]
    );
}

#[test]
fn values_that_do_not_fit_a_header_faithfully_are_flagged() {
    let mut s = stateless();
    list(&mut s, tools());
    s.client.call_tool(
        s.now,
        "weather",
        json!({"city": {"name": "Paris"}, "days": 9007199254740993_i64})
            .as_object()
            .cloned(),
        CallOptions::default(),
    );
    s.drain();
    let out = s.last_outgoing("tools/call");
    assert_eq!(out.param_headers[0].0, "Mcp-Param-City");
    assert_eq!(out.param_headers[1].1, "9007199254740993");
    let why = header_diags(&s.take());
    assert_eq!(why.len(), 2, "{why:#?}");
}

#[test]
fn a_version_retry_carries_the_param_headers_again() {
    let mut s = stateless();
    list(&mut s, tools());
    s.client.call_tool(
        s.now,
        "weather",
        json!({"city": "Oslo"}).as_object().cloned(),
        CallOptions::default(),
    );
    s.drain();
    let data = json!({"supported": ["2026-07-28"], "requested": "2026-07-28"});
    s.reply_error(
        "tools/call",
        -32022,
        "Unsupported protocol version",
        Some(data),
    );
    let calls: Vec<_> = s
        .outgoing
        .iter()
        .filter(|o| o.message.method() == Some("tools/call"))
        .collect();
    assert_eq!(calls.len(), 2);
    assert_ne!(calls[0].message.id(), calls[1].message.id());
    for c in calls {
        assert_eq!(
            c.param_headers,
            [("Mcp-Param-City".to_owned(), "Oslo".to_owned())]
        );
    }
}

#[test]
fn the_initialize_generation_ignores_annotations() {
    // x-mcp-header is a 2026-07-28 feature: older sessions neither drop nor mirror.
    // A dual-era client that fell back: the probe is refused, initialize agreed.
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    assert_eq!(
        s.client.negotiated().map(|n| n.generation),
        Some(Generation::Initialize)
    );
    s.take();
    s.client.list_tools(s.now);
    s.drain();
    s.reply("tools/list", json!({"tools": tools()}));
    let ev = s.take();
    assert_eq!(listed(&ev), ["weather", "space", "score", "twice", "plain"]);
    assert!(header_diags(&ev).is_empty(), "{ev:#?}");
    s.client.call_tool(
        s.now,
        "weather",
        json!({"city": "Oslo"}).as_object().cloned(),
        CallOptions::default(),
    );
    s.client
        .call_tool(s.now, "space", None, CallOptions::default());
    s.drain();
    let calls = s
        .outgoing
        .iter()
        .filter(|o| o.message.method() == Some("tools/call"));
    assert_eq!(calls.clone().count(), 2);
    assert!(calls.into_iter().all(|o| o.param_headers.is_empty()));
}
