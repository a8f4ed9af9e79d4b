//! The server asks the client (up to 2025-11-25): sampling, elicitation and roots
//! answered, rejected, declined, cancelled, timed out or refused, and checked
//! against the revision and the declared capabilities. URL elicitation is in
//! `client_asks_url.rs`, 2026-07-28 MRTR in `client_asks_mrtr.rs`. Virtual clock,
//! no sleeps.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::client::{ClientConfig, Event};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::jsonrpc::RpcError;
use serde_json::{Value, json};
use support::asks::{CLASSIC, ask, form, response, rid, sampling, session};
use support::{Scripted, findings};

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
        // Elicitation came with 2025-06-18: under 2024-11-05 each one is noted (and answered).
        let want = if v == "2024-11-05" {
            vec![(Rule::FieldNotInVersion, Severity::Warning); 3]
        } else {
            vec![]
        };
        assert_eq!(findings(&s.take()), want, "{v}");
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
    assert!(findings(&s.take()).contains(&(Rule::Timeout, Severity::Warning)));
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
fn asks_out_of_their_revision_or_capability_are_diagnosed_and_still_surfaced() {
    let tools = json!({"messages": [], "maxTokens": 5, "tools": [{"name": "t", "inputSchema": {"type": "object"}}]});
    let context = json!({"messages": [], "maxTokens": 5, "includeContext": "thisServer"});
    type Case = (&'static str, &'static str, Value, Vec<(Rule, Severity)>);
    let cases: [Case; 5] = [
        (
            "2024-11-05",
            "elicitation/create",
            form(),
            vec![(Rule::FieldNotInVersion, Severity::Warning)],
        ),
        (
            "2025-06-18",
            "sampling/createMessage",
            tools.clone(),
            vec![(Rule::FieldNotInVersion, Severity::Warning)],
        ),
        (
            "2025-11-25",
            "sampling/createMessage",
            tools,
            vec![(Rule::CapabilityNotDeclared, Severity::Warning)],
        ),
        (
            "2025-11-25",
            "sampling/createMessage",
            context,
            vec![(Rule::CapabilityNotDeclared, Severity::Info)],
        ),
        ("2025-11-25", "sampling/createMessage", sampling(), vec![]),
    ];
    for (v, method, params, want) in cases {
        let mut s = session(v);
        let text =
            json!({"jsonrpc": "2.0", "id": "a", "method": method, "params": params}).to_string();
        s.feed(&text);
        let ev = s.take();
        assert_eq!(findings(&ev), want, "{v} {method}");
        assert!(
            ev.iter().any(|e| matches!(
                e,
                Event::ServerRequest {
                    answered: false,
                    ..
                }
            )),
            "{v} {method}"
        );
    }
    // Declared, tools in sampling are fine.
    let mut s = Scripted::new(ClientConfig {
        capabilities: json!({"sampling": {"tools": {}, "context": {}}})
            .as_object()
            .cloned()
            .unwrap(),
        ..Default::default()
    });
    s.connect_with("2025-11-25", json!({}));
    let params = json!({"messages": [], "maxTokens": 5, "includeContext": "allServers", "tools": [{"name": "t", "inputSchema": {"type": "object"}}]});
    s.feed(
        &json!({"jsonrpc": "2.0", "id": "b", "method": "sampling/createMessage", "params": params})
            .to_string(),
    );
    assert!(findings(&s.take()).is_empty());
}
