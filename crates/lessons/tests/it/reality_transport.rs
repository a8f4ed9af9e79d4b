//! "Why HTTP+SSE was replaced" against what the page really shows: the page's own
//! driver and HTTP machine reach the in-page demo over HTTP (`mcpg_demo_sse`), first
//! over the old transport, then, after the learner's switch, over Streamable HTTP.
//! Every claim of the lesson's needs is checked against the Transport row and the
//! wire log it describes, and the needs are met only in the task's order.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_lessons::{Lesson, Server, TransportKind, Watch};
use mcpg_page::Source;
use serde_json::Value;
use support::{Played, field, opened, play_then_switch};

fn lesson() -> &'static Lesson {
    mcpg_lessons::find("http-sse").unwrap().1
}

fn messages(p: &Played) -> Vec<Value> {
    p.wire
        .iter()
        .map(|r| serde_json::from_str(r).unwrap())
        .collect()
}

/// The rows `after` added to the log past `before`'s (the log may start again on
/// a reconnection).
fn new_rows<'a>(before: &Played, after: &'a Played) -> &'a [String] {
    if after.wire.starts_with(&before.wire) {
        &after.wire[before.wire.len()..]
    } else {
        &after.wire
    }
}

fn switch() -> Source {
    Source::Url(mcpg_demo_sse::MCP_URL.to_owned())
}

#[test]
fn the_lesson_opens_on_the_old_transport_with_nothing_seen() {
    let l = lesson();
    assert_eq!(l.setup.server, Server::SseDemo);
    let o = opened(&l.setup);
    assert!(TransportKind::Sse.named_in(&o.transport), "{}", o.transport);
    assert!(o.tools > 0, "connected: the tool list came over the stream");
    let mut w = Watch::new(l);
    w.see_steps(l, &o.steps);
    w.see_transport(l, &o.transport);
    for raw in &o.wire {
        w.see_wire(l, raw);
    }
    assert!(!w.seen(0), "nothing before the learner runs the loop");
}

#[test]
fn the_transport_row_says_what_the_needs_say() {
    let l = lesson();
    let (sse, http) = play_then_switch(&l.setup, switch());
    // Need 1's words: the POST answered 405, the fallback, the endpoint event.
    let row = &sse.transport;
    for claim in [
        "answered 405",
        "fell back to HTTP+SSE (2024-11-05)",
        "endpoint /messages/?session_id=",
    ] {
        assert!(row.contains(claim), "{claim:?} not in {row:?}");
    }
    // The old transport's server speaks its revision with the initialize handshake.
    let msgs = messages(&sse);
    assert!(
        msgs.iter()
            .any(|m| m["result"]["protocolVersion"] == "2024-11-05"),
        "{msgs:?}"
    );
    // Need 0's and the pointers' fields show over the old transport.
    assert!(field(&sse, 4, "params.name").is_some());
    assert!(field(&sse, 5, "result.content[0].text").is_some());

    // Need 2's words: a POST answered 200, over Streamable HTTP.
    let row = &http.transport;
    assert!(TransportKind::StreamableHttp.named_in(row), "{row:?}");
    assert!(row.contains("a POST answered 200"), "{row:?}");
    assert!(!TransportKind::Sse.named_in(row));
    assert!(field(&http, 5, "result.content[0].text").is_some());
    // Switching aborted the old transport's GET, which ended its session.
    assert_eq!((sse.sse_sessions, http.sse_sessions), (1, 0));
    let text = |p: &Played| field(p, 5, "result.content[0].text").unwrap();
    assert_eq!(text(&sse), text(&http), "the same demo answers either way");
}

#[test]
fn the_needs_are_met_by_the_task_in_order() {
    let l = lesson();
    let (sse, http) = play_then_switch(&l.setup, switch());
    let mut w = Watch::new(l);
    // The run over HTTP+SSE, then the page looks at the Transport row.
    w.see_steps(l, &sse.steps);
    w.see_transport(l, &sse.transport);
    for raw in &sse.wire {
        w.see_wire(l, raw);
    }
    assert!(w.seen(0) && w.seen(1) && !w.seen(2), "{w:?}");
    // The switch: the row changes; the earlier run's answer does not count.
    w.see_transport(l, &http.transport);
    assert!(w.seen(2) && !w.seen(3));
    for raw in new_rows(&sse, &http) {
        w.see_wire(l, raw);
    }
    assert!(w.all_seen(), "{w:?}");
}

#[test]
fn a_run_over_streamable_http_alone_does_not_show_the_old_transport() {
    let l = lesson();
    let mut direct = l.setup;
    direct.server = Server::Demo;
    // A learner who switched before running: the cards come from Streamable HTTP.
    let (_, http) = play_then_switch(&l.setup, switch());
    let mut w = Watch::new(l);
    w.see_steps(l, &http.steps);
    w.see_transport(l, &http.transport);
    assert!(
        w.seen(0) && !w.seen(1),
        "the HTTP+SSE row is not on screen: {w:?}"
    );
    // Nor does the embedded demo, which is reached with no transport at all.
    let o = opened(&direct);
    assert!(!TransportKind::Sse.named_in(&o.transport));
    assert!(
        !TransportKind::StreamableHttp.named_in(&o.transport),
        "{}",
        o.transport
    );
}
