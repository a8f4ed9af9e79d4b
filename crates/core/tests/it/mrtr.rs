//! 2026-07-28 multi round-trip requests: an `input_required` result is continued
//! through `Client::continue_call`, and the final answer is a typed outcome.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, Failure};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::jsonrpc::Body;
use mcpg_core::model::JsonObject;
use serde_json::{Value, json};
use support::{Scripted, findings, outcomes};

/// A stateless session whose client declares elicitation.
fn session() -> Scripted {
    let mut caps = JsonObject::new();
    caps.insert("elicitation".into(), json!({}));
    let mut s = Scripted::new(ClientConfig {
        capabilities: caps,
        ..Default::default()
    });
    s.discover_ok();
    s.take();
    s
}

fn elicit(message: &str) -> Value {
    json!({"method": "elicitation/create", "params": {"message": message,
        "requestedSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}})
}

fn accept() -> JsonObject {
    json!({"confirm": {"action": "accept", "content": {"ok": true}}})
        .as_object()
        .cloned()
        .unwrap()
}

fn params_of_calls(s: &Scripted) -> Vec<(Value, Value)> {
    s.sent
        .iter()
        .filter_map(|m| match m.body() {
            Body::Request {
                id, method, params, ..
            } if method == "tools/call" => Some((id.to_value(), params.clone().unwrap())),
            _ => None,
        })
        .collect()
}

#[test]
fn the_retry_carries_the_answers_and_the_exact_request_state() {
    let mut s = session();
    let args = json!({"file": "a.txt"}).as_object().cloned();
    let op = s.client.call_tool(
        s.now,
        "delete",
        args,
        CallOptions {
            progress: true,
            ..Default::default()
        },
    );
    s.drain();
    // An opaque state that looks like JSON: it must come back byte for byte.
    let state = r#"{"nonce":"n-1","originalId":1}"#;
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "inputRequests": {"confirm": elicit("Sure?")}, "requestState": state}),
    );
    let ev = s.take();
    let first = outcomes(&ev, op);
    assert!(
        matches!(&first[..], [CallOutcome::InputRequired(v)] if v["requestState"] == state),
        "{ev:#?}"
    );
    assert!(findings(&ev).is_empty(), "{ev:#?}");

    assert!(s.client.continue_call(s.now, op, accept()));
    s.drain();
    let calls = params_of_calls(&s);
    assert_eq!(calls.len(), 2);
    let (first_id, first) = &calls[0];
    let (retry_id, retry) = &calls[1];
    assert_ne!(first_id, retry_id, "a retry is a new request");
    assert_eq!(retry["name"], "delete");
    assert_eq!(retry["arguments"], json!({"file": "a.txt"}));
    assert_eq!(retry["requestState"], state);
    assert_eq!(retry["inputResponses"], Value::Object(accept()));
    // Same progress token, freshly stamped _meta.
    assert_eq!(
        retry["_meta"]["progressToken"],
        first["_meta"]["progressToken"]
    );
    assert_eq!(
        retry["_meta"]["io.modelcontextprotocol/protocolVersion"],
        "2026-07-28"
    );
    assert!(first.get("inputResponses").is_none());
    let out = s.last_outgoing("tools/call");
    assert!(
        out.headers
            .iter()
            .any(|(k, v)| *k == "Mcp-Name" && v == "delete")
    );

    s.reply(
        "tools/call",
        json!({"resultType": "complete", "content": [{"type": "text", "text": "deleted"}]}),
    );
    let ev = s.take();
    assert!(
        matches!(&outcomes(&ev, op)[..], [CallOutcome::Success(r)] if r.content.len() == 1),
        "{ev:#?}"
    );
    assert!(
        !s.client.continue_call(s.now, op, accept()),
        "a finished call cannot be continued"
    );
}

#[test]
fn every_round_carries_only_its_own_answers_and_state() {
    let mut s = session();
    let op = s
        .client
        .call_tool(s.now, "wizard", None, CallOptions::default());
    s.drain();
    // Round 1: no requestState, so the retry must not invent one.
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "inputRequests": {"confirm": elicit("1")}}),
    );
    assert!(s.client.continue_call(s.now, op, accept()));
    s.drain();
    let retry = params_of_calls(&s)[1].1.clone();
    assert!(retry.get("requestState").is_none(), "{retry}");
    // Round 2: a different request and a state.
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "inputRequests": {"name": elicit("2")}, "requestState": "s2"}),
    );
    let second = json!({"name": {"action": "decline"}})
        .as_object()
        .cloned()
        .unwrap();
    assert!(s.client.continue_call(s.now, op, second.clone()));
    s.drain();
    let retry = params_of_calls(&s)[2].1.clone();
    assert_eq!(retry["inputResponses"], Value::Object(second));
    assert_eq!(retry["requestState"], "s2");
    // Round 3: only a state (no questions): the retry carries no inputResponses.
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "requestState": "s3"}),
    );
    assert!(s.client.continue_call(s.now, op, JsonObject::new()));
    s.drain();
    let retry = params_of_calls(&s)[3].1.clone();
    assert!(retry.get("inputResponses").is_none(), "{retry}");
    assert_eq!(retry["requestState"], "s3");
    s.reply(
        "tools/call",
        json!({"resultType": "complete", "content": [], "isError": true}),
    );
    let ev = s.take();
    let all = outcomes(&ev, op);
    assert_eq!(all.len(), 4, "{ev:#?}");
    assert!(matches!(all[3], CallOutcome::ToolError(_)), "{ev:#?}");
    assert!(findings(&ev).is_empty(), "{ev:#?}");
}

#[test]
fn other_calls_never_carry_another_calls_answers() {
    let mut s = session();
    let op = s
        .client
        .call_tool(s.now, "delete", None, CallOptions::default());
    s.drain();
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "inputRequests": {"confirm": elicit("?")}, "requestState": "st"}),
    );
    let other = s
        .client
        .call_tool(s.now, "unrelated", None, CallOptions::default());
    s.drain();
    let p = params_of_calls(&s)[1].1.clone();
    assert!(
        p.get("inputResponses").is_none() && p.get("requestState").is_none(),
        "{p}"
    );
    s.reply(
        "tools/call",
        json!({"resultType": "complete", "content": []}),
    );
    assert!(matches!(
        &outcomes(&s.take(), other)[..],
        [CallOutcome::Success(_)]
    ));
    assert!(s.client.continue_call(s.now, op, accept()));
}

#[test]
fn a_result_without_result_type_is_complete_and_not_continued() {
    let mut s = session();
    let op = s
        .client
        .call_tool(s.now, "old", None, CallOptions::default());
    s.drain();
    s.reply(
        "tools/call",
        json!({"content": [{"type": "text", "text": "ok"}]}),
    );
    let ev = s.take();
    assert!(matches!(&outcomes(&ev, op)[..], [CallOutcome::Success(_)]));
    assert!(findings(&ev).contains(&(Rule::MissingResultType, Severity::Warning)));
    assert!(!s.client.continue_call(s.now, op, accept()));
}

#[test]
fn broken_input_required_results_and_retries_are_diagnosed() {
    let mut s = session();
    let op = s.client.call_tool(s.now, "t", None, CallOptions::default());
    s.drain();
    // Neither inputRequests nor requestState.
    s.reply("tools/call", json!({"resultType": "input_required"}));
    let ev = s.take();
    assert!(
        findings(&ev).contains(&(Rule::InputRequired, Severity::Error)),
        "{ev:#?}"
    );
    assert!(s.client.continue_call(s.now, op, JsonObject::new()));
    s.drain();
    // Sampling was never declared; roots neither; and a method MRTR does not know.
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "inputRequests": {
            "llm": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}},
            "odd": {"method": "tools/call", "params": {}},
            "confirm": elicit("?")
        }}),
    );
    let r = findings(&s.take());
    assert_eq!(
        r.iter()
            .filter(|x| **x == (Rule::InputRequired, Severity::Error))
            .count(),
        1,
        "{r:?}"
    );
    assert!(
        r.contains(&(Rule::InputRequired, Severity::Warning)),
        "{r:?}"
    );
    // Answering only one of three, plus something nobody asked.
    let partial = json!({"confirm": {"action": "accept"}, "extra": {}})
        .as_object()
        .cloned()
        .unwrap();
    assert!(s.client.continue_call(s.now, op, partial));
    s.drain();
    let ev = s.take();
    let texts: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Diagnostic(d) if d.rule == Rule::InputRequired => Some(d.message.clone()),
            _ => None,
        })
        .collect();
    assert!(
        texts
            .iter()
            .any(|t| t.contains("without answers") && t.contains("llm") && t.contains("odd")),
        "{texts:#?}"
    );
    assert!(texts.iter().any(|t| t.contains("\"extra\"")), "{texts:#?}");
}

#[test]
fn a_waiting_call_can_be_dropped_and_a_continued_one_times_out() {
    let mut s = session();
    let waiting = s.client.call_tool(s.now, "a", None, CallOptions::default());
    let timed = s.client.call_tool(
        s.now,
        "b",
        None,
        CallOptions {
            timeout: Some(Duration::from_millis(300)),
            ..Default::default()
        },
    );
    s.drain();
    let ids: Vec<Value> = params_of_calls(&s).into_iter().map(|(id, _)| id).collect();
    for id in &ids {
        let text = json!({"jsonrpc": "2.0", "id": id, "result": {"resultType": "input_required", "inputRequests": {"confirm": elicit("?")}}});
        s.feed(&text.to_string());
    }
    s.take();
    // Cancelling a waiting call sends nothing and reports nothing: it is not in flight.
    let before = s.sent.len();
    s.client.cancel(s.now, waiting, "user closed the form");
    s.drain();
    assert_eq!(s.sent.len(), before);
    assert!(s.take().is_empty());
    assert!(!s.client.continue_call(s.now, waiting, accept()));
    // A continuation keeps the call's own timeout.
    assert!(s.client.continue_call(s.now, timed, accept()));
    s.drain();
    s.advance(Duration::from_millis(300));
    let ev = s.take();
    let ended = outcomes(&ev, timed);
    assert!(
        matches!(&ended[..], [CallOutcome::Failed(f @ Failure::Timeout(_))] if f.to_string() == "no answer within 0.3 s"),
        "{ev:#?}"
    );
    assert!(
        s.sent
            .iter()
            .any(|m| m.method() == Some("notifications/cancelled"))
    );
}

#[test]
fn closing_forgets_calls_waiting_for_input() {
    let mut s = session();
    let op = s.client.call_tool(s.now, "a", None, CallOptions::default());
    s.drain();
    s.reply(
        "tools/call",
        json!({"resultType": "input_required", "requestState": "x"}),
    );
    s.client.handle_closed(s.now, "gone");
    s.drain();
    assert!(!s.client.continue_call(s.now, op, JsonObject::new()));
}

#[test]
fn a_raw_prompts_get_continues_the_same_way() {
    let mut s = session();
    let op = s
        .client
        .request(s.now, "prompts/get", Some(json!({"name": "greet"})));
    s.drain();
    s.reply(
        "prompts/get",
        json!({"resultType": "input_required", "inputRequests": {"confirm": elicit("?")}, "requestState": "p"}),
    );
    assert!(s.client.continue_call(s.now, op, accept()));
    s.drain();
    let (_, params) = s.last_request("prompts/get");
    let params = params.unwrap();
    assert_eq!(params["name"], "greet");
    assert_eq!(params["requestState"], "p");
    assert_eq!(params["inputResponses"], Value::Object(accept()));
    s.reply(
        "prompts/get",
        json!({"resultType": "complete", "messages": []}),
    );
    let answers: Vec<Value> = s
        .take()
        .into_iter()
        .filter_map(|e| match e {
            Event::Response { op: o, outcome } if o == op => outcome.ok(),
            _ => None,
        })
        .collect();
    assert_eq!(answers.len(), 2);
    assert_eq!(answers[1]["resultType"], "complete");
    // Methods MRTR does not cover are not kept for continuation.
    let other = s.client.request(s.now, "tools/list", None);
    s.drain();
    s.reply(
        "tools/list",
        json!({"resultType": "input_required", "requestState": "no"}),
    );
    assert!(!s.client.continue_call(s.now, other, JsonObject::new()));
}

#[test]
fn timeouts_read_in_seconds() {
    assert_eq!(
        Failure::Timeout(Duration::from_millis(300)).to_string(),
        "no answer within 0.3 s"
    );
    assert_eq!(
        Failure::Timeout(Duration::from_secs(60)).to_string(),
        "no answer within 60 s"
    );
}
