//! Listing and calling tools: pagination, outcomes, progress, cancellation, timeouts,
//! ordering, server-to-client requests.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, Failure, OpError};
use mcpg_core::diag::Rule;
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_core::model::{CallToolResult, ContentBlock};
use mcpg_core::server::{ServerConfig, ServerEvent};
use serde_json::{Value, json};
use std::time::Duration;
use support::{Behaviour, Pair, Scripted, tool};

fn outcome(ev: &[Event]) -> &CallOutcome {
    ev.iter()
        .find_map(|e| {
            if let Event::CallFinished { outcome, .. } = e {
                Some(outcome)
            } else {
                None
            }
        })
        .expect("a CallFinished event")
}

#[test]
fn three_pages_are_followed_to_the_end() {
    for legacy in [false, true] {
        let scfg = ServerConfig {
            page_size: 2,
            ..Default::default()
        };
        let ccfg = if legacy {
            ClientConfig {
                mode: mcpg_core::client::GenerationMode::Initialize,
                ..Default::default()
            }
        } else {
            ClientConfig::default()
        };
        let tools = ["a", "b", "c", "d", "e"].map(tool).to_vec();
        let mut p = Pair::new(ccfg, scfg, tools);
        p.connect();
        p.take();
        let op = p.client.list_tools(p.now);
        p.pump();
        let ev = p.take();
        let pages: Vec<(u32, Vec<String>, bool)> = ev
            .iter()
            .filter_map(|e| match e {
                Event::ToolsPage {
                    op: o,
                    page,
                    tools,
                    next_cursor,
                    ..
                } if *o == op => Some((
                    *page,
                    tools.iter().map(|t| t.name.clone()).collect(),
                    next_cursor.is_some(),
                )),
                _ => None,
            })
            .collect();
        assert_eq!(
            pages,
            vec![
                (1, vec!["a".into(), "b".into()], true),
                (2, vec!["c".into(), "d".into()], true),
                (3, vec!["e".into()], false)
            ]
        );
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::ToolsListed {
                pages: 3,
                tools: 5,
                ..
            }
        )));
        assert!(
            !ev.iter().any(|e| matches!(e, Event::Diagnostic(_))),
            "{ev:#?}"
        );
    }
}

#[test]
fn a_repeating_cursor_is_caught() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let op = s.client.list_tools(s.now);
    s.drain();
    s.reply(
        "tools/list",
        json!({"tools": [{"name":"a","inputSchema":{"type":"object"}}], "nextCursor": "same"}),
    );
    s.reply(
        "tools/list",
        json!({"tools": [{"name":"b","inputSchema":{"type":"object"}}], "nextCursor": "same"}),
    );
    let (_, params) = s.last_request("tools/list");
    assert_eq!(params.unwrap()["cursor"], "same");
    let ev = s.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::RepeatingCursor)),
        "{ev:#?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ToolsListFailed { op: o, pages: 2, .. } if *o == op)),
        "{ev:#?}"
    );
    let sent_lists = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("tools/list"))
        .count();
    assert_eq!(sent_lists, 2, "no third request after the repeat");
}

#[test]
fn an_endless_list_stops_at_the_page_limit() {
    let mut s = Scripted::new(ClientConfig {
        max_list_pages: 20,
        ..Default::default()
    });
    s.initialize_ok("2025-11-25");
    s.take();
    s.client.list_tools(s.now);
    s.drain();
    for i in 0..25 {
        if !s.events.is_empty() {
            break;
        }
        s.reply(
            "tools/list",
            json!({"tools": [], "nextCursor": format!("c{i}")}),
        );
        s.events
            .retain(|e| matches!(e, Event::ToolsListFailed { .. } | Event::Diagnostic(_)));
    }
    let ev = s.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::TooManyPages)),
        "{ev:#?}"
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ToolsListFailed { pages: 20, .. }))
    );
}

#[test]
fn is_error_and_json_rpc_errors_stay_apart() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("ok"), tool("fail"), tool("boom")],
    );
    p.connect();
    p.client.list_tools(p.now);
    p.pump();
    p.take();
    p.client
        .call_tool(p.now, "ok", None, CallOptions::default());
    p.pump();
    assert!(
        matches!(outcome(&p.take()), CallOutcome::Success(r) if r.content == vec![ContentBlock::text("ran ok")])
    );
    p.client
        .call_tool(p.now, "fail", None, CallOptions::default());
    p.pump();
    assert!(matches!(outcome(&p.take()), CallOutcome::ToolError(r) if r.failed()));
    p.client
        .call_tool(p.now, "boom", None, CallOptions::default());
    p.pump();
    assert!(matches!(outcome(&p.take()), CallOutcome::ProtocolError(e) if e.code == -32603));
    // An unknown tool is a protocol error (-32602) per spec, not a tool failure.
    p.client
        .call_tool(p.now, "nope", None, CallOptions::default());
    p.pump();
    assert!(matches!(outcome(&p.take()), CallOutcome::ProtocolError(e) if e.code == -32602));
}

#[test]
fn progress_resets_the_timeout_and_is_reported() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("slow")],
    );
    p.behaviour = Behaviour::Hold;
    p.connect();
    p.take();
    let opts = CallOptions {
        progress: true,
        timeout: Some(Duration::from_secs(10)),
        ..Default::default()
    };
    let op = p.client.call_tool(
        p.now,
        "slow",
        Some(json!({"city":"Austin"}).as_object().unwrap().clone()),
        opts,
    );
    p.pump();
    let (id, token) = p
        .server_events
        .iter()
        .find_map(|e| match e {
            ServerEvent::CallTool {
                id,
                progress_token,
                arguments,
                ..
            } => {
                assert_eq!(arguments["city"], "Austin");
                Some((id.clone(), progress_token.clone().expect("token")))
            }
            _ => None,
        })
        .unwrap();
    for step in 1..=3 {
        p.now = p.now.after(Duration::from_secs(8));
        p.client.handle_timeout(p.now);
        p.server
            .progress(p.now, &token, f64::from(step), Some(3.0), Some("working"));
        p.pump();
    }
    // 24 s have passed: without the resets the 10 s timeout would have fired.
    let ev = p.take();
    let progress: Vec<f64> = ev
        .iter()
        .filter_map(|e| {
            if let Event::Progress {
                op: o,
                progress,
                total: Some(3.0),
                ..
            } = e
            {
                assert_eq!(*o, op);
                Some(*progress)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert!(
        !ev.iter().any(|e| matches!(e, Event::CallFinished { .. })),
        "{ev:#?}"
    );
    p.server.respond(p.now, &id, &CallToolResult::text("done"));
    p.pump();
    assert!(matches!(outcome(&p.take()), CallOutcome::Success(_)));
}

#[test]
fn decreasing_progress_is_flagged() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("slow")],
    );
    p.behaviour = Behaviour::Hold;
    p.connect();
    p.client.call_tool(
        p.now,
        "slow",
        None,
        CallOptions {
            progress: true,
            ..Default::default()
        },
    );
    p.pump();
    let token = p
        .server_events
        .iter()
        .find_map(|e| {
            if let ServerEvent::CallTool { progress_token, .. } = e {
                progress_token.clone()
            } else {
                None
            }
        })
        .unwrap();
    p.server.progress(p.now, &token, 5.0, None, None);
    p.server.progress(p.now, &token, 2.0, None, None);
    p.server
        .progress(p.now, &json!("stranger"), 1.0, None, None);
    p.pump();
    let rules: Vec<Rule> = p
        .take()
        .into_iter()
        .filter_map(|e| {
            if let Event::Diagnostic(d) = e {
                Some(d.rule)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(rules, [Rule::Progress, Rule::Progress]);
}

#[test]
fn cancel_notifies_the_server_and_ignores_the_late_answer() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("slow")],
    );
    p.behaviour = Behaviour::Hold;
    p.connect();
    p.take();
    let op = p
        .client
        .call_tool(p.now, "slow", None, CallOptions::default());
    p.pump();
    let id = p
        .server_events
        .iter()
        .find_map(|e| {
            if let ServerEvent::CallTool { id, .. } = e {
                Some(id.clone())
            } else {
                None
            }
        })
        .unwrap();
    p.client.cancel(p.now, op, "user pressed stop");
    p.pump();
    assert!(p.server_events.iter().any(|e| matches!(e, ServerEvent::Cancelled { id: i, reason: Some(r) } if *i == id && r == "user pressed stop")));
    let ev = p.take();
    assert!(matches!(
        outcome(&ev),
        CallOutcome::Failed(Failure::Cancelled(_))
    ));
    // A server that answers anyway: the client ignores it quietly.
    let late = Message::response(id, json!({"content": []}));
    p.client.handle_text(p.now, late.raw());
    p.pump();
    let ev = p.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Diagnostic(d) if d.rule == Rule::LateResponse))
    );
    assert!(!ev.iter().any(|e| matches!(e, Event::CallFinished { .. })));
}

#[test]
fn a_timeout_fails_the_call_and_sends_cancelled() {
    let mut p = Pair::new(
        ClientConfig::default(),
        ServerConfig::default(),
        vec![tool("slow")],
    );
    p.behaviour = Behaviour::Hold;
    p.connect();
    p.take();
    p.client.call_tool(
        p.now,
        "slow",
        None,
        CallOptions {
            timeout: Some(Duration::from_secs(2)),
            ..Default::default()
        },
    );
    p.pump();
    assert_eq!(
        p.client.poll_timeout(),
        Some(p.now.after(Duration::from_secs(2)))
    );
    p.advance(Duration::from_millis(1999));
    assert!(
        !p.take()
            .iter()
            .any(|e| matches!(e, Event::CallFinished { .. }))
    );
    p.advance(Duration::from_millis(1));
    assert!(
        matches!(outcome(&p.take()), CallOutcome::Failed(Failure::Timeout(d)) if *d == Duration::from_secs(2))
    );
    assert!(
        p.server_events
            .iter()
            .any(|e| matches!(e, ServerEvent::Cancelled { .. }))
    );
    assert_eq!(p.client.poll_timeout(), None);
}

#[test]
fn out_of_order_responses_reach_the_right_calls() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let first = s.client.call_tool(s.now, "a", None, CallOptions::default());
    let second = s.client.call_tool(s.now, "b", None, CallOptions::default());
    s.drain();
    let ids: Vec<RequestId> = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("tools/call"))
        .map(|m| m.id().unwrap().clone())
        .collect();
    s.feed(
        Message::response(
            ids[1].clone(),
            json!({"content":[{"type":"text","text":"B"}]}),
        )
        .raw(),
    );
    s.feed(
        Message::response(
            ids[0].clone(),
            json!({"content":[{"type":"text","text":"A"}]}),
        )
        .raw(),
    );
    let got: Vec<(u64, String)> = s
        .take()
        .into_iter()
        .filter_map(|e| match e {
            Event::CallFinished {
                op,
                outcome: CallOutcome::Success(r),
                ..
            } => match &r.content[0] {
                ContentBlock::Text(t) => Some((op.0, t.text.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(got, vec![(second.0, "B".into()), (first.0, "A".into())]);
}

#[test]
fn string_ids_and_unknown_ids() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    s.feed(r#"{"jsonrpc":"2.0","id":"never-sent","result":{}}"#);
    s.feed(r#"{"jsonrpc":"2.0","id":999,"result":{}}"#);
    let rules: Vec<Rule> = s
        .take()
        .into_iter()
        .filter_map(|e| {
            if let Event::Diagnostic(d) = e {
                Some(d.rule)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(rules, [Rule::UnknownResponseId, Rule::UnknownResponseId]);
}

#[test]
fn list_changed_triggers_a_refresh_event() {
    let mut p = Pair::new(
        ClientConfig {
            mode: mcpg_core::client::GenerationMode::Initialize,
            ..Default::default()
        },
        ServerConfig::default(),
        vec![tool("a")],
    );
    p.connect();
    p.take();
    p.server.set_tools(p.now, vec![tool("a"), tool("b")]);
    p.pump();
    assert!(
        p.take()
            .iter()
            .any(|e| matches!(e, Event::ToolsListChanged))
    );
}

#[test]
fn server_requests_are_surfaced_and_never_left_unanswered() {
    let mut caps = serde_json::Map::new();
    caps.insert("roots".into(), json!({}));
    let mut s = Scripted::new(ClientConfig {
        capabilities: caps,
        server_request_timeout: Duration::from_secs(5),
        ..Default::default()
    });
    s.initialize_ok("2025-11-25");
    s.take();
    s.feed(r#"{"jsonrpc":"2.0","id":"p1","method":"ping"}"#);
    s.feed(r#"{"jsonrpc":"2.0","id":"r1","method":"roots/list"}"#);
    s.feed(r#"{"jsonrpc":"2.0","id":"r2","method":"roots/list"}"#);
    s.feed(r#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}"#);
    s.feed(r#"{"jsonrpc":"2.0","id":"x1","method":"weird/thing"}"#);
    let ev = s.take();
    let surfaced: Vec<(String, bool)> = ev
        .iter()
        .filter_map(|e| {
            if let Event::ServerRequest {
                method, answered, ..
            } = e
            {
                Some((method.clone(), *answered))
            } else {
                None
            }
        })
        .collect();
    assert_eq!(
        surfaced,
        vec![
            ("ping".into(), true),
            ("roots/list".into(), false),
            ("roots/list".into(), false),
            ("sampling/createMessage".into(), true),
            ("weird/thing".into(), true)
        ]
    );
    let answer_to = |s: &Scripted, id: &str| -> Option<Value> {
        s.sent
            .iter()
            .find(|m| m.id() == Some(&RequestId::String(id.into())) && m.method().is_none())
            .map(|m| m.to_value())
    };
    assert_eq!(answer_to(&s, "p1").unwrap()["result"], json!({}));
    assert_eq!(
        answer_to(&s, "s1").unwrap()["error"]["code"],
        -32601,
        "sampling was not declared"
    );
    assert_eq!(answer_to(&s, "x1").unwrap()["error"]["code"], -32601);
    assert!(answer_to(&s, "r1").is_none(), "the host answers roots");
    assert!(s.client.answer(
        s.now,
        &RequestId::String("r1".into()),
        Ok(json!({"roots": []}))
    ));
    assert!(
        !s.client
            .answer(s.now, &RequestId::String("r1".into()), Ok(json!({}))),
        "only once"
    );
    s.drain();
    assert_eq!(answer_to(&s, "r1").unwrap()["result"], json!({"roots": []}));
    s.advance(Duration::from_secs(5));
    assert_eq!(
        answer_to(&s, "r2").unwrap()["error"]["code"],
        -32603,
        "unanswered → error, never silence"
    );
}

#[test]
fn a_closed_transport_ends_everything_in_flight() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let call = s.client.call_tool(s.now, "a", None, CallOptions::default());
    let list = s.client.list_tools(s.now);
    s.client.handle_closed(s.now, "server exited with status 3");
    s.drain();
    let ev = s.take();
    assert!(ev.iter().any(|e| matches!(e, Event::CallFinished { op, outcome: CallOutcome::Failed(Failure::Transport(m)), .. } if *op == call && m.contains("status 3"))));
    assert!(ev.iter().any(|e| matches!(e, Event::ToolsListFailed { op, error: OpError::Failed(Failure::Transport(_)), .. } if *op == list)));
    assert!(matches!(ev.last(), Some(Event::Closed(_))));
    let after = s.client.call_tool(s.now, "a", None, CallOptions::default());
    s.drain();
    assert!(s.take().iter().any(|e| matches!(e, Event::CallFinished { op, outcome: CallOutcome::Failed(Failure::NotConnected(_)), .. } if *op == after)));
}

#[test]
fn session_expiry_reinitializes_and_resends() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let op = s.client.call_tool(s.now, "a", None, CallOptions::default());
    s.drain();
    let (id, _) = s.last_request("tools/call");
    s.client
        .handle_send_failed(s.now, &id, mcpg_core::client::SendFailure::SessionExpired);
    s.drain();
    let inits = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("initialize"))
        .count();
    assert_eq!(inits, 2);
    s.reply("initialize", json!({"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x", "version": "1"}}));
    let (id2, params) = s.last_request("tools/call");
    assert_ne!(id, id2);
    assert_eq!(params.unwrap()["name"], "a");
    s.reply("tools/call", json!({"content": []}));
    assert!(s.take().iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: CallOutcome::Success(_), .. } if *o == op)));
}

#[test]
fn http_rejection_with_a_json_rpc_body_is_a_protocol_error() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let op = s.client.call_tool(s.now, "a", None, CallOptions::default());
    s.drain();
    let (id, _) = s.last_request("tools/call");
    let body = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Bad Request: no session"}}"#;
    s.client.handle_send_failed(
        s.now,
        &id,
        mcpg_core::client::SendFailure::Rejected {
            status: 400,
            body: body.into(),
        },
    );
    s.drain();
    assert!(s.take().iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: CallOutcome::ProtocolError(err), .. } if *o == op && err.code == -32600)));
}

#[test]
fn http_rejection_without_a_json_rpc_body_keeps_its_status() {
    let mut s = Scripted::new(ClientConfig::default());
    s.initialize_ok("2025-11-25");
    s.take();
    let op = s.client.call_tool(s.now, "a", None, CallOptions::default());
    s.drain();
    let (id, _) = s.last_request("tools/call");
    s.client.handle_send_failed(
        s.now,
        &id,
        mcpg_core::client::SendFailure::Rejected {
            status: 401,
            body: " nope\n".into(),
        },
    );
    s.drain();
    let ev = s.take();
    let failed = ev.iter().find_map(|e| match e {
        Event::CallFinished {
            op: o,
            outcome: CallOutcome::Failed(f),
            ..
        } if *o == op => Some(f.clone()),
        _ => None,
    });
    let f = failed.expect("the call failed");
    assert_eq!(
        f,
        Failure::Refused {
            status: 401,
            reason: "nope".into()
        }
    );
    assert_eq!(f.refused(), Some(401));
    // The words are those of the transport failure it used to be.
    assert_eq!(f.to_string(), "transport failed: HTTP 401: nope");
}

#[test]
fn stateless_list_changed_arrives_on_a_listen_stream() {
    let ccfg = ClientConfig {
        listen_for_list_changes: true,
        ..Default::default()
    };
    let mut p = Pair::new(ccfg, ServerConfig::default(), vec![tool("a")]);
    p.connect();
    let ev = p.take();
    assert!(
        ev.iter().any(|e| matches!(e, Event::Notification { method, .. } if method == "notifications/subscriptions/acknowledged")),
        "{ev:#?}"
    );
    assert_eq!(
        p.client.poll_timeout(),
        None,
        "a listen stream has no deadline"
    );
    p.server.set_tools(p.now, vec![tool("a"), tool("b")]);
    p.pump();
    let ev = p.take();
    assert!(
        ev.iter().any(|e| matches!(e, Event::ToolsListChanged)),
        "{ev:#?}"
    );
    assert!(
        !ev.iter().any(|e| matches!(e, Event::Diagnostic(_))),
        "{ev:#?}"
    );
}
