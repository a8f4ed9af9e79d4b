//! Malformed and hostile input becomes diagnostics, never a panic or a silent drop.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

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
    // A log message from a server that declared no `logging` is still delivered.
    assert_eq!(
        rules(&ev),
        [
            Rule::InvalidRequest,
            Rule::Progress,
            Rule::CapabilityNotDeclared
        ]
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Log(m) if m.data == json!("hi")))
    );
}

#[test]
fn an_oversized_answer_fails_the_request_it_names_at_once() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let first = s.client.call_tool(s.now, "a", None, CallOptions::default());
    let second = s.client.call_tool(s.now, "b", None, CallOptions::default());
    s.drain();
    let sent = s.last_request("tools/call").0;
    // The head names the second call: that one fails, not the oldest.
    let head = format!(r#"{{"jsonrpc":"2.0","id":{sent},"result":{{"content":[{{"#);
    s.client
        .handle_oversized(s.now, 50_000_000, 33_554_432, head.as_bytes());
    s.drain();
    let ev = s.take();
    assert!(rules(&ev).contains(&Rule::Oversized), "{ev:?}");
    let failed: Vec<_> = ev
        .iter()
        .filter_map(|e| match e {
            Event::CallFinished {
                op,
                outcome: CallOutcome::Failed(f),
                ..
            } => Some((*op, f.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        failed,
        [(
            second,
            Failure::TooLarge {
                size: 50_000_000,
                limit: 33_554_432
            }
        )]
    );
    assert_eq!(
        failed[0].1.to_string(),
        "the server's answer (50000000 bytes) exceeds the 33554432-byte limit"
    );
    // An id that is not ours (a server request) fails nothing.
    s.client.handle_oversized(
        s.now,
        40,
        10,
        br#"{"jsonrpc":"2.0","id":"srv-9","method":"x"#,
    );
    s.drain();
    let ev = s.take();
    assert!(rules(&ev).contains(&Rule::Oversized), "{ev:?}");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::CallFinished { .. })),
        "{ev:?}"
    );
    // Without an id in the head, the oldest pending request is the best guess.
    s.client.handle_oversized(s.now, 40, 10, b"{\"result\":");
    s.drain();
    let ev = s.take();
    assert!(ev.iter().any(|e| matches!(e, Event::CallFinished { op, outcome: CallOutcome::Failed(Failure::TooLarge { .. }), .. } if *op == first)), "{ev:?}");
}

#[test]
fn bytes_that_are_not_utf8_are_named_and_still_read() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let op = s
        .client
        .call_tool(s.now, "echo", None, CallOptions::default());
    s.drain();
    let id = s.last_request("tools/call").0;
    let mut bytes = format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"content":[{{"type":"text","text":"AB"}}]}}}}"#
    )
    .into_bytes();
    let at = bytes.windows(2).position(|w| w == b"AB").unwrap();
    bytes[at] = 0xff;
    s.client.handle_bytes(s.now, &bytes);
    s.drain();
    let ev = s.take();
    let d = ev
        .iter()
        .find_map(|e| match e {
            Event::Diagnostic(d) if d.rule == Rule::NotUtf8 => Some(d.clone()),
            _ => None,
        })
        .expect("a not-utf8 diagnostic");
    assert!(d.message.contains(&format!("offset {at}")), "{d}");
    let text = ev.iter().find_map(|e| match e {
        Event::CallFinished {
            op: o,
            outcome: CallOutcome::Success(r),
            ..
        } if *o == op => Some(format!("{:?}", r.content)),
        _ => None,
    });
    assert!(
        text.as_deref().is_some_and(|t| t.contains("\u{fffd}B")),
        "the lossy text is still handled: {text:?}"
    );
}
