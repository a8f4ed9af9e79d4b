//! The tools that ask, driven by the core's client in both generations: classic
//! server requests (pinned to 2025-11-25, and 2025-06-18 for the legacy form) and
//! 2026-07-28 `input_required` rounds. Natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use std::time::Duration;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, GenerationMode, OpId};
use mcpg_core::jsonrpc::{RequestId, RpcError};
use mcpg_core::model::JsonObject;
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};
use support::{Session, text_of};

fn caps() -> JsonObject {
    json!({"sampling": {}, "roots": {"listChanged": true}, "elicitation": {"form": {}, "url": {}}})
        .as_object()
        .unwrap()
        .clone()
}

fn session(mode: GenerationMode, capabilities: JsonObject) -> Session {
    Session::with_config(ClientConfig {
        mode,
        capabilities,
        ..Default::default()
    })
}

fn classic() -> Session {
    let pinned = GenerationMode::Initialize;
    let mut s = session(pinned, caps());
    assert_eq!(
        s.client.negotiated().map(|n| n.version),
        Some(ProtocolVersion::V2025_11_25)
    );
    s.events.clear();
    s
}

fn start(s: &mut Session, name: &str, args: Value) -> OpId {
    let op = s.client.call_tool(
        s.now,
        name,
        args.as_object().cloned(),
        CallOptions::default(),
    );
    s.pump();
    op
}

/// The last way `op` finished so far (an MRTR call finishes once per round).
fn finished(s: &Session, op: OpId) -> Option<CallOutcome> {
    s.events.iter().rev().find_map(|e| match e {
        Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
        _ => None,
    })
}

/// The one server request waiting for the host.
fn asked(s: &Session) -> (RequestId, String, Value) {
    let open: Vec<_> = s
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ServerRequest {
                id,
                method,
                params,
                answered: false,
                ..
            } => Some((
                id.clone(),
                method.clone(),
                params.clone().unwrap_or_default(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(open.len(), 1, "{:#?}", s.events);
    open[0].clone()
}

/// Calls `name` classically and answers its one question with `answer`.
fn ask_and_answer(s: &mut Session, name: &str, answer: Result<Value, RpcError>) -> CallOutcome {
    s.events.clear();
    let op = start(s, name, json!({}));
    assert_eq!(finished(s, op), None, "the call waits for the answer");
    let (id, _, _) = asked(s);
    assert!(s.client.answer(s.now, &id, answer));
    s.pump();
    finished(s, op).expect("finished once answered")
}

#[test]
fn the_booking_asks_a_form_and_reads_each_answer() {
    let mut s = classic();
    let op = start(&mut s, "reserve_table", json!({}));
    let (_, method, params) = asked(&s);
    assert_eq!(method, "elicitation/create");
    let schema = &params["requestedSchema"];
    assert_eq!(schema["properties"]["party"]["type"], "integer");
    assert_eq!(schema["properties"]["party"]["default"], 2);
    assert_eq!(schema["properties"]["time"]["oneOf"][1]["title"], "7:30 pm");
    assert_eq!(finished(&s, op), None);

    let accept = json!({"action": "accept", "content": {"party": 4, "time": "21:00"}});
    let ok = ask_and_answer(&mut s, "reserve_table", Ok(accept));
    assert!(matches!(ok, CallOutcome::Success(_)));
    assert!(text_of(&ok).starts_with("Pretend-booked a table for 4 at 21:00"));

    let decline = ask_and_answer(&mut s, "reserve_table", Ok(json!({"action": "decline"})));
    let cancel = ask_and_answer(&mut s, "reserve_table", Ok(json!({"action": "cancel"})));
    assert!(text_of(&decline).starts_with("You declined"));
    assert!(text_of(&cancel).starts_with("You dismissed"));
    let bad = json!({"action": "accept", "content": {"party": 40, "time": "21:00"}});
    let bad = ask_and_answer(&mut s, "reserve_table", Ok(bad));
    assert!(matches!(bad, CallOutcome::ToolError(_)), "{bad:?}");
}

#[test]
fn before_2025_11_25_the_titles_are_enum_names() {
    let mut s = Session::with_config(ClientConfig {
        mode: GenerationMode::Initialize,
        versions: vec![ProtocolVersion::V2025_06_18],
        capabilities: caps(),
        ..Default::default()
    });
    start(&mut s, "reserve_table", json!({}));
    let (_, _, params) = asked(&s);
    let time = &params["requestedSchema"]["properties"]["time"];
    assert_eq!(time["enumNames"], json!(["6 pm", "7:30 pm", "9 pm"]));
    assert!(time.get("oneOf").is_none());
    assert!(params.get("mode").is_none(), "2025-06-18 has no mode");
}

#[test]
fn the_summary_samples_and_a_rejection_is_its_own_answer() {
    let mut s = classic();
    start(&mut s, "summarize_note", json!({"topic": "errors"}));
    let (id, method, params) = asked(&s);
    assert_eq!(method, "sampling/createMessage");
    assert_eq!(params["maxTokens"], 80);
    let prompt = params["messages"][0]["content"]["text"].as_str().unwrap();
    assert!(prompt.contains("isError: true"), "{prompt}");
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "Tools fail softly."}, "model": "mcpg-mock"});
    s.client.answer(s.now, &id, Ok(sampled));
    s.pump();
    let done = s.events.iter().rev().find_map(|e| match e {
        Event::CallFinished { outcome, .. } => Some(outcome.clone()),
        _ => None,
    });
    let text = text_of(&done.unwrap());
    assert!(text.contains("errors note by mcpg-mock"), "{text}");
    assert!(text.ends_with("Tools fail softly."));

    let rejected = RpcError::new(-1, "User rejected sampling request");
    let r = ask_and_answer(&mut s, "summarize_note", Err(rejected));
    assert!(matches!(r, CallOutcome::ToolError(_)));
    assert!(text_of(&r).contains("rejected the sampling request"));
}

#[test]
fn show_roots_lists_what_the_client_shares() {
    let mut s = classic();
    let roots = json!({"roots": [{"uri": "file:///home/learner/project", "name": "project"}, {"uri": "file:///tmp"}]});
    let r = ask_and_answer(&mut s, "show_roots", Ok(roots));
    assert_eq!(
        text_of(&r),
        "The client shares 2 root(s):\n- file:///home/learner/project (project)\n- file:///tmp"
    );
    let none = ask_and_answer(&mut s, "show_roots", Ok(json!({"roots": []})));
    assert_eq!(text_of(&none), "The client shares no roots.");
}

#[test]
fn the_url_step_waits_for_its_completion_notice() {
    let mut s = classic();
    let op = start(&mut s, "link_account", json!({}));
    let (id, _, params) = asked(&s);
    assert_eq!(params["mode"], "url");
    assert_eq!(params["url"], "https://example.com/mcpg/link?id=link-1");
    assert_eq!(params["elicitationId"], "link-1");
    s.client.answer(s.now, &id, Ok(json!({"action": "accept"})));
    s.pump();
    assert_eq!(finished(&s, op), None, "accepting is not finishing");
    s.advance(Duration::from_millis(1499));
    assert_eq!(finished(&s, op), None);
    s.advance(Duration::from_millis(1));
    let done = finished(&s, op).expect("done after the pretend site");
    assert!(text_of(&done).starts_with("Your pretend account is linked"));
    let notice = s
        .wire
        .iter()
        .position(|w| w.contains("notifications/elicitation/complete"))
        .expect("a completion notice");
    assert!(s.wire[notice].contains("\"elicitationId\":\"link-1\""));
    let result = s.wire.iter().rposition(|w| w.contains("linked")).unwrap();
    assert!(notice < result, "the notice comes before the result");

    let declined = ask_and_answer(&mut s, "link_account", Ok(json!({"action": "decline"})));
    assert!(text_of(&declined).starts_with("You declined"));
}

#[test]
fn without_the_capability_the_tool_says_which_is_missing() {
    for mode in [GenerationMode::Initialize, GenerationMode::Auto] {
        let mut s = session(mode, JsonObject::new());
        for (tool, cap) in [
            ("reserve_table", "elicitation"),
            ("summarize_note", "sampling"),
            ("show_roots", "roots"),
            ("link_account", "elicitation.url"),
        ] {
            let r = s.call(tool, json!({}));
            assert!(matches!(r, CallOutcome::ToolError(_)), "{mode:?} {tool}");
            assert!(
                text_of(&r).contains(&format!("declares the {cap} capability")),
                "{mode:?} {tool}: {}",
                text_of(&r)
            );
        }
        let form_only = json!({"elicitation": {}}).as_object().unwrap().clone();
        let mut s = session(mode, form_only);
        let r = s.call("link_account", json!({}));
        assert!(text_of(&r).contains("elicitation.url"), "{mode:?}");
    }
}

/// A 2026-07-28 call's first round: the `inputRequests` entry and the state.
fn mrtr_round(s: &mut Session, name: &str, key: &str) -> (OpId, Value, String) {
    s.events.clear();
    let op = start(s, name, json!({}));
    let Some(CallOutcome::InputRequired(r)) = finished(s, op) else {
        panic!("{name}: {:#?}", s.events)
    };
    let state = r["requestState"].as_str().unwrap().to_owned();
    assert!(
        state.starts_with(&format!("mcpg1.{name}.{key}.")),
        "{state}"
    );
    (op, r["inputRequests"][key].clone(), state)
}

fn continue_with(s: &mut Session, op: OpId, key: &str, answer: Value) -> CallOutcome {
    let mut responses = JsonObject::new();
    responses.insert(key.into(), answer);
    assert!(s.client.continue_call(s.now, op, responses));
    s.pump();
    finished(s, op).unwrap()
}

#[test]
fn under_2026_07_28_each_tool_asks_with_input_required() {
    let mut s = session(GenerationMode::Auto, caps());
    let (op, req, _) = mrtr_round(&mut s, "reserve_table", "booking");
    assert_eq!(req["method"], "elicitation/create");
    assert_eq!(
        req["params"]["requestedSchema"]["properties"]["time"]["default"],
        "19:30"
    );
    let accept = json!({"action": "accept", "content": {"party": 3, "time": "18:00"}});
    let r = continue_with(&mut s, op, "booking", accept);
    assert!(text_of(&r).starts_with("Pretend-booked a table for 3 at 18:00"));
    let (op, _, _) = mrtr_round(&mut s, "reserve_table", "booking");
    let r = continue_with(&mut s, op, "booking", json!({"action": "cancel"}));
    assert!(text_of(&r).starts_with("You dismissed"));

    let (op, req, _) = mrtr_round(&mut s, "summarize_note", "summary");
    assert_eq!(req["method"], "sampling/createMessage");
    let sampled = json!({"role": "assistant", "content": {"type": "text", "text": "Follow the cursor."}, "model": "m"});
    let r = continue_with(&mut s, op, "summary", sampled);
    assert!(text_of(&r).ends_with("Follow the cursor."));
    let (op, _, _) = mrtr_round(&mut s, "summarize_note", "summary");
    let rejected = json!({"code": -1, "message": "User rejected sampling request"});
    let r = continue_with(&mut s, op, "summary", rejected);
    assert!(text_of(&r).contains("rejected the sampling request"));

    let (op, req, _) = mrtr_round(&mut s, "show_roots", "roots");
    assert_eq!(req["method"], "roots/list");
    let r = continue_with(
        &mut s,
        op,
        "roots",
        json!({"roots": [{"uri": "file:///w"}]}),
    );
    assert_eq!(text_of(&r), "The client shares 1 root(s):\n- file:///w");

    let (op, req, _) = mrtr_round(&mut s, "link_account", "link");
    assert_eq!(req["params"]["mode"], "url");
    assert!(
        req["params"].get("elicitationId").is_none(),
        "none in 2026-07-28"
    );
    let r = continue_with(&mut s, op, "link", json!({"action": "accept"}));
    assert!(text_of(&r).starts_with("Your pretend account is linked"));
    assert!(
        !s.wire.iter().any(|w| w.contains("elicitation/complete")),
        "the retry is the completion"
    );
}

#[test]
fn a_retry_without_the_answer_stops_and_a_changed_state_is_refused() {
    let mut s = session(GenerationMode::Auto, caps());
    let (op, _, state) = mrtr_round(&mut s, "summarize_note", "summary");
    // A rejected sampling request is left out of inputResponses.
    assert!(s.client.continue_call(s.now, op, JsonObject::new()));
    s.pump();
    let stopped = finished(&s, op).unwrap();
    assert!(matches!(stopped, CallOutcome::ToolError(_)), "{stopped:?}");
    assert!(text_of(&stopped).contains("no answer to \"summary\""));

    let (_, _, state_roots) = mrtr_round(&mut s, "show_roots", "roots");
    let call = |name: &str, state: &str| {
        json!({"name": name, "arguments": {}, "requestState": state,
            "inputResponses": {"roots": {"roots": []}}})
    };
    let mut forged = state_roots.clone();
    forged.replace_range(forged.len() - 4.., "beef");
    let refused = s
        .request("tools/call", call("show_roots", &forged))
        .unwrap();
    assert!(
        matches!(refused, Err(ref e) if e.to_string().contains("requestState")),
        "{refused:?}"
    );
    let other = s.request("tools/call", call("show_roots", &state)).unwrap();
    assert!(other.is_err(), "another call's state: {other:?}");
    let fine = s
        .request("tools/call", call("show_roots", &state_roots))
        .unwrap()
        .unwrap();
    assert_eq!(fine["content"][0]["text"], "The client shares no roots.");
}

#[test]
fn a_wrong_argument_type_is_a_tool_error_since_2025_11_25_and_minus_32602_before() {
    let wrong = json!({"a": "two", "b": 3});
    // 2025-11-25 (SEP-1303): the model gets to read the validation error.
    let mut s = classic();
    let op = start(&mut s, "add_numbers", wrong.clone());
    let outcome = finished(&s, op).unwrap();
    assert!(matches!(outcome, CallOutcome::ToolError(_)), "{outcome:?}");
    assert!(
        text_of(&outcome).contains("must be number"),
        "{}",
        text_of(&outcome)
    );
    // 2025-06-18 listed invalid arguments among the protocol errors.
    let mut s = Session::with_config(ClientConfig {
        mode: GenerationMode::Initialize,
        versions: vec![ProtocolVersion::V2025_06_18],
        capabilities: caps(),
        ..Default::default()
    });
    let op = start(&mut s, "add_numbers", wrong);
    match finished(&s, op) {
        Some(CallOutcome::ProtocolError(e)) => assert_eq!(e.code, -32602),
        other => panic!("2025-06-18: {other:?}"),
    }
}
