//! Malformed and hostile input becomes diagnostics, never a panic or a silent drop.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, Failure};
use mcpg_core::diag::{Rule, Severity};
use serde_json::json;
use support::Scripted;

fn rules(ev: &[Event]) -> Vec<Rule> {
    ev.iter()
        .filter_map(|e| {
            if let Event::Diagnostic(d) = e {
                Some(d.rule)
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn junk_frames_become_diagnostics_with_their_text() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    for junk in [
        "hello from a print statement",
        "{\"jsonrpc\":\"2.0\"",
        "[1,2]",
        "{\"id\":1,\"result\":{}}",
        "",
    ] {
        s.feed(junk);
    }
    let ev = s.take();
    let r = rules(&ev);
    assert_eq!(
        r,
        [
            Rule::MalformedJson,
            Rule::MalformedJson,
            Rule::BatchNotAllowed,
            Rule::NotJsonRpc,
            Rule::NotJsonRpc,
            Rule::NotJsonRpc,
            Rule::MalformedJson
        ]
    );
    let first = ev
        .iter()
        .find_map(|e| {
            if let Event::Diagnostic(d) = e {
                Some(d.clone())
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(first.raw.as_deref(), Some("hello from a print statement"));
    assert_eq!(first.severity, Severity::Error);
    assert!(first.to_string().contains("spec: basic/index"), "{first}");
    assert!(s.client.is_ready(), "the session survives junk");
}

#[test]
fn bad_tools_are_named_and_the_rest_kept() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    s.client.list_tools(s.now);
    s.drain();
    s.reply(
        "tools/list",
        json!({"tools": [
            {"name": "good", "inputSchema": {"type": "object"}},
            {"name": "has space", "inputSchema": {"type": "object"}},
            {"name": "no_schema"},
            {"name": "string_schema", "inputSchema": {"type": "string"}},
            {"description": "no name at all", "inputSchema": {"type": "object"}},
            {"name": "good", "inputSchema": {"type": "object"}},
            {"name": "<img src=x onerror=alert(1)>", "description": "<script>alert(1)</script>", "inputSchema": {"type": "object"}}
        ]}),
    );
    let ev = s.take();
    assert_eq!(
        rules(&ev),
        [
            Rule::ToolName,
            Rule::InputSchema,
            Rule::InputSchema,
            Rule::ToolShape,
            Rule::DuplicateToolName,
            Rule::ToolName
        ]
    );
    let names: Vec<String> = ev
        .iter()
        .find_map(|e| {
            if let Event::ToolsPage { tools, .. } = e {
                Some(tools.iter().map(|t| t.name.clone()).collect())
            } else {
                None
            }
        })
        .unwrap();
    assert_eq!(
        names.len(),
        6,
        "only the nameless entry is dropped, and it is reported"
    );
    assert!(
        names.contains(&"<img src=x onerror=alert(1)>".to_owned()),
        "hostile text is kept verbatim as data"
    );
}

#[test]
fn result_problems_are_diagnosed_but_delivered() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-03-26");
    s.take();
    s.client.call_tool(s.now, "t", None, CallOptions::default());
    s.drain();
    s.reply(
        "tools/call",
        json!({"isError": false, "structuredContent": {"a": 1}}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::MissingContent, Rule::FieldNotInVersion]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CallFinished {
            outcome: CallOutcome::Success(_),
            ..
        }
    )));

    s.client.call_tool(s.now, "t", None, CallOptions::default());
    s.drain();
    s.reply("tools/call", json!("just a string"));
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::ResultShape]);
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::CallFinished {
            outcome: CallOutcome::Failed(Failure::Malformed(_)),
            ..
        }
    )));

    s.client.call_tool(s.now, "t", None, CallOptions::default());
    s.drain();
    s.reply("tools/call", json!({"content": [{"type": "hologram"}, {"type": "resource_link", "uri": "file:///x", "name": "x"}]}));
    assert_eq!(
        rules(&s.take()),
        [Rule::ContentShape, Rule::FieldNotInVersion]
    );
}

#[test]
fn error_without_id_and_notifications_out_of_place() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    s.feed(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#);
    s.feed(r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":"lots"}}"#);
    s.feed(r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hi"}}"#);
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::InvalidRequest, Rule::Progress]);
    assert!(ev.iter().any(
        |e| matches!(e, Event::Notification { method, .. } if method == "notifications/message")
    ));
}
