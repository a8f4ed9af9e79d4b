//! The machine's timing and bounds under a virtual clock: when a cut stream is
//! resumed, when it gives up, how later messages wait for a one-way POST, the GET
//! stream's reconnection, and a DELETE that never answers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The same tests run natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_http::{HttpConfig, HttpEvent, HttpMachine, HttpRequest, Method, NetFailure};
use serde_json::json;

const T0: Timestamp = Timestamp(1_000);

fn out(msg: Message, version: &str) -> Outgoing {
    Outgoing {
        message: msg,
        headers: vec![("MCP-Protocol-Version", version.to_owned())],
        param_headers: Vec::new(),
    }
}

fn call(id: i64) -> Outgoing {
    out(
        Message::request(
            RequestId::Number(id),
            "tools/call",
            Some(json!({"name": "x"})),
        ),
        "2025-11-25",
    )
}

fn sse() -> Vec<(String, String)> {
    vec![("Content-Type".into(), "text/event-stream".into())]
}

fn events(m: &mut HttpMachine) -> Vec<HttpEvent> {
    std::iter::from_fn(|| m.poll_event()).collect()
}

fn header<'a>(r: &'a HttpRequest, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

fn machine(f: impl FnOnce(&mut HttpConfig)) -> HttpMachine {
    let mut cfg = HttpConfig::new("http://x.test/mcp");
    f(&mut cfg);
    HttpMachine::new(cfg)
}

#[test]
fn a_cut_stream_is_resumed_after_retry_capped_by_max_retry() {
    let mut m = machine(|c| c.max_retry = Duration::from_millis(5_000));
    m.send(T0, call(1));
    let post = m.poll_request().unwrap();
    m.handle_head(T0, post.id, 200, &sse());
    m.handle_body(T0, post.id, b"id: e1\nretry: 60000\ndata:\n\n");
    m.handle_end(T0, post.id);
    assert!(m.poll_request().is_none(), "no resume before the delay");
    assert_eq!(
        m.poll_timeout(),
        Some(T0.after(Duration::from_millis(5_000)))
    );
    m.handle_timeout(T0.after(Duration::from_millis(4_999)));
    assert!(m.poll_request().is_none());
    m.handle_timeout(T0.after(Duration::from_millis(5_000)));
    let get = m.poll_request().expect("the resuming GET");
    assert_eq!(get.method, Method::Get);
    assert_eq!(header(&get, "last-event-id"), Some("e1"));
    assert_eq!(get.body, None);
}

#[test]
fn resuming_gives_up_after_max_resumes_and_a_stream_without_id_fails_at_once() {
    let mut m = machine(|c| {
        c.max_resumes = 2;
        c.default_retry = Duration::from_millis(10);
    });
    m.send(T0, call(1));
    let mut req = m.poll_request().unwrap();
    let mut now = T0;
    for _ in 0..3 {
        m.handle_head(now, req.id, 200, &sse());
        m.handle_body(now, req.id, b"id: e\ndata:\n\n");
        m.handle_end(now, req.id);
        now = m.poll_timeout().unwrap_or(now);
        m.handle_timeout(now);
        match m.poll_request() {
            Some(r) => req = r,
            None => break,
        }
    }
    let failed = events(&mut m).into_iter().find_map(|e| match e {
        HttpEvent::SendFailed { failure, .. } => Some(failure),
        _ => None,
    });
    assert!(
        matches!(&failed, Some(SendFailure::Network(w)) if w.contains("2 attempts")),
        "{failed:?}"
    );

    let mut m = machine(|_| {});
    m.send(T0, call(2));
    let post = m.poll_request().unwrap();
    m.handle_head(T0, post.id, 200, &sse());
    m.handle_failed(T0, post.id, NetFailure::Broken("reset".into()));
    let ev = events(&mut m);
    assert!(
        matches!(&ev[..], [HttpEvent::SendFailed { failure: SendFailure::Network(w), .. }] if w.contains("no event id")),
        "{ev:?}"
    );
    assert_eq!(m.poll_timeout(), None);
}

#[test]
fn later_messages_wait_for_a_one_way_post_then_go_in_order() {
    let mut m = machine(|c| c.one_way_timeout = Duration::from_secs(3));
    m.send(
        T0,
        out(
            Message::notification("notifications/roots/list_changed", None),
            "2025-11-25",
        ),
    );
    let note = m.poll_request().unwrap();
    m.send(T0, call(1));
    m.send(T0, call(2));
    assert!(m.poll_request().is_none(), "held behind the notification");
    m.handle_head(T0, note.id, 202, &[]);
    let ids: Vec<String> = std::iter::from_fn(|| m.poll_request())
        .map(|r| r.body.unwrap())
        .collect();
    assert!(
        ids[0].contains("\"id\":1") && ids[1].contains("\"id\":2"),
        "{ids:?}"
    );

    // A notification that never gets an answer holds others only until the timeout.
    m.send(
        T0,
        out(
            Message::notification("notifications/roots/list_changed", None),
            "2025-11-25",
        ),
    );
    let stuck = m.poll_request().unwrap();
    m.send(T0, call(3));
    assert!(m.poll_request().is_none());
    m.handle_timeout(T0.after(Duration::from_secs(3)));
    assert_eq!(m.poll_abort(), Some(stuck.id));
    assert!(m.poll_request().unwrap().body.unwrap().contains("\"id\":3"));
    let ev = events(&mut m);
    assert!(
        ev.iter().any(|e| matches!(e, HttpEvent::Notice(n) if n.contains("gave up sending our notifications/roots/list_changed after 3s"))),
        "{ev:?}"
    );
}

#[test]
fn the_get_stream_reconnects_with_its_last_id_and_gives_up_when_it_keeps_failing() {
    let mut m = machine(|_| {});
    m.send(
        T0,
        out(
            Message::request(RequestId::Number(0), "initialize", Some(json!({}))),
            "2025-06-18",
        ),
    );
    let init = m.poll_request().unwrap();
    m.handle_head(T0, init.id, 200, &[("Mcp-Session-Id".into(), "s 1".into())]);
    m.handle_body(
        T0,
        init.id,
        br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18"}}"#,
    );
    m.handle_end(T0, init.id);
    assert!(
        events(&mut m)
            .iter()
            .any(|e| matches!(e, HttpEvent::Notice(n) if n.contains("invalid Mcp-Session-Id"))),
        "a session id with a space is refused"
    );
    assert_eq!(m.session(), None);
    m.send(
        T0,
        out(
            Message::notification("notifications/initialized", None),
            "2025-06-18",
        ),
    );
    // The GET stream opens first; `initialized` waits for its answer.
    let get = m.poll_request().expect("the GET stream");
    assert_eq!(get.method, Method::Get);
    assert_eq!(header(&get, "mcp-protocol-version"), Some("2025-06-18"));
    assert!(
        m.poll_request().is_none(),
        "initialized waits for the stream"
    );
    m.handle_head(T0, get.id, 200, &sse());
    let done = m.poll_request().expect("then initialized");
    assert_eq!(done.method, Method::Post);
    m.handle_head(T0, done.id, 202, &[]);
    m.handle_end(T0, done.id);
    m.handle_body(T0, get.id, b"id: g7\nretry: 100\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n");
    m.handle_end(T0, get.id);
    let at = m.poll_timeout().unwrap();
    assert_eq!(at, T0.after(Duration::from_millis(100)));
    m.handle_timeout(at);
    let again = m.poll_request().unwrap();
    assert_eq!(header(&again, "last-event-id"), Some("g7"));
    // Three failures in a row and it stops trying.
    let mut req = again;
    for _ in 0..3 {
        m.handle_failed(at, req.id, NetFailure::Unreachable("down".into()));
        let Some(t) = m.poll_timeout() else { break };
        m.handle_timeout(t);
        req = m.poll_request().unwrap();
    }
    assert_eq!(m.poll_timeout(), None);
    assert!(m.poll_request().is_none());
}

#[test]
fn a_delete_that_never_answers_closes_after_the_timeout() {
    let mut m = machine(|c| c.one_way_timeout = Duration::from_secs(2));
    m.send(T0, call(1));
    let post = m.poll_request().unwrap();
    m.handle_head(T0, post.id, 200, &[("mcp-session-id".into(), "abc".into())]);
    m.close(T0);
    assert_eq!(
        m.poll_abort(),
        Some(post.id),
        "close aborts what is in flight"
    );
    let del = m.poll_request().unwrap();
    assert_eq!(del.method, Method::Delete);
    assert_eq!(header(&del, "mcp-session-id"), Some("abc"));
    assert_eq!(header(&del, "mcp-protocol-version"), Some("2025-11-25"));
    m.handle_timeout(T0.after(Duration::from_secs(2)));
    let ev = events(&mut m);
    assert_eq!(
        ev.last(),
        Some(&HttpEvent::Closed(
            "closed by the client; DELETE of the session timed out".into()
        ))
    );
}
