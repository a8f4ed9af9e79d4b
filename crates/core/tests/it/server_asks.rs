//! The server asking the client, driving the real `Client` under a virtual clock:
//! classic server requests (each kind, the client's result and error, timeouts,
//! what the server refuses to send) and 2026-07-28 `input_required` retries.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use std::time::Duration;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, GenerationMode};
use mcpg_core::jsonrpc::{RequestId, RpcError};
use mcpg_core::model::JsonObject;
use mcpg_core::server::{ASK_TIMEOUT, AskOutcome, CannotAsk, ServerConfig, ServerEvent};
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};
use support::{Behaviour, Pair, tool};

fn obj(v: Value) -> JsonObject {
    v.as_object().unwrap().clone()
}

fn pair(mode: GenerationMode, caps: Value, versions: Vec<ProtocolVersion>) -> Pair {
    let ccfg = ClientConfig {
        mode,
        capabilities: obj(caps),
        versions,
        // Longer than the server's, so the server's own timeout is what a test sees.
        server_request_timeout: ASK_TIMEOUT * 2,
        ..Default::default()
    };
    let mut p = Pair::new(ccfg, ServerConfig::default(), vec![tool("book")]);
    p.behaviour = Behaviour::Hold;
    p.connect();
    p
}

/// A client declaring everything, on 2025-11-25.
fn classic() -> Pair {
    pair(
        GenerationMode::Initialize,
        all_caps(),
        ProtocolVersion::ALL.to_vec(),
    )
}

/// A client declaring everything, on 2026-07-28.
fn stateless() -> Pair {
    pair(
        GenerationMode::Stateless,
        all_caps(),
        ProtocolVersion::ALL.to_vec(),
    )
}

fn all_caps() -> Value {
    json!({"sampling": {}, "roots": {}, "elicitation": {"form": {}, "url": {}}})
}

/// The host's view of the one unanswered server request.
fn surfaced(p: &Pair) -> (RequestId, String, Option<Value>) {
    p.events
        .iter()
        .find_map(|e| match e {
            Event::ServerRequest {
                id,
                method,
                params,
                answered: false,
                ..
            } => Some((id.clone(), method.clone(), params.clone())),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no server request in {:#?}", p.events))
}

fn answered(p: &Pair) -> Vec<(RequestId, String, AskOutcome)> {
    p.server_events
        .iter()
        .filter_map(|e| match e {
            ServerEvent::Answered {
                id,
                method,
                outcome,
            } => Some((id.clone(), method.clone(), outcome.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn each_kind_of_request_reaches_the_host_and_its_answer_the_server() {
    let asks = [
        (
            "sampling/createMessage",
            json!({"messages": [], "maxTokens": 10}),
            json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"}),
        ),
        (
            "roots/list",
            json!({}),
            json!({"roots": [{"uri": "file:///w"}]}),
        ),
        (
            "elicitation/create",
            json!({"mode": "form", "message": "?", "requestedSchema": {"type": "object", "properties": {}}}),
            json!({"action": "decline"}),
        ),
        (
            "elicitation/create",
            json!({"mode": "url", "message": "go", "url": "https://example.com/x", "elicitationId": "e1"}),
            json!({"action": "accept"}),
        ),
    ];
    for (method, params, reply) in asks {
        let mut p = classic();
        let id = p.server.ask(p.now, method, params.clone()).unwrap();
        p.pump();
        let (cid, cmethod, cparams) = surfaced(&p);
        assert_eq!((&cid, cmethod.as_str()), (&id, method));
        assert_eq!(cparams, Some(params));
        assert!(p.client.answer(p.now, &cid, Ok(reply.clone())));
        p.pump();
        assert_eq!(
            answered(&p),
            [(id, method.to_owned(), AskOutcome::Result(reply))]
        );
        assert_eq!(p.server.poll_timeout(), None, "nothing left to wait for");
    }
}

#[test]
fn the_clients_error_comes_back_as_an_error() {
    let mut p = classic();
    let id = p
        .server
        .ask(
            p.now,
            "sampling/createMessage",
            json!({"messages": [], "maxTokens": 5}),
        )
        .unwrap();
    p.pump();
    let rejected = RpcError::new(-1, "User rejected sampling request");
    p.client.answer(p.now, &id, Err(rejected.clone()));
    p.pump();
    let not_found = RpcError::new(-32601, "Method not found: roots/list");
    let id2 = p.server.ask(p.now, "roots/list", json!({})).unwrap();
    p.pump();
    p.client.answer(p.now, &id2, Err(not_found.clone()));
    p.pump();
    let got: Vec<AskOutcome> = answered(&p).into_iter().map(|(_, _, o)| o).collect();
    assert_eq!(
        got,
        [AskOutcome::Error(rejected), AskOutcome::Error(not_found)]
    );
}

#[test]
fn an_unanswered_request_times_out_and_is_cancelled() {
    let mut p = classic();
    let id = p.server.ask(p.now, "roots/list", json!({})).unwrap();
    p.pump();
    assert_eq!(p.server.poll_timeout(), Some(p.now.after(ASK_TIMEOUT)));
    p.now = p.now.after(ASK_TIMEOUT - Duration::from_millis(1));
    p.server.handle_timeout(p.now);
    p.pump();
    assert!(answered(&p).is_empty());
    p.now = p.now.after(Duration::from_millis(1));
    p.server.handle_timeout(p.now);
    p.pump();
    assert_eq!(
        answered(&p),
        [(id.clone(), "roots/list".to_owned(), AskOutcome::TimedOut)]
    );
    // The client heard the cancellation, so the host's late answer goes nowhere.
    assert!(!p.client.answer(p.now, &id, Ok(json!({"roots": []}))));
}

#[test]
fn the_server_does_not_ask_what_it_may_not() {
    let mut p = pair(
        GenerationMode::Initialize,
        json!({"elicitation": {}}),
        ProtocolVersion::ALL.to_vec(),
    );
    let url =
        json!({"mode": "url", "message": "m", "url": "https://example.com", "elicitationId": "e"});
    assert_eq!(
        p.server.ask(p.now, "sampling/createMessage", json!({})),
        Err(CannotAsk::NotDeclared {
            capability: "sampling"
        })
    );
    assert_eq!(
        p.server.ask(p.now, "elicitation/create", url.clone()),
        Err(CannotAsk::NotDeclared {
            capability: "elicitation.url"
        }),
        "a bare elicitation object is form mode only"
    );
    assert!(
        p.server
            .ask(
                p.now,
                "elicitation/create",
                json!({"message": "m", "requestedSchema": {}})
            )
            .is_ok()
    );
    assert!(matches!(
        p.server.ask(p.now, "tools/list", json!({})),
        Err(CannotAsk::UnknownMethod(_))
    ));

    let old = vec![ProtocolVersion::V2024_11_05];
    let mut p = pair(GenerationMode::Initialize, all_caps(), old);
    assert!(matches!(
        p.server.ask(p.now, "elicitation/create", json!({})),
        Err(CannotAsk::NotInRevision {
            version: ProtocolVersion::V2024_11_05,
            ..
        })
    ));
    let mut p = stateless();
    assert!(matches!(
        p.server.ask(p.now, "roots/list", json!({})),
        Err(CannotAsk::NoSession { .. })
    ));
    assert_eq!(p.server.poll_timeout(), None);
}

#[test]
fn the_completion_notice_reaches_the_client() {
    let mut p = classic();
    p.server.elicitation_complete(p.now, "e1");
    p.pump();
    let heard = p.events.iter().any(|e| match e {
        Event::Wire(w) => {
            w.raw.contains("notifications/elicitation/complete") && w.raw.contains("\"e1\"")
        }
        _ => false,
    });
    assert!(heard, "{:#?}", p.events);
}

#[test]
fn a_classic_call_knows_the_clients_capabilities() {
    let mut p = pair(
        GenerationMode::Initialize,
        json!({"roots": {"listChanged": true}}),
        ProtocolVersion::ALL.to_vec(),
    );
    p.client
        .call_tool(p.now, "book", None, CallOptions::default());
    p.pump();
    let id = call_id(&p, 0);
    let ctx = p.server.call_context(&id).unwrap();
    assert_eq!(ctx.version, ProtocolVersion::V2025_11_25);
    assert_eq!(
        ctx.client_capabilities,
        obj(json!({"roots": {"listChanged": true}}))
    );
    assert_eq!((&ctx.input_responses, &ctx.request_state), (&None, &None));
}

fn call_id(p: &Pair, nth: usize) -> RequestId {
    p.server_events
        .iter()
        .filter_map(|e| match e {
            ServerEvent::CallTool { id, .. } => Some(id.clone()),
            _ => None,
        })
        .nth(nth)
        .expect("a call")
}

#[test]
fn under_2026_07_28_the_call_asks_with_input_required_and_reads_the_retry() {
    let mut p = stateless();
    let op = p.client.call_tool(
        p.now,
        "book",
        Some(obj(json!({"n": 1}))),
        CallOptions::default(),
    );
    p.pump();
    let first = call_id(&p, 0);
    let ctx = p.server.call_context(&first).unwrap().clone();
    assert_eq!(ctx.version, ProtocolVersion::V2026_07_28);
    assert!(
        ctx.client_capabilities.contains_key("sampling"),
        "from the request's _meta"
    );
    let requests = obj(json!({"who": {"method": "roots/list", "params": {}}}));
    p.server
        .respond_input_required(p.now, &first, requests, Some("state-1"));
    p.pump();
    let round = p.events.iter().find_map(|e| match e {
        Event::CallFinished {
            op: o,
            outcome: CallOutcome::InputRequired(r),
            ..
        } if *o == op => Some(r.clone()),
        _ => None,
    });
    let round = round.expect("input required");
    assert_eq!(round["resultType"], "input_required");
    assert_eq!(round["requestState"], "state-1");
    assert!(
        p.server.call_context(&first).is_none(),
        "that round is over"
    );

    let answers = obj(json!({"who": {"roots": [{"uri": "file:///w"}]}}));
    assert!(p.client.continue_call(p.now, op, answers.clone()));
    p.pump();
    let retry = call_id(&p, 1);
    let ctx = p.server.call_context(&retry).unwrap();
    assert_eq!(ctx.input_responses, Some(answers));
    assert_eq!(ctx.request_state.as_deref(), Some("state-1"));
}

#[test]
fn a_retry_with_malformed_answers_is_invalid_params() {
    let mut p = stateless();
    for bad in [json!({"inputResponses": [1]}), json!({"requestState": 7})] {
        let mut params = obj(json!({"name": "book"}));
        params.extend(obj(bad));
        let op = p
            .client
            .request(p.now, "tools/call", Some(Value::Object(params)));
        p.pump();
        let code = p.events.iter().find_map(|e| match e {
            Event::Response {
                op: o,
                outcome: Err(e),
                ..
            } if *o == op => Some(e.to_string()),
            _ => None,
        });
        assert!(
            code.is_some_and(|c| c.contains("-32602")),
            "{:#?}",
            p.events
        );
    }
}
