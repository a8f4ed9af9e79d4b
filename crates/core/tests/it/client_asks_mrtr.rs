//! 2026-07-28: the server asks through `input_required` (MRTR) instead of
//! requests of its own. All three kinds in one round, asked again, the
//! `requestState` echoed byte for byte, and the MRTR diagnostics.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::jsonrpc::Body;
use mcpg_core::model::JsonObject;
use serde_json::{Value, json};
use support::{Scripted, findings, outcomes};

fn session(capabilities: Value) -> Scripted {
    let mut s = Scripted::new(ClientConfig {
        capabilities: capabilities.as_object().cloned().unwrap(),
        ..Default::default()
    });
    s.connect_with("2026-07-28", json!({"tools": {}}));
    s
}

fn all() -> Value {
    json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {}})
}

fn three_asks() -> Value {
    json!({
        "s": {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarise"}}], "maxTokens": 20}},
        "e": {"method": "elicitation/create", "params": {"mode": "form", "message": "Party size?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}},
        "r": {"method": "roots/list"}
    })
}

fn answers() -> JsonObject {
    json!({
        "s": {"role": "assistant", "content": {"type": "text", "text": "Short."}, "model": "mcpg-mock"},
        "e": {"action": "accept", "content": {"n": 4}},
        "r": {"roots": [{"uri": "file:///w"}]}
    })
    .as_object()
    .cloned()
    .unwrap()
}

fn last_call_params(s: &Scripted) -> Value {
    s.sent
        .iter()
        .rev()
        .find_map(|m| match m.body() {
            Body::Request { method, params, .. } if method == "tools/call" => params.clone(),
            _ => None,
        })
        .unwrap()
}

#[test]
fn all_three_kinds_answered_asked_again_then_done() {
    let mut s = session(all());
    let op = s
        .client
        .call_tool(s.now, "book", None, CallOptions::default());
    s.drain();
    // A state with spaces, escapes and unicode: echoed exactly, never re-encoded.
    let state = "st\u{e9} 1 \\\" {\"k\":[1,2]}";
    s.reply("tools/call", json!({"resultType": "input_required", "inputRequests": three_asks(), "requestState": state}));
    let ev = s.take();
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    assert!(
        matches!(&outcomes(&ev, op)[..], [CallOutcome::InputRequired(r)] if r["inputRequests"] == three_asks())
    );
    // No server request crosses the wire under 2026-07-28: the asks ride the result.
    assert!(!ev.iter().any(|e| matches!(e, Event::ServerRequest { .. })));

    assert!(s.client.continue_call(s.now, op, answers()));
    s.drain();
    let retry = last_call_params(&s);
    assert_eq!(retry["requestState"], state);
    assert_eq!(retry["inputResponses"], Value::Object(answers()));
    assert_eq!(retry["name"], "book");

    // Asked again, with a new state: only the new round's answers and state go back.
    s.reply("tools/call", json!({"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}, "requestState": "round-2"}));
    let ev = s.take();
    assert!(matches!(
        &outcomes(&ev, op)[..],
        [CallOutcome::InputRequired(_)]
    ));
    let roots = json!({"r": {"roots": []}}).as_object().cloned().unwrap();
    assert!(s.client.continue_call(s.now, op, roots.clone()));
    s.drain();
    let retry = last_call_params(&s);
    assert_eq!(retry["requestState"], "round-2");
    assert_eq!(retry["inputResponses"], Value::Object(roots));

    s.reply(
        "tools/call",
        json!({"resultType": "complete", "content": [{"type": "text", "text": "booked"}]}),
    );
    let ev = s.take();
    assert!(
        matches!(&outcomes(&ev, op)[..], [CallOutcome::Success(_)]),
        "{ev:#?}"
    );
    assert!(findings(&ev).is_empty(), "{ev:#?}");
}

#[test]
fn the_mrtr_rules() {
    // Asks for capabilities the client did not declare: an error each.
    let mut s = session(json!({"elicitation": {}}));
    let op = s
        .client
        .call_tool(s.now, "book", None, CallOptions::default());
    s.drain();
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "inputRequests": three_asks()}),
    );
    let ev = s.take();
    let d = findings(&ev);
    assert_eq!(
        d.iter()
            .filter(|x| **x == (Rule::InputRequired, Severity::Error))
            .count(),
        2,
        "{ev:#?}"
    );
    // A retry that leaves an ask unanswered is warned about; one answering
    // nothing asked is noted.
    let mut partial = answers();
    partial.remove("s");
    partial.insert("zzz".into(), json!({}));
    assert!(s.client.continue_call(s.now, op, partial));
    s.drain();
    let d = findings(&s.take());
    assert!(
        d.contains(&(Rule::InputRequired, Severity::Warning)),
        "{d:?}"
    );
    assert!(d.contains(&(Rule::InputRequired, Severity::Info)), "{d:?}");
    // Neither inputRequests nor requestState: an error.
    let op = s
        .client
        .call_tool(s.now, "book", None, CallOptions::default());
    s.drain();
    s.reply("tools/call", json!({"resultType": "input_required"}));
    let ev = s.take();
    assert!(findings(&ev).contains(&(Rule::InputRequired, Severity::Error)));
    assert!(matches!(
        &outcomes(&ev, op)[..],
        [CallOutcome::InputRequired(_)]
    ));
}

#[test]
fn a_classic_request_under_2026_is_diagnosed_and_still_surfaced() {
    let mut s = session(all());
    let text = json!({"jsonrpc": "2.0", "id": "r", "method": "roots/list"}).to_string();
    s.feed(&text);
    let ev = s.take();
    assert_eq!(
        findings(&ev),
        [(Rule::UnexpectedRequest, Severity::Warning)]
    );
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::ServerRequest {
            answered: false,
            ..
        }
    )));
}
