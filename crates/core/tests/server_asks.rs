//! The server asks the client: sampling, elicitation (form and URL) and roots, in
//! both generations. Classic requests (up to 2025-11-25) answered, rejected,
//! declined, cancelled, timed out or refused; URL elicitation's `-32042` error and
//! completion notice; `notifications/roots/list_changed`; and 2026-07-28 MRTR with
//! all three kinds of input request. Virtual clock, no sleeps.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use std::time::Duration;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, OpId};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::jsonrpc::{Body, RequestId, RpcError};
use mcpg_core::model::{ElicitationComplete, JsonObject, UrlElicitationRequired};
use serde_json::{Value, json};
use support::Scripted;

const CLASSIC: [&str; 3] = ["2024-11-05", "2025-06-18", "2025-11-25"];

fn caps() -> JsonObject {
    json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}})
        .as_object()
        .cloned()
        .unwrap()
}

fn session(version: &str) -> Scripted {
    let mut s = Scripted::new(ClientConfig {
        capabilities: caps(),
        server_request_timeout: Duration::from_secs(30),
        ..Default::default()
    });
    s.connect_with(version, json!({"tools": {}}));
    s
}

fn sampling() -> Value {
    json!({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}], "maxTokens": 10})
}

fn form() -> Value {
    json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}})
}

fn url(id: &str) -> Value {
    json!({"mode": "url", "message": "Sign in", "url": "https://auth.example/x", "elicitationId": id})
}

/// The server sends request `id`; returns the surfaced event's `answered`.
fn ask(s: &mut Scripted, id: &str, method: &str, params: Value) -> bool {
    let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string();
    s.feed(&text);
    let ev = s.take();
    ev.iter()
        .find_map(|e| match e {
            Event::ServerRequest {
                id: got, answered, ..
            } if *got == RequestId::String(id.into()) => Some(*answered),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{id} not surfaced: {ev:#?}"))
}

/// The client's response to request `id`: `Ok(result)` or `Err(error)`.
fn response(s: &Scripted, id: &str) -> Option<Result<Value, Value>> {
    s.sent.iter().find_map(|m| match m.body() {
        Body::Response { id: got, result } if *got == RequestId::String(id.into()) => {
            Some(Ok(result.clone()))
        }
        Body::Error { id: Some(got), .. } if *got == RequestId::String(id.into()) => {
            Some(Err(m.to_value()["error"].clone()))
        }
        _ => None,
    })
}

fn rid(id: &str) -> RequestId {
    RequestId::String(id.into())
}

fn diags(ev: &[Event]) -> Vec<(Rule, Severity)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Diagnostic(d) => Some((d.rule, d.severity)),
            _ => None,
        })
        .collect()
}

#[test]
fn every_classic_request_is_answered_as_the_host_says() {
    for v in CLASSIC {
        let mut s = session(v);
        let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "Hello"}, "model": "m"});
        let answers: [(&str, &str, Value, Result<Value, RpcError>); 6] = [
            (
                "s1",
                "sampling/createMessage",
                sampling(),
                Ok(sampled.clone()),
            ),
            (
                "s2",
                "sampling/createMessage",
                sampling(),
                Err(RpcError::new(-1, "User rejected sampling request")),
            ),
            (
                "e1",
                "elicitation/create",
                form(),
                Ok(json!({"action": "accept", "content": {"name": "Ada"}})),
            ),
            (
                "e2",
                "elicitation/create",
                form(),
                Ok(json!({"action": "decline"})),
            ),
            (
                "e3",
                "elicitation/create",
                form(),
                Ok(json!({"action": "cancel"})),
            ),
            (
                "r1",
                "roots/list",
                json!({}),
                Ok(json!({"roots": [{"uri": "file:///w"}]})),
            ),
        ];
        for (id, method, params, answer) in answers {
            assert!(
                !ask(&mut s, id, method, params),
                "{v} {id}: waits for the host"
            );
            assert!(
                response(&s, id).is_none(),
                "{v} {id}: nothing sent before the host answers"
            );
            assert!(s.client.answer(s.now, &rid(id), answer.clone()), "{v} {id}");
            s.drain();
            match (response(&s, id).unwrap(), answer) {
                (Ok(got), Ok(want)) => assert_eq!(got, want, "{v} {id}"),
                (Err(got), Err(want)) => {
                    assert_eq!(got["code"], want.code, "{v} {id}");
                    assert_eq!(got["message"], want.message.as_str());
                }
                (got, want) => panic!("{v} {id}: {got:?} vs {want:?}"),
            }
            assert!(
                !s.client.answer(s.now, &rid(id), Ok(json!({}))),
                "{v} {id}: only once"
            );
        }
        assert!(diags(&s.take()).is_empty(), "{v}");
    }
}

#[test]
fn an_unanswered_request_gets_the_cores_error_at_its_deadline() {
    let mut s = session("2025-11-25");
    assert!(!ask(&mut s, "s1", "sampling/createMessage", sampling()));
    s.advance(Duration::from_secs(29));
    assert!(response(&s, "s1").is_none(), "not before the deadline");
    s.advance(Duration::from_secs(1));
    let err = response(&s, "s1").unwrap().unwrap_err();
    assert_eq!(err["code"], -32603);
    assert!(diags(&s.take()).contains(&(Rule::Timeout, Severity::Warning)));
    assert!(
        !s.client.answer(s.now, &rid("s1"), Ok(json!({}))),
        "too late"
    );
}

#[test]
fn undeclared_capabilities_are_refused_at_once() {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with("2025-11-25", json!({"tools": {}}));
    for (id, method, params) in [
        ("s1", "sampling/createMessage", sampling()),
        ("e1", "elicitation/create", form()),
        ("r1", "roots/list", json!({})),
    ] {
        assert!(
            ask(&mut s, id, method, params),
            "{method}: the core answered"
        );
        assert_eq!(
            response(&s, id).unwrap().unwrap_err()["code"],
            -32601,
            "{method}"
        );
    }
    assert!(
        !s.client.roots_list_changed(s.now),
        "roots were not declared"
    );
}

#[test]
fn a_cancelled_server_request_is_not_answered() {
    let mut s = session("2025-06-18");
    assert!(!ask(&mut s, "e1", "elicitation/create", form()));
    s.notify(
        "notifications/cancelled",
        json!({"requestId": "e1", "reason": "user left"}),
    );
    let ev = s.take();
    assert!(ev.iter().any(
        |e| matches!(e, Event::Notification { method, .. } if method == "notifications/cancelled")
    ));
    assert!(
        !s.client
            .answer(s.now, &rid("e1"), Ok(json!({"action": "cancel"})))
    );
    s.drain();
    assert!(
        response(&s, "e1").is_none(),
        "nothing goes back for a cancelled request"
    );
    s.advance(Duration::from_secs(60));
    assert!(response(&s, "e1").is_none(), "not even at the deadline");
}

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
    assert!(diags(&ev).is_empty(), "{ev:#?}");
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
    assert_eq!(diags(&s.take()), [(Rule::Elicitation, Severity::Info)]);
    s.notify("notifications/elicitation/complete", json!({}));
    assert_eq!(diags(&s.take()), [(Rule::Elicitation, Severity::Warning)]);
}

#[test]
fn url_elicitation_out_of_its_revision_or_undeclared_is_diagnosed() {
    let mut s = session("2025-06-18");
    s.feed(&json!({"jsonrpc": "2.0", "id": "u2", "method": "elicitation/create", "params": url("el-2")}).to_string());
    assert!(diags(&s.take()).contains(&(Rule::Elicitation, Severity::Warning)));
    let mut form_only = Scripted::new(ClientConfig {
        capabilities: json!({"elicitation": {}}).as_object().cloned().unwrap(),
        ..Default::default()
    });
    form_only.connect_with("2025-11-25", json!({"tools": {}}));
    form_only.feed(&json!({"jsonrpc": "2.0", "id": "u3", "method": "elicitation/create", "params": url("el-3")}).to_string());
    let ev = form_only.take();
    assert!(
        diags(&ev).contains(&(Rule::Elicitation, Severity::Warning)),
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

fn finished(ev: &[Event], op: OpId) -> Vec<CallOutcome> {
    ev.iter()
        .filter_map(|e| match e {
            Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
            _ => None,
        })
        .collect()
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
    let [CallOutcome::ProtocolError(e)] = &finished(&ev, op)[..] else {
        panic!("{ev:#?}")
    };
    let req = UrlElicitationRequired::from_error(e).unwrap();
    assert_eq!(req.elicitations.len(), 1);
    assert_eq!(req.elicitations[0].url, "https://auth.example/c");
    assert_eq!(req.elicitations[0].elicitation_id.as_deref(), Some("el-9"));
    assert!(diags(&ev).is_empty(), "{ev:#?}");
    // Its completion is known to the client.
    s.notify(
        "notifications/elicitation/complete",
        json!({"elicitationId": "el-9"}),
    );
    assert!(diags(&s.take()).is_empty());
    // Without its elicitations, it is named.
    let op = call(&mut s);
    s.reply_error("tools/call", -32042, "more", None);
    let ev = s.take();
    assert!(matches!(&finished(&ev, op)[..], [CallOutcome::ProtocolError(e)] if e.code == -32042));
    assert_eq!(diags(&ev), [(Rule::Elicitation, Severity::Warning)]);
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
