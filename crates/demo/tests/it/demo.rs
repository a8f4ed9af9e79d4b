//! The demo server driven by the core's client over an in-memory transport, with a
//! virtual clock. Runs natively and, through wasm-bindgen-test, in headless Chromium
//! (the page's home for it).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use std::time::Duration;

use mcpg_core::client::{CallOptions, CallOutcome, Event, Failure, GenerationMode};
use mcpg_core::model::{ContentBlock, ResourceContents};
use serde_json::json;
use support::{MODES, Session, text_of};

/// The tools `mode` sees: the 25 of tools.json, and the task tool after them in a
/// 2025-11-25 session (`Initialize` negotiates it; `Auto` 2026-07-28).
fn tool_count(mode: GenerationMode) -> usize {
    if mode == GenerationMode::Initialize {
        26
    } else {
        25
    }
}

#[test]
fn tools_list_spans_several_pages() {
    for mode in MODES {
        let mut s = Session::new(mode);
        s.client.list_tools(s.now);
        s.pump();
        let pages: Vec<usize> = s
            .events
            .iter()
            .filter_map(|e| {
                if let Event::ToolsPage { tools, .. } = e {
                    Some(tools.len())
                } else {
                    None
                }
            })
            .collect();
        let last = tool_count(mode) - 24;
        assert_eq!(pages, [6, 6, 6, 6, last], "{mode:?}");
        let count = tool_count(mode);
        assert!(s.events.iter().any(|e| matches!(
            e,
            Event::ToolsListed {
                pages: 5,
                tools,
                ..
            } if *tools == count
        )));
        assert_eq!(
            s.diagnostics(),
            Vec::<String>::new(),
            "the demo breaks no rule"
        );
    }
}

#[test]
fn the_classic_walkthrough_answers() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let ok = s.call("get_weather", json!({"city": "Austin"}));
        assert!(matches!(ok, CallOutcome::Success(_)));
        assert_eq!(text_of(&ok), "Austin: 91F, sunny");
        let missing = s.call("get_weather", json!({"city": "Atlantis"}));
        assert!(
            matches!(missing, CallOutcome::ToolError(_)),
            "unknown city is isError, not a protocol error"
        );
        assert_eq!(text_of(&missing), "city not found: Atlantis");
        let bad_args = s.call("get_weather", json!({}));
        assert!(matches!(bad_args, CallOutcome::ToolError(_)));
        let unknown = s.call("no_such_tool", json!({}));
        assert!(
            matches!(unknown, CallOutcome::ProtocolError(e) if e.code == -32602),
            "unknown tool is a JSON-RPC error"
        );
    }
}

#[test]
fn structured_image_audio_and_resources() {
    let mut s = Session::new(GenerationMode::Auto);
    s.client.list_tools(s.now);
    s.pump();
    let f = s.call("get_forecast", json!({"city": "Paris", "days": 2}));
    let CallOutcome::Success(r) = &f else {
        panic!("{f:?}")
    };
    let sc = r.structured_content.clone().unwrap();
    assert_eq!(sc["city"], "Paris");
    assert_eq!(sc["days"].as_array().unwrap().len(), 2);
    let icon = s.call("get_weather_icon", json!({"city": "Tokyo"}));
    let CallOutcome::Success(r) = &icon else {
        panic!()
    };
    assert!(
        matches!(&r.content[1], ContentBlock::Image(i) if i.mime_type == "image/png" && i.data.starts_with("iVBORw0KGgo"))
    );
    let hello = s.call("say_hello", json!({}));
    let CallOutcome::Success(r) = &hello else {
        panic!()
    };
    assert!(
        matches!(&r.content[1], ContentBlock::Audio(a) if a.mime_type == "audio/wav" && a.data.starts_with("UklGR"))
    );
    let note = s.call("read_note", json!({"topic": "errors"}));
    let CallOutcome::Success(r) = &note else {
        panic!()
    };
    assert!(
        matches!(&r.content[0], ContentBlock::Resource(e) if matches!(&e.resource, ResourceContents::Text(t) if t.text.contains("isError")))
    );
    assert!(
        matches!(&r.content[1], ContentBlock::ResourceLink(l) if l.uri == "note://playground/")
    );
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

#[test]
fn the_slow_tool_reports_progress_and_can_be_cancelled() {
    let mut s = Session::new(GenerationMode::Auto);
    let args = json!({"to": 3, "step_ms": 100}).as_object().cloned();
    let op = s.client.call_tool(
        s.now,
        "count_slowly",
        args,
        CallOptions {
            progress: true,
            ..Default::default()
        },
    );
    s.pump();
    for _ in 0..3 {
        s.advance(Duration::from_millis(100));
    }
    let progress: Vec<f64> = s
        .events
        .iter()
        .filter_map(|e| {
            if let Event::Progress { progress, .. } = e {
                Some(*progress)
            } else {
                None
            }
        })
        .collect();
    assert_eq!(progress, [1.0, 2.0, 3.0]);
    assert!(s.events.iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: CallOutcome::Success(_), .. } if *o == op)));

    let args = json!({"to": 10, "step_ms": 100}).as_object().cloned();
    let op = s.client.call_tool(
        s.now,
        "count_slowly",
        args,
        CallOptions {
            progress: true,
            ..Default::default()
        },
    );
    s.pump();
    s.advance(Duration::from_millis(250));
    s.client.cancel(s.now, op, "enough");
    s.pump();
    assert_eq!(s.server.poll_timeout(), None, "the server stopped the job");
    s.advance(Duration::from_secs(5));
    assert!(s.events.iter().any(|e| matches!(e, Event::CallFinished { op: o, outcome: CallOutcome::Failed(Failure::Cancelled(_)), .. } if *o == op)));
    assert!(!s.wire.iter().any(|w| w.contains("Counted to 10")));
}

#[test]
fn toggling_the_bonus_tool_announces_a_list_change() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let r = s.call("toggle_bonus_tool", json!({}));
        assert!(text_of(&r).starts_with("Added secret_recipe"));
        assert!(
            s.events
                .iter()
                .any(|e| matches!(e, Event::ToolsListChanged)),
            "{mode:?}: {:#?}",
            s.events
        );
        s.client.list_tools(s.now);
        s.pump();
        let count = tool_count(mode) + 1;
        assert!(
            s.events
                .iter()
                .any(|e| matches!(e, Event::ToolsListed { tools, .. } if *tools == count))
        );
        assert_eq!(
            text_of(&s.call("secret_recipe", json!({}))),
            "Secret recipe: equal parts curiosity and JSON."
        );
    }
}

#[test]
fn sessions_replay_byte_for_byte() {
    let run = || {
        let mut s = Session::new(GenerationMode::Auto);
        s.client.list_tools(s.now);
        s.pump();
        for (tool, args) in [
            ("get_weather", json!({"city":"Austin"})),
            ("get_forecast", json!({"city":"Tokyo"})),
            ("say_hello", json!({})),
            ("make_list", json!({"items":["a","b"]})),
        ] {
            s.call(tool, args);
        }
        s.wire
    };
    assert_eq!(run(), run());
}
