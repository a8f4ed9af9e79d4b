//! The asking tools' code is a hook a host may hand in later (the page does, with
//! its loop's code): without it such a tool says so as a tool error; with it, the
//! same server asks. Natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod support;

use mcpg_core::client::{CallOptions, CallOutcome, ClientConfig, Event, GenerationMode};
use mcpg_demo::{DemoServer, asking};
use serde_json::json;
use support::{Session, text_of};

#[test]
fn an_asking_tool_without_its_code_says_so_and_asks_once_it_is_handed_in() {
    let caps = json!({"elicitation": {"form": {}}})
        .as_object()
        .unwrap()
        .clone();
    let cfg = ClientConfig {
        mode: GenerationMode::Initialize,
        capabilities: caps,
        ..Default::default()
    };
    let mut s = Session::with_server(cfg, DemoServer::without_asking());
    let out = s.call("reserve_table", json!({}));
    assert!(matches!(&out, CallOutcome::ToolError(_)), "{out:?}");
    assert!(
        text_of(&out).contains("not loaded yet"),
        "{}",
        text_of(&out)
    );

    s.server.set_asking(asking());
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
