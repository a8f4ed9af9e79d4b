//! The page's session diff on the page's own recordings of the demo: a session
//! and its link (the demo's answers left out, regenerated) are the same; a
//! changed tool is found. Natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_page::Command;
use mcpg_page_later::session_diff::compare;
use mcpg_recording::{Direction, Recording, decode_link, encode_link};
use serde_json::{Value, json};
use support::Shell;

fn walkthrough() -> Recording {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(5_000);
    assert!(live.all_done());
    live.d.record()
}

#[test]
fn a_session_and_its_link_are_the_same() {
    let recorded = walkthrough();
    let link = decode_link(&encode_link(&mcpg_page::link_session(&recorded))).unwrap();
    assert!(
        link.wire.iter().any(|w| w.text.is_none()),
        "the link elides"
    );
    let c = compare(recorded, link).unwrap();
    assert!(c.diff.is_empty(), "{:?}", c.diff);
    assert_eq!(c.a.tools, c.b.tools);
    assert!(c.a.tools.unwrap_or(0) >= 6, "{:?}", c.a);
    assert_eq!(c.diff.calls.compared, c.a.calls);
    assert!(c.a.calls >= 1, "the walkthrough calls a tool");
}

#[test]
fn a_changed_tool_is_found_and_an_empty_session_is_refused() {
    let a = walkthrough();
    let mut b = a.clone();
    for w in b
        .wire
        .iter_mut()
        .filter(|w| w.direction == Direction::Received)
    {
        let mut v: Value = serde_json::from_str(w.text.as_deref().unwrap()).unwrap();
        if let Some(tools) = v.pointer_mut("/result/tools").and_then(Value::as_array_mut) {
            for t in tools.iter_mut().filter(|t| t["name"] == "get_weather") {
                t["description"] = json!("changed");
            }
            w.text = Some(v.to_string());
        }
    }
    let c = compare(a.clone(), b).unwrap();
    let t = c.diff.tools.unwrap();
    assert_eq!(t.changed.len(), 1);
    assert_eq!(t.changed[0].name, "get_weather");
    assert_eq!(t.changed[0].changes[0].change.pointer, "/description");
    let empty = Recording::new(mcpg_recording::Connection::Embedded);
    let e = compare(a, empty).unwrap_err();
    assert!(e.contains("session B"), "{e}");
}
