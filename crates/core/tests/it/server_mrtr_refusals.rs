//! What the server refuses to ask with `input_required`: a capability the
//! request does not declare, an empty round, a session of the `initialize`
//! generation, a state without a key, a request no `InputRequiredResult` answers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use mcpg_core::client::{CallOptions, ClientConfig, GenerationMode};
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::server::{InputRequest, InputRequiredError, ServerConfig, StateKey};
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};
use support::{Behaviour, Pair, tool};

use crate::server_mrtr::{last_call, name_form, obj, pair};

#[test]
fn the_server_asks_only_what_the_request_declares() {
    let mut p = pair(GenerationMode::Stateless, json!({"sampling": {}}));
    p.client
        .call_tool(p.now, "book", None, CallOptions::default());
    p.pump();
    let id = last_call(&p);
    let ctx = p.server.call_context(&id).unwrap();
    assert!(!ctx.can_ask(&name_form()));
    assert!(!ctx.can_ask(&InputRequest::roots()));
    assert!(ctx.can_ask(&InputRequest::sampling(json!({}))));
    let asked = vec![
        (
            "q".to_owned(),
            InputRequest::sampling(json!({"messages": [], "maxTokens": 9})),
        ),
        ("user_name".to_owned(), name_form()),
    ];
    assert_eq!(
        p.server.require_input(p.now, &id, asked, None),
        Err(InputRequiredError::NotDeclared {
            key: "user_name".into(),
            capability: "elicitation"
        })
    );
    assert!(p.server.is_open(&id), "nothing was sent");
    assert_eq!(
        p.server.require_input(p.now, &id, vec![], None),
        Err(InputRequiredError::Empty)
    );
}

#[test]
fn input_required_is_a_2026_07_28_answer_and_needs_a_key_for_state() {
    let mut p = pair(
        GenerationMode::Initialize,
        json!({"sampling": {}, "roots": {}, "elicitation": {}}),
    );
    p.client
        .call_tool(p.now, "book", None, CallOptions::default());
    p.pump();
    let id = last_call(&p);
    assert_eq!(
        p.server
            .require_input(p.now, &id, vec![("r".into(), InputRequest::roots())], None),
        Err(InputRequiredError::NotStateless {
            version: ProtocolVersion::V2025_11_25
        })
    );

    let ccfg = ClientConfig {
        mode: GenerationMode::Stateless,
        capabilities: obj(json!({"roots": {}})),
        versions: ProtocolVersion::ALL.to_vec(),
        ..Default::default()
    };
    let mut keyless = Pair::new(ccfg, ServerConfig::default(), vec![tool("book")]);
    keyless.behaviour = Behaviour::Hold;
    keyless.connect();
    keyless
        .client
        .call_tool(keyless.now, "book", None, CallOptions::default());
    keyless.pump();
    let id = last_call(&keyless);
    let roots = vec![("r".to_owned(), InputRequest::roots())];
    assert_eq!(
        keyless
            .server
            .require_input(keyless.now, &id, roots.clone(), Some("s")),
        Err(InputRequiredError::NoStateKey)
    );
    assert_eq!(
        keyless.server.require_input(keyless.now, &id, roots, None),
        Ok(())
    );
    assert_eq!(
        keyless
            .server
            .require_input(keyless.now, &id, vec![], Some("s")),
        Err(InputRequiredError::NotOpen)
    );
}

/// A 2026-07-28 request's `_meta`, declaring elicitation.
fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
    })
}

#[test]
fn only_calls_prompts_and_reads_may_ask() {
    use mcpg_core::Timestamp;
    use mcpg_core::server::{PromptFeatures, Server};
    let cfg = ServerConfig {
        prompts: Some(PromptFeatures::default()),
        completions: true,
        ..Default::default()
    };
    let prompt = json!({"name": "p", "arguments": [{"name": "a"}]});
    let mut s = Server::new(cfg, vec![]).with_prompts(vec![prompt]);
    s.set_state_key(StateKey::new([1; 32]));
    let at = Timestamp::ZERO;
    let complete = json!({"jsonrpc": "2.0", "id": 1, "method": "completion/complete", "params": {
        "ref": {"type": "ref/prompt", "name": "p"},
        "argument": {"name": "a", "value": ""}, "_meta": meta()}});
    let get = json!({"jsonrpc": "2.0", "id": 2, "method": "prompts/get", "params": {
        "name": "p", "_meta": meta()}});
    s.handle_text(at, &complete.to_string());
    s.handle_text(at, &get.to_string());
    let ask = || vec![("q".to_owned(), name_form())];
    assert_eq!(
        s.require_input(at, &RequestId::Number(1), ask(), None),
        Err(InputRequiredError::NotRetryable)
    );
    assert!(s.is_open(&RequestId::Number(1)));
    assert_eq!(
        s.require_input(at, &RequestId::Number(2), ask(), Some("p1")),
        Ok(())
    );
    let sent: Vec<Value> = std::iter::from_fn(|| s.poll_transmit())
        .map(|m| serde_json::from_str(m.raw()).unwrap())
        .collect();
    let r = &sent.last().unwrap()["result"];
    assert_eq!(r["resultType"], "input_required");
    assert!(r["requestState"].as_str().unwrap().ends_with(".p1"));
}
