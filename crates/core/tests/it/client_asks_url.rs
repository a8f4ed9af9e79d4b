//! URL elicitation as the client sees it (2025-11-25): an `elicitation/create` in
//! URL mode and its completion notice, the `-32042` error read typed, the rules
//! around them, and the client's `notifications/roots/list_changed`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, OpId};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::{ElicitationComplete, UrlElicitationRequired};
use serde_json::json;
use support::asks::{CLASSIC, ask, rid, session, url};
use support::{Scripted, findings, outcomes};

#[test]
fn url_elicitation_and_its_completion() {
    let mut s = session("2025-11-25");
    assert!(!ask(&mut s, "u1", "elicitation/create", url("el-1")));
    assert!(
        s.client
            .answer(s.now, &rid("u1"), Ok(json!({"action": "accept"})))
    );
    s.notify(
        "notifications/elicitation/complete",
        json!({"elicitationId": "el-1"}),
    );
    let ev = s.take();
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    let done = ev.iter().find_map(|e| match e {
        Event::Notification { method, params } => {
            ElicitationComplete::from_notification(method, params.as_ref())
        }
        _ => None,
    });
    assert_eq!(done.unwrap().elicitation_id, "el-1");
    // A completion for nothing the client saw (or already completed) is noted and ignored.
    s.notify(
        "notifications/elicitation/complete",
        json!({"elicitationId": "el-1"}),
    );
    assert_eq!(findings(&s.take()), [(Rule::Elicitation, Severity::Info)]);
    s.notify("notifications/elicitation/complete", json!({}));
    assert_eq!(
        findings(&s.take()),
        [(Rule::Elicitation, Severity::Warning)]
    );
}

#[test]
fn url_elicitation_out_of_its_revision_or_undeclared_is_diagnosed() {
    let mut s = session("2025-06-18");
    s.feed(&json!({"jsonrpc": "2.0", "id": "u2", "method": "elicitation/create", "params": url("el-2")}).to_string());
    assert!(findings(&s.take()).contains(&(Rule::Elicitation, Severity::Warning)));
    let mut form_only = Scripted::new(ClientConfig {
        capabilities: json!({"elicitation": {}}).as_object().cloned().unwrap(),
        ..Default::default()
    });
    form_only.connect_with("2025-11-25", json!({"tools": {}}));
    form_only.feed(&json!({"jsonrpc": "2.0", "id": "u3", "method": "elicitation/create", "params": url("el-3")}).to_string());
    let ev = form_only.take();
    assert!(
        findings(&ev).contains(&(Rule::Elicitation, Severity::Warning)),
        "{ev:#?}"
    );
    assert!(
        ev.iter().any(|e| matches!(
            e,
            Event::ServerRequest {
                answered: false,
                ..
            }
        )),
        "still the host's to answer"
    );
}

fn call(s: &mut Scripted) -> OpId {
    let op = s
        .client
        .call_tool(s.now, "connect", None, CallOptions::default());
    s.drain();
    op
}

#[test]
fn a_url_elicitation_required_error_is_surfaced_typed() {
    let mut s = session("2025-11-25");
    let op = call(&mut s);
    s.reply_error(
        "tools/call",
        -32042,
        "This request requires more information.",
        Some(json!({"elicitations": [{"mode": "url", "elicitationId": "el-9", "url": "https://auth.example/c", "message": "Authorize"}]})),
    );
    let ev = s.take();
    let [CallOutcome::ProtocolError(e)] = &outcomes(&ev, op)[..] else {
        panic!("{ev:#?}")
    };
    let req = UrlElicitationRequired::from_error(e).unwrap();
    assert_eq!(req.elicitations.len(), 1);
    assert_eq!(req.elicitations[0].url, "https://auth.example/c");
    assert_eq!(req.elicitations[0].elicitation_id.as_deref(), Some("el-9"));
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    // Its completion is known to the client.
    s.notify(
        "notifications/elicitation/complete",
        json!({"elicitationId": "el-9"}),
    );
    assert!(findings(&s.take()).is_empty());
    // Without its elicitations, it is named.
    let op = call(&mut s);
    s.reply_error("tools/call", -32042, "more", None);
    let ev = s.take();
    assert!(matches!(&outcomes(&ev, op)[..], [CallOutcome::ProtocolError(e)] if e.code == -32042));
    assert_eq!(findings(&ev), [(Rule::Elicitation, Severity::Warning)]);
    assert!(UrlElicitationRequired::from_error(&RpcError::new(-32602, "x")).is_none());
}

#[test]
fn the_client_says_when_its_roots_change() {
    for v in CLASSIC {
        let mut s = session(v);
        assert!(s.client.roots_list_changed(s.now), "{v}");
        s.drain();
        assert!(
            s.sent.last().unwrap().method() == Some("notifications/roots/list_changed"),
            "{v}"
        );
    }
    let mut s = Scripted::new(ClientConfig {
        capabilities: json!({"roots": {}}).as_object().cloned().unwrap(),
        ..Default::default()
    });
    s.connect_with("2025-11-25", json!({}));
    assert!(
        !s.client.roots_list_changed(s.now),
        "listChanged was not declared"
    );
    // 2026-07-28 has no such notification.
    let mut s = session("2026-07-28");
    let before = s.sent.len();
    assert!(!s.client.roots_list_changed(s.now));
    s.drain();
    assert_eq!(s.sent.len(), before);
}
