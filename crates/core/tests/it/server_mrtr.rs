//! The server's checked and sealed 2026-07-28 `input_required` rounds
//! (`Server::require_input`, `Server::set_state_key`), against the real `Client`
//! under a virtual clock: the sealed state's round trip, a tampered, misplaced or
//! expired state, missing and malformed answers, and what the server may not ask.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use std::time::Duration;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, GenerationMode, OpId};
use mcpg_core::diag::Rule;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::model::JsonObject;
use mcpg_core::server::{InputRequest, STATE_LIFETIME, ServerConfig, ServerEvent, StateKey};
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};
use support::{Behaviour, Pair, tool};

pub(crate) fn obj(v: Value) -> JsonObject {
    v.as_object().unwrap().clone()
}

/// A 2026-07-28 pair whose client declares `caps`, the server holding calls open
/// and sealing states with a fixed key.
pub(crate) fn pair(mode: GenerationMode, caps: Value) -> Pair {
    let ccfg = ClientConfig {
        mode,
        capabilities: obj(caps),
        versions: ProtocolVersion::ALL.to_vec(),
        ..Default::default()
    };
    let mut p = Pair::new(ccfg, ServerConfig::default(), vec![tool("book")]);
    p.server.set_state_key(StateKey::new([7; 32]));
    p.behaviour = Behaviour::Hold;
    p.connect();
    p
}

fn stateless() -> Pair {
    pair(
        GenerationMode::Stateless,
        json!({"sampling": {}, "roots": {}, "elicitation": {}}),
    )
}

pub(crate) fn name_form() -> InputRequest {
    InputRequest::elicitation(json!({
        "message": "Your name?",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}}
    }))
}

fn calls(p: &Pair) -> Vec<RequestId> {
    p.server_events
        .iter()
        .filter_map(|e| match e {
            ServerEvent::CallTool { id, .. } => Some(id.clone()),
            _ => None,
        })
        .collect()
}

pub(crate) fn last_call(p: &Pair) -> RequestId {
    calls(p).pop().expect("a call")
}

fn round(p: &Pair, op: OpId) -> Value {
    p.events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::CallFinished {
                op: o,
                outcome: CallOutcome::InputRequired(r),
                ..
            } if *o == op => Some(r.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no input_required round in {:#?}", p.events))
}

/// Sends a raw `tools/call` of `book` with `extra` params; the error it got, if any.
fn raw_call(p: &mut Pair, extra: Value) -> Option<String> {
    let mut params = obj(json!({"name": "book", "arguments": {"n": 1}}));
    params.extend(obj(extra));
    let op = p
        .client
        .request(p.now, "tools/call", Some(Value::Object(params)));
    p.pump();
    p.events.iter().find_map(|e| match e {
        Event::Response {
            op: o,
            outcome: Err(e),
            ..
        } if *o == op => Some(e.to_string()),
        _ => None,
    })
}

/// One first round: `book {"n": 1}` answered with the name form and `state`.
fn first_round(p: &mut Pair, state: &str) -> (OpId, Value) {
    let op = p.client.call_tool(
        p.now,
        "book",
        Some(obj(json!({"n": 1}))),
        CallOptions::default(),
    );
    p.pump();
    let id = last_call(p);
    p.server
        .require_input(
            p.now,
            &id,
            vec![("user_name".into(), name_form())],
            Some(state),
        )
        .unwrap();
    p.pump();
    (op, round(p, op))
}

#[test]
fn a_sealed_state_comes_back_opened_with_the_answers() {
    let mut p = stateless();
    let (op, r) = first_round(&mut p, "asked-name");
    assert_eq!(r["resultType"], "input_required");
    assert_eq!(
        r["inputRequests"]["user_name"]["method"],
        "elicitation/create"
    );
    let sealed = r["requestState"].as_str().unwrap();
    assert!(sealed.starts_with("mcpgs1.") && sealed.ends_with(".asked-name"));

    let answer = json!({"action": "accept", "content": {"name": "Ada"}});
    assert!(
        p.client
            .continue_call(p.now, op, obj(json!({"user_name": answer})))
    );
    p.pump();
    let retry = last_call(&p);
    let ctx = p.server.call_context(&retry).unwrap();
    assert_eq!(ctx.request_state.as_deref(), Some("asked-name"));
    let got = ctx.input_response("user_name", &name_form()).unwrap();
    assert_eq!(
        got.map(|o| o["content"]["name"].clone()),
        Some(json!("Ada"))
    );
}

#[test]
fn a_tampered_or_misplaced_state_is_invalid_params_and_a_diagnostic() {
    let mut p = stateless();
    let (_, r) = first_round(&mut p, "asked-name");
    let sealed = r["requestState"].as_str().unwrap().to_owned();
    let before = calls(&p).len();
    let tampered = format!("{sealed}-TAMPERED");
    for state in [
        tampered,
        sealed.replace("asked-name", "paid"),
        "plain".into(),
    ] {
        let err = raw_call(&mut p, json!({"requestState": state}));
        assert!(err.is_some_and(|e| e.contains("-32602")), "{state}");
    }
    // Another call's arguments: the state is bound to {"n": 1}.
    let mut params = obj(json!({"name": "book", "arguments": {"n": 2}}));
    params.insert("requestState".into(), Value::from(sealed.clone()));
    let op = p
        .client
        .request(p.now, "tools/call", Some(Value::Object(params)));
    p.pump();
    assert!(p.events.iter().any(|e| matches!(
        e,
        Event::Response { op: o, outcome: Err(_), .. } if *o == op
    )));
    assert_eq!(calls(&p).len(), before, "the application never saw them");
    let warned = p
        .server_events
        .iter()
        .any(|e| matches!(e, ServerEvent::Diagnostic(d) if d.rule == Rule::InputRequired));
    assert!(warned);
    // The genuine one still opens.
    assert_eq!(raw_call(&mut p, json!({"requestState": sealed})), None);
    assert_eq!(calls(&p).len(), before + 1);
}

#[test]
fn a_state_expires_on_the_servers_clock() {
    let mut p = stateless();
    let (_, r) = first_round(&mut p, "s");
    let sealed = r["requestState"].clone();
    p.now = p.now.after(STATE_LIFETIME + Duration::from_millis(1));
    let err = raw_call(&mut p, json!({"requestState": sealed}));
    assert!(err.is_some_and(|e| e.contains("-32602")));
}

#[test]
fn missing_and_malformed_answers() {
    let mut p = stateless();
    // A wrong key: the answer asked for is missing, so the application asks again.
    assert_eq!(
        raw_call(
            &mut p,
            json!({"inputResponses": {"wrong_key": {"action": "accept"}}})
        ),
        None
    );
    let ctx = p.server.call_context(&last_call(&p)).unwrap();
    assert_eq!(ctx.input_response("user_name", &name_form()), Ok(None));
    // An object of the wrong shape reaches the application, which is told why.
    raw_call(
        &mut p,
        json!({"inputResponses": {"user_name": {"action": "maybe"}}}),
    );
    let ctx = p.server.call_context(&last_call(&p)).unwrap();
    let bad = ctx.input_response("user_name", &name_form()).unwrap_err();
    assert_eq!(bad.to_rpc_error().code, -32602);
    let sampled = ctx.input_response("user_name", &InputRequest::sampling(json!({})));
    assert!(sampled.is_err());
    // Not a result object, or no map at all: a protocol error, before the application.
    let before = calls(&p).len();
    for bad in [
        json!({"inputResponses": {"user_name": 12345}}),
        json!({"inputResponses": null}),
        json!({"requestState": null}),
    ] {
        let err = raw_call(&mut p, bad.clone());
        assert!(err.is_some_and(|e| e.contains("-32602")), "{bad}");
    }
    assert_eq!(calls(&p).len(), before);
}
