//! "The server asks", end to end against a hand-relayed server behind a bridge link
//! under a virtual clock: a sampling request nested in step 4 and answered, a URL
//! elicitation opened only on the learner's click and completed, a question left
//! unanswered past the core's deadline, roots edited, and a 2026-07-28
//! `input_required` call retried with the answers and `requestState`. Natively and
//! in Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::ProtocolVersion;
use mcpg_core::model::JsonObject;
use mcpg_host::StepStatus;
use mcpg_host::asks::{ElicitAction, Reply, Root, Sampled};
use mcpg_host::provider::Provider;
use mcpg_page::{AskCommand, AskPlace, AskState, Command, Input, ModelReply, Output, Pin};
use mcpg_page_later::diagram::{ArrowKind, DiagramInput, Lane, diagram};
use serde_json::{Value, json};
use support::Shell;
use support::peer::{Peer, connect};

const V2025: Pin = Pin::Revision(ProtocolVersion::V2025_11_25);
const V2026: Pin = Pin::Revision(ProtocolVersion::V2026_07_28);

/// Steps the loop until the page sends `tools/call`, the peer answering the rest;
/// returns the call's request.
fn step_to_call(s: &mut Shell, peer: &mut Peer) -> Value {
    s.cmd(Command::SetPrompt("What's the weather in Austin?".into()));
    for _ in 0..8 {
        s.cmd(Command::Step);
        let frames = s.take_frames();
        for f in frames {
            let m: Value = serde_json::from_str(&f).unwrap();
            if m["method"] == "tools/call" {
                return m;
            }
            // Hand the frame to the peer through its usual path.
            resend(s, peer, &f);
        }
    }
    panic!("no tools/call was sent");
}

fn resend(s: &mut Shell, peer: &mut Peer, frame: &str) {
    s.effects.push(Output::SendFrame {
        conn: s.d.conn(),
        text: frame.to_owned(),
    });
    peer.serve(s);
}

/// A shell whose call (step 4) waits while the server asks `request`, and the call.
fn asked_during_call(pin: Pin, request: Value) -> (Shell, Value) {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, pin);
    let call = step_to_call(&mut s, &mut peer);
    server_sends(&mut s, request);
    (s, call)
}

fn server_sends(s: &mut Shell, m: Value) {
    s.input(Input::Frame {
        conn: s.d.conn(),
        text: m.to_string(),
    });
}

fn sent(s: &mut Shell) -> Vec<Value> {
    s.take_frames()
        .iter()
        .map(|f| serde_json::from_str(f).unwrap())
        .collect()
}

fn call_result(id: &Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": "Austin: 91F"}]}})
}

/// The index of the latest step 4 in the loop's steps.
fn step4_index(s: &Shell) -> usize {
    s.steps.iter().rposition(|st| st.number == 4).unwrap()
}

fn step4_labels(s: &Shell) -> Vec<String> {
    let step = s.steps.iter().rev().find(|st| st.number == 4).unwrap();
    step.blocks.iter().map(|b| b.label.clone()).collect()
}

#[test]
fn a_sampling_request_is_nested_in_step_4_and_answered_by_the_learner() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    let init = &peer.requests("initialize")[0]["params"]["capabilities"];
    assert_eq!(init["sampling"], json!({}));
    assert_eq!(init["elicitation"], json!({"form": {}, "url": {}}));
    assert_eq!(init["roots"], json!({"listChanged": true}));

    let call = step_to_call(&mut s, &mut peer);
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "id": "s1", "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "<b>hi</b>"}}], "maxTokens": 50}}),
    );
    assert_eq!(s.asks.len(), 1);
    assert_eq!(s.asks[0].state, AskState::Waiting);
    assert_eq!(s.asks[0].method, "sampling/createMessage");
    assert_eq!(s.asks[0].params["maxTokens"], 50);
    let labels = step4_labels(&s);
    assert!(
        labels[1].starts_with("← sampling/createMessage: the server asks"),
        "{labels:?}"
    );
    let step4 = s.steps.iter().rev().find(|st| st.number == 4).unwrap();
    assert!(step4.explanation.contains("direction has reversed"));
    // Nothing goes back before the learner answers.
    assert!(sent(&mut s).is_empty());

    let reply = Sampled::text("hello", "mcpg-mock");
    let id = s.asks[0].id;
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Sampled(reply.clone()),
    }));
    let out = sent(&mut s);
    assert_eq!(
        out,
        [json!({"jsonrpc": "2.0", "id": "s1", "result": reply.to_json()})]
    );
    assert!(matches!(s.asks[0].state, AskState::Answered(_)));
    assert!(step4_labels(&s)[2].starts_with("→ result: the host answers the server"));

    server_sends(&mut s, call_result(&call["id"]));
    assert_eq!(s.steps.last().unwrap().number, 5);
    assert_eq!(s.steps.last().unwrap().status, StepStatus::Done);
    // Shown nested in that step 4, and still there once the call has ended.
    assert_eq!(s.asks[0].place, AskPlace::Step(step4_index(&s)));

    // The picture: the call, then server → host asking, host → server answering.
    let d = diagram(&DiagramInput {
        steps: &s.steps,
        prompt: None,
        answered: false,
        provider: Provider::Anthropic,
        next_step: None,
        current: None,
        views: &[],
        follow_ups: &[],
    });
    let rows: Vec<(Lane, Lane, ArrowKind, &str)> = d
        .arrows
        .iter()
        .filter(|a| a.number == Some(4))
        .map(|a| (a.from, a.to, a.kind, a.label.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (
                Lane::Host,
                Lane::Server,
                ArrowKind::Mcp,
                "tools/call get_weather"
            ),
            (
                Lane::Server,
                Lane::Host,
                ArrowKind::ServerRequest,
                "asks: sampling"
            ),
            (Lane::Host, Lane::Server, ArrowKind::ServerRequest, "answer"),
        ]
    );
}

#[test]
fn a_rejected_sampling_request_sends_the_error_the_spec_names() {
    let (mut s, _) = asked_during_call(
        V2025,
        json!({"jsonrpc": "2.0", "id": 7, "method": "sampling/createMessage",
        "params": {"messages": [], "maxTokens": 5}}),
    );
    let id = s.asks[0].id;
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::SamplingRejected,
    }));
    let out = sent(&mut s);
    assert_eq!(out[0]["error"]["code"], -1);
    assert_eq!(out[0]["error"]["message"], "User rejected sampling request");
    assert_eq!(out[0]["id"], 7);
    assert!(matches!(s.asks[0].state, AskState::Refused(_)));
    assert!(step4_labels(&s)[2].starts_with("→ error: the host answers the server"));
    // A new loop: the old call's question goes with its steps.
    s.cmd(Command::Reset);
    assert_eq!(s.asks[0].place, AskPlace::Earlier);
}

#[test]
fn a_url_is_opened_only_on_the_learners_click_and_completion_marks_it_done() {
    let (mut s, _) = asked_during_call(
        V2025,
        json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create",
        "params": {"mode": "url", "message": "Sign in", "url": "https://auth.example.com/x?y=1", "elicitationId": "e1"}}),
    );
    let opened = |s: &Shell| {
        s.effects
            .iter()
            .filter(|o| matches!(o, Output::OpenUrl { .. }))
            .count()
    };
    assert_eq!(opened(&s), 0);
    let id = s.asks[0].id;
    s.cmd(Command::Ask(AskCommand::OpenUrl { id }));
    assert_eq!(opened(&s), 1);
    assert!(s.effects.contains(&Output::OpenUrl {
        url: "https://auth.example.com/x?y=1".into()
    }));
    assert!(s.asks[0].opened);
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "e1"}}),
    );
    assert!(s.asks[0].completed);
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Elicited(ElicitAction::Accept(JsonObject::new())),
    }));
    assert_eq!(sent(&mut s)[0]["result"], json!({"action": "accept"}));
}

#[test]
fn a_url_that_breaks_the_url_rule_is_never_opened() {
    for url in [
        "javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        // Plain http only to a loopback host; no user name before the host.
        "http://evil.example/login",
        "https://bank.example@evil.example/",
    ] {
        let (mut s, _) = asked_during_call(
            V2025,
            json!({"jsonrpc": "2.0", "id": 3, "method": "elicitation/create",
            "params": {"mode": "url", "message": "x", "url": url, "elicitationId": "e1"}}),
        );
        let id = s.asks[0].id;
        s.cmd(Command::Ask(AskCommand::OpenUrl { id }));
        assert!(
            !s.effects
                .iter()
                .any(|o| matches!(o, Output::OpenUrl { .. })),
            "{url} opened"
        );
        let notice = format!("{:?}", s.notice);
        assert!(notice.contains("URL rule"), "{url}: {notice}");
    }
}

#[test]
fn a_question_left_past_the_cores_deadline_shows_as_timed_out() {
    let (mut s, _) = asked_during_call(
        V2025,
        json!({"jsonrpc": "2.0", "id": 9, "method": "roots/list"}),
    );
    let deadline = s.asks[0].deadline.unwrap();
    s.advance_to(deadline);
    assert_eq!(s.asks[0].state, AskState::TimedOut);
    let out = sent(&mut s);
    assert!(
        out.iter().any(|m| m["id"] == 9 && m["error"].is_object()),
        "{out:?}"
    );
    // A late answer is refused, not sent.
    let id = s.asks[0].id;
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Roots(vec![]),
    }));
    assert!(sent(&mut s).is_empty());
}

#[test]
fn editing_the_roots_tells_the_server_and_roots_list_answers_with_them() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    let roots = vec![Root {
        uri: "file:///home/me/project".into(),
        name: Some("project".into()),
    }];
    s.cmd(Command::Ask(AskCommand::SetRoots(roots.clone())));
    let out = sent(&mut s);
    assert_eq!(out[0]["method"], "notifications/roots/list_changed");
    // Asked outside any call: shown apart from the steps.
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "id": "r1", "method": "roots/list"}),
    );
    assert_eq!(s.asks[0].place, AskPlace::Connection);
    // The same list again changes nothing and sends nothing.
    s.cmd(Command::Ask(AskCommand::SetRoots(roots)));
    assert!(sent(&mut s).is_empty());
}

#[test]
fn an_input_required_call_is_retried_with_the_answers_and_request_state() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2026);
    let call = step_to_call(&mut s, &mut peer);
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "id": call["id"], "result": {
        "resultType": "input_required",
        "inputRequests": {
            "party": {"method": "elicitation/create", "params": {"mode": "form", "message": "How many?",
                "requestedSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}},
            "words": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 9}}},
        "requestState": "opaque-1"}}),
    );
    assert_eq!(s.asks.len(), 2);
    assert_eq!(s.asks[0].request_state, Some(json!("opaque-1")));
    let nested = AskPlace::Step(step4_index(&s));
    assert!(s.asks.iter().all(|a| a.place == nested));
    assert!(
        step4_labels(&s)
            .iter()
            .any(|l| l.starts_with("← input_required: the server asks"))
    );
    assert_eq!(s.steps.last().unwrap().status, StepStatus::Running);
    let (a, b) = (s.asks[0].id, s.asks[1].id);
    let mut content = JsonObject::new();
    content.insert("n".into(), json!(4));
    s.cmd(Command::Ask(AskCommand::Answer {
        id: a,
        reply: Reply::Elicited(ElicitAction::Accept(content)),
    }));
    assert!(
        sent(&mut s).is_empty(),
        "no retry until every question is answered"
    );
    let sampled = Sampled::text("ok", "m");
    s.cmd(Command::Ask(AskCommand::Answer {
        id: b,
        reply: Reply::Sampled(sampled.clone()),
    }));
    let out = sent(&mut s);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0]["method"], "tools/call");
    assert_eq!(out[0]["params"]["requestState"], "opaque-1");
    assert_eq!(
        out[0]["params"]["inputResponses"]["party"]["content"]["n"],
        4
    );
    assert_eq!(
        out[0]["params"]["inputResponses"]["words"],
        sampled.to_json()
    );
    assert!(
        step4_labels(&s)
            .iter()
            .any(|l| l.contains("retried with inputResponses and requestState"))
    );
    let mut done = call_result(&out[0]["id"]);
    done["result"]["resultType"] = json!("complete");
    server_sends(&mut s, done);
    assert_eq!(s.steps.last().unwrap().status, StepStatus::Done);
}

#[test]
fn a_real_model_writes_the_sampling_reply_only_on_the_learners_click_and_it_still_needs_approval() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    let call = step_to_call(&mut s, &mut peer);
    let model_requests = |s: &Shell| {
        s.effects
            .iter()
            .filter_map(|o| match o {
                Output::ModelRequest(r) if r.ask.is_some() => Some(r.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "id": "s9", "method": "sampling/createMessage",
        "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Write a haiku"}}],
            "systemPrompt": "Be brief", "maxTokens": 40}}),
    );
    assert!(
        model_requests(&s).is_empty(),
        "no model is asked without a click"
    );
    let id = s.asks[0].id;
    // The learner edited the request: the model is asked the edited one.
    s.cmd(Command::Ask(AskCommand::SampleWithModel {
        id,
        asked: Some(mcpg_host::asks::edited_params(
            &s.asks[0].params,
            "Write a limerick",
        )),
    }));
    let reqs = model_requests(&s);
    assert_eq!(reqs.len(), 1);
    let body: Value = serde_json::from_str(&reqs[0].body).unwrap();
    assert_eq!(body["system"], "Be brief");
    assert_eq!(body["max_tokens"], 40);
    assert!(reqs[0].body.contains("Write a limerick"));
    assert!(!reqs[0].body.contains("Write a haiku"));
    assert!(s.asks[0].model_busy);
    assert!(
        s.asks[0]
            .model_request
            .as_deref()
            .unwrap()
            .contains("Write a limerick")
    );
    // What the server sent is kept as sent.
    assert_eq!(
        s.asks[0].params["messages"][0]["content"]["text"],
        "Write a haiku"
    );

    let reply = json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "fake-model",
        "content": [{"type": "text", "text": "Old pond, a frog"}], "stop_reason": "end_turn"});
    s.input(Input::SampleReply {
        ask: id,
        reply: ModelReply::Http {
            status: 200,
            body: reply.to_string(),
        },
    });
    let draft = s.asks[0].draft.clone().unwrap().unwrap();
    assert_eq!(draft.content["text"], "Old pond, a frog");
    assert_eq!(draft.model, "fake-model");
    // Still nothing goes to the server until the learner sends it.
    assert!(sent(&mut s).is_empty());
    assert_eq!(s.asks[0].state, AskState::Waiting);
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Sampled(draft),
    }));
    let out = sent(&mut s);
    assert_eq!(out[0]["result"]["content"]["text"], "Old pond, a frog");
    assert_eq!(out[0]["result"]["model"], "fake-model");
    server_sends(&mut s, call_result(&call["id"]));
}

#[test]
fn a_url_elicitation_required_error_offers_its_url_and_sends_nothing_back() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    let call = step_to_call(&mut s, &mut peer);
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "id": call["id"], "error": {"code": -32042,
            "message": "This request requires browser-based authorization.",
            "data": {"elicitations": [
                {"mode": "url", "url": "https://auth.example.com/ok", "message": "Sign in", "elicitationId": "r1"},
                {"mode": "url", "url": "javascript:alert(1)", "message": "no", "elicitationId": "r2"}]}}}),
    );
    assert_eq!(s.asks.len(), 1, "the javascript: URL is not offered");
    assert_eq!(s.asks[0].key, mcpg_page::AskKey::Required);
    assert_eq!(s.asks[0].place, AskPlace::Step(step4_index(&s)));
    assert_eq!(s.asks[0].params["url"], "https://auth.example.com/ok");
    assert!(
        !s.effects
            .iter()
            .any(|o| matches!(o, Output::OpenUrl { .. }))
    );
    let id = s.asks[0].id;
    s.cmd(Command::Ask(AskCommand::OpenUrl { id }));
    assert!(s.effects.contains(&Output::OpenUrl {
        url: "https://auth.example.com/ok".into()
    }));
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Elicited(ElicitAction::Accept(JsonObject::new())),
    }));
    assert!(
        sent(&mut s).is_empty(),
        "nothing goes back for a -32042 URL"
    );
    assert!(matches!(s.asks[0].state, AskState::Answered(_)));
}

#[test]
fn a_question_before_the_later_parts_is_loaded_shows_once_it_is_in_then_the_answer_goes() {
    // The page's first load: a bridge server needs no later parts to connect.
    let mut peer = Peer::default();
    let mut s = Shell::without_later();
    s.cmd(Command::Connect(mcpg_page::Source::Bridge(
        "scripted".into(),
    )));
    let conn = s.d.conn();
    s.input(Input::LinkOpened { conn });
    peer.serve(&mut s);
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "id": 5, "method": "roots/list"}),
    );
    // The client holds the question until the later parts bring its readers, and the
    // driver asks for the later parts (once).
    assert!(s.asks.is_empty(), "held until the later parts are in");
    assert_eq!(s.later_asks(), 1, "the question asks for the later parts");
    server_sends(
        &mut s,
        json!({"jsonrpc": "2.0", "method": "notifications/roots_are_fine"}),
    );
    assert_eq!(s.later_asks(), 1, "asked once");
    assert!(sent(&mut s).is_empty(), "nothing answered yet");
    s.input(Input::Later(mcpg_page_later::later_kit()));
    let id = s.asks[0].id;
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Roots(vec![Root::new("file:///w")]),
    }));
    let out = sent(&mut s);
    assert_eq!(out[0]["result"], json!({"roots": [{"uri": "file:///w"}]}));
}
