//! The demo's answers are a hook a host may hand in later (the page does, with its
//! loop's code): without it a tool call and a read say so (a JSON-RPC error) while
//! the tool list works (`content_hook.rs` has the rest); with it, the same server
//! answers and its asking tools ask. Natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, GenerationMode};
use mcpg_demo::{DemoServer, handlers};
use serde_json::json;
use support::{CALLS, Session, all};

#[test]
fn without_its_answers_the_demo_says_so_and_answers_once_they_are_handed_in() {
    let caps = json!({"elicitation": {"form": {}}});
    let cfg = ClientConfig {
        mode: GenerationMode::Initialize,
        capabilities: caps.as_object().unwrap().clone(),
        ..Default::default()
    };
    let mut s = Session::with_server(cfg, DemoServer::without_handlers());
    let out = s.call("reserve_table", json!({}));
    let CallOutcome::ProtocolError(e) = &out else {
        panic!("{out:?}")
    };
    assert!(e.message.contains("not loaded yet"), "{}", e.message);
    let read = s.request("resources/read", json!({"uri": CALLS}));
    assert!(matches!(read, Some(Err(_))), "{read:?}");
    let (tools, _) = all(&mut s, "tools/list", "tools");
    assert!(
        !tools.is_empty(),
        "the core's server lists without the answers"
    );

    s.server.set_handlers(handlers());
    let read = s.ok("resources/read", json!({"uri": CALLS}));
    assert!(read["contents"][0]["text"].is_string(), "{read}");
    s.events.clear();
    s.client
        .call_tool(s.now, "reserve_table", None, CallOptions::default());
    s.pump();
    let asked: Vec<&str> = s
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ServerRequest { method, .. } => Some(method.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(asked, ["elicitation/create"], "{:#?}", s.events);
}
