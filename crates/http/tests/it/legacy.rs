//! The old HTTP+SSE transport (2024-11-05) under a virtual clock: the GET stream and
//! its `endpoint` event, messages held until it and POSTed there in order, answers
//! routed from `message` events, the fallback from Streamable HTTP on 400/404/405
//! (and not on 401/500), a cross-origin endpoint refused, the missing endpoint and
//! the cut stream failing what is pending.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_http::{
    EndpointError, HttpConfig, HttpEvent, HttpMachine, HttpRequest, Method, NetFailure, Transport,
};
use serde_json::json;

const T0: Timestamp = Timestamp(1_000);
const SSE_URL: &str = "http://x.test:8000/sse";

fn out(msg: Message) -> Outgoing {
    Outgoing {
        message: msg,
        headers: Vec::new(),
        param_headers: Vec::new(),
    }
}

fn init(id: i64) -> Outgoing {
    out(Message::request(
        RequestId::Number(id),
        "initialize",
        Some(json!({"protocolVersion": "2025-03-26"})),
    ))
}

fn call(id: i64) -> Outgoing {
    out(Message::request(
        RequestId::Number(id),
        "tools/call",
        Some(json!({"name": "add"})),
    ))
}

fn initialized() -> Outgoing {
    out(Message::notification("notifications/initialized", None))
}

fn sse() -> Vec<(String, String)> {
    vec![("content-type".into(), "text/event-stream".into())]
}

fn events(m: &mut HttpMachine) -> Vec<HttpEvent> {
    std::iter::from_fn(|| m.poll_event()).collect()
}

fn requests(m: &mut HttpMachine) -> Vec<HttpRequest> {
    std::iter::from_fn(|| m.poll_request()).collect()
}

fn machine(transport: Transport) -> HttpMachine {
    let mut cfg = HttpConfig::new(SSE_URL);
    cfg.transport = transport;
    cfg.one_way_timeout = Duration::from_secs(5);
    HttpMachine::new(cfg)
}

fn failures(ev: &[HttpEvent]) -> Vec<(RequestId, SendFailure)> {
    ev.iter()
        .filter_map(|e| match e {
            HttpEvent::SendFailed { id, failure } => Some((id.clone(), failure.clone())),
            _ => None,
        })
        .collect()
}

fn frames(ev: &[HttpEvent]) -> Vec<String> {
    ev.iter()
        .filter_map(|e| match e {
            HttpEvent::Frame(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

fn method_of(r: &HttpRequest) -> String {
    let v: serde_json::Value = serde_json::from_str(r.body.as_deref().unwrap_or("null")).unwrap();
    v["method"].as_str().unwrap_or("").to_owned()
}

/// Sends `initialize` in SSE mode and opens the stream; returns the stream's id.
fn opened(m: &mut HttpMachine) -> mcpg_http::ReqId {
    m.send(T0, init(1));
    let get = m.poll_request().expect("the GET stream");
    assert_eq!(get.method, Method::Get);
    assert_eq!(get.url, SSE_URL);
    assert!(
        get.headers
            .iter()
            .any(|(k, v)| k == "Accept" && v == "text/event-stream")
    );
    assert!(
        m.poll_request().is_none(),
        "initialize waits for the endpoint"
    );
    m.handle_head(T0, get.id, 200, &sse());
    get.id
}

#[test]
fn happy_path_endpoint_then_posts_and_answers_on_the_stream() {
    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    m.handle_body(
        T0,
        get,
        b"event: endpoint\ndata: /messages/?session_id=abcdef123456\n\n",
    );
    let post = m.poll_request().expect("initialize POSTed");
    assert_eq!(post.method, Method::Post);
    assert_eq!(
        post.url,
        "http://x.test:8000/messages/?session_id=abcdef123456"
    );
    assert_eq!(method_of(&post), "initialize");
    let choice = m.transport_choice().unwrap();
    assert_eq!(choice.transport, Transport::Sse);
    assert!(
        choice.why.contains("endpoint /messages/?session_id=abcd…")
            && !choice.why.contains("abcdef123456"),
        "{choice:?}"
    );
    m.handle_head(T0, post.id, 202, &[]);
    m.handle_body(T0, post.id, b"Accepted");
    m.handle_end(T0, post.id);
    m.handle_body(
        T0,
        get,
        b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-03-26\"}}\n\n",
    );
    let ev = events(&mut m);
    assert_eq!(frames(&ev).len(), 1, "{ev:?}");
    assert!(failures(&ev).is_empty(), "{ev:?}");
    // The body "Accepted" is not a message; later messages go to the same endpoint.
    m.send(T0, initialized());
    let n = m.poll_request().unwrap();
    assert_eq!(method_of(&n), "notifications/initialized");
    assert_eq!(n.url, post.url);
}

#[test]
fn through_the_relay_the_endpoint_goes_back_to_the_relay_unresolved() {
    let mut cfg = HttpConfig::new("/relay/python-sse");
    cfg.transport = Transport::Sse;
    cfg.via_relay = true;
    let mut m = HttpMachine::new(cfg);
    m.send(T0, init(1));
    let get = m.poll_request().unwrap();
    assert_eq!(
        (get.method, get.url.as_str()),
        (Method::Get, "/relay/python-sse")
    );
    m.handle_head(T0, get.id, 200, &sse());
    m.handle_body(
        T0,
        get.id,
        b"event: endpoint\ndata: /messages/?session_id=abcdef123456\n\n",
    );
    let post = m.poll_request().expect("initialize POSTed to the relay");
    assert_eq!(
        post.url,
        "/relay/python-sse?endpoint=%2Fmessages%2F%3Fsession_id%3Dabcdef123456"
    );
    let choice = m.transport_choice().unwrap();
    assert!(
        choice.why.ends_with("endpoint /messages/?session_id=abcd…"),
        "{choice:?}"
    );
}

#[test]
fn messages_before_the_endpoint_are_held_then_posted_in_order_one_at_a_time() {
    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    m.send(T0, initialized());
    m.send(T0, call(2));
    m.send(T0, call(3));
    assert!(m.poll_request().is_none());
    // Split across chunks, CRLF line ends.
    m.handle_body(T0, get, b"event: endpoint\r\ndata: /msg?s");
    assert!(m.poll_request().is_none());
    m.handle_body(T0, get, b"=1\r\n\r\n");
    let mut order = Vec::new();
    for _ in 0..4 {
        let reqs = requests(&mut m);
        assert_eq!(reqs.len(), 1, "one POST at a time: {reqs:?}");
        order.push(method_of(&reqs[0]));
        m.handle_head(T0, reqs[0].id, 202, &[]);
    }
    assert_eq!(
        order,
        [
            "initialize",
            "notifications/initialized",
            "tools/call",
            "tools/call"
        ]
    );
}

#[test]
fn endpoint_absolute_same_origin_is_accepted_and_other_origins_refused() {
    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    m.handle_body(
        T0,
        get,
        b"event: endpoint\ndata: http://x.test:8000/post?id=9\n\n",
    );
    assert_eq!(
        m.poll_request().unwrap().url,
        "http://x.test:8000/post?id=9"
    );

    for hostile in [
        &b"http://evil.test:8000/post"[..],
        b"//evil.test/post",
        b"https://x.test:8000/post",
        b"http://x.test:9000/post",
    ] {
        let mut m = machine(Transport::Sse);
        let get = opened(&mut m);
        let mut body = b"event: endpoint\ndata: ".to_vec();
        body.extend_from_slice(hostile);
        body.extend_from_slice(b"\n\n");
        m.handle_body(T0, get, &body);
        assert!(m.poll_request().is_none(), "nothing POSTed to {hostile:?}");
        assert!(
            matches!(m.endpoint_error(), Some(EndpointError::CrossOrigin { .. })),
            "{:?}",
            m.endpoint_error()
        );
        assert_eq!(m.poll_abort(), Some(get), "the stream is dropped");
        let ev = events(&mut m);
        let f = failures(&ev);
        assert!(
            matches!(&f[..], [(RequestId::Number(1), SendFailure::Network(w))] if w.contains("origin")),
            "{ev:?}"
        );
        // Later messages fail at once, nothing is sent.
        m.send(T0, call(2));
        assert!(m.poll_request().is_none());
        assert_eq!(failures(&events(&mut m)).len(), 1);
    }

    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    let mut body = b"event: endpoint\ndata: /".to_vec();
    body.extend(std::iter::repeat_n(b'a', 5000));
    body.extend_from_slice(b"\n\n");
    m.handle_body(T0, get, &body);
    assert!(matches!(
        m.endpoint_error(),
        Some(EndpointError::TooLong { .. })
    ));
}

#[test]
fn auto_falls_back_on_405_404_400_but_not_on_401_or_500() {
    for status in [405, 404, 400] {
        let mut m = machine(Transport::Auto);
        m.send(T0, init(1));
        m.send(T0, initialized());
        let probe = m.poll_request().unwrap();
        assert_eq!(
            (probe.method, method_of(&probe).as_str()),
            (Method::Post, "initialize")
        );
        assert!(
            m.poll_request().is_none(),
            "later messages wait for the probe"
        );
        m.handle_head(T0, probe.id, status, &[]);
        assert_eq!(m.poll_abort(), Some(probe.id));
        let get = m.poll_request().expect("the GET stream");
        assert_eq!((get.method, get.url.as_str()), (Method::Get, SSE_URL));
        m.handle_head(T0, get.id, 200, &sse());
        m.handle_body(
            T0,
            get.id,
            b"event: endpoint\ndata: /messages/?session_id=1\n\n",
        );
        let post = m.poll_request().unwrap();
        assert_eq!(method_of(&post), "initialize");
        assert!(post.url.ends_with("/messages/?session_id=1"));
        let ev = events(&mut m);
        assert!(failures(&ev).is_empty(), "{status}: {ev:?}");
        let why = &m.transport_choice().unwrap().why;
        assert!(
            why.starts_with(&format!(
                "Streamable HTTP POST answered {status}; fell back to HTTP+SSE (2024-11-05): endpoint /messages/"
            )),
            "{why}"
        );
    }
    for status in [401, 500] {
        let mut m = machine(Transport::Auto);
        m.send(T0, init(1));
        let probe = m.poll_request().unwrap();
        m.handle_head(T0, probe.id, status, &[]);
        m.handle_end(T0, probe.id);
        assert!(m.poll_request().is_none(), "{status}: no GET");
        let f = failures(&events(&mut m));
        assert!(
            matches!(&f[..], [(_, SendFailure::Rejected { status: s, .. })] if *s == status),
            "{f:?}"
        );
        assert_eq!(
            m.transport_choice().unwrap().transport,
            Transport::StreamableHttp
        );
    }
}

#[test]
fn auto_keeps_streamable_http_when_the_post_succeeds() {
    let mut m = machine(Transport::Auto);
    m.send(T0, init(1));
    m.send(T0, call(2));
    let probe = m.poll_request().unwrap();
    assert!(m.poll_request().is_none());
    m.handle_head(
        T0,
        probe.id,
        200,
        &[("content-type".into(), "application/json".into())],
    );
    let next = m.poll_request().expect("the held call goes out");
    assert_eq!((next.method, next.url.as_str()), (Method::Post, SSE_URL));
    assert_eq!(method_of(&next), "tools/call");
    assert_eq!(
        m.transport_choice().unwrap().transport,
        Transport::StreamableHttp
    );
}

#[test]
fn auto_settles_streamable_http_on_a_discover_answered_2xx_without_initialize() {
    let mut m = machine(Transport::Auto);
    let discover = out(Message::request(
        RequestId::Number(1),
        "server/discover",
        None,
    ));
    m.send(T0, discover);
    let post = m.poll_request().unwrap();
    assert_eq!(method_of(&post), "server/discover");
    assert!(
        m.transport_choice().is_none(),
        "nothing decided before the answer"
    );
    m.handle_head(T0, post.id, 404, &[]);
    assert!(
        m.transport_choice().is_none(),
        "a 404 on server/discover is an old server's answer: initialize decides"
    );
    m.send(
        T0,
        out(Message::request(
            RequestId::Number(2),
            "server/discover",
            None,
        )),
    );
    let again = m.poll_request().unwrap();
    m.handle_head(
        T0,
        again.id,
        200,
        &[("content-type".into(), "application/json".into())],
    );
    let choice = m.transport_choice().unwrap();
    assert_eq!(choice.transport, Transport::StreamableHttp);
    assert!(choice.settled());
    assert_eq!(choice.why, "Streamable HTTP: a POST answered 200");
}

#[test]
fn no_endpoint_within_the_deadline_fails_what_waits() {
    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    m.send(T0, call(2));
    m.handle_body(T0, get, b": keep-alive\n\n");
    assert_eq!(m.poll_timeout(), Some(T0.after(Duration::from_secs(5))));
    m.handle_timeout(T0.after(Duration::from_millis(4_999)));
    assert!(failures(&events(&mut m)).is_empty());
    m.handle_timeout(T0.after(Duration::from_secs(5)));
    assert!(m.poll_request().is_none());
    let f = failures(&events(&mut m));
    let ids: Vec<_> = f.iter().map(|(id, _)| id.clone()).collect();
    assert_eq!(ids, [RequestId::Number(1), RequestId::Number(2)]);
    assert!(
        matches!(&f[0].1, SendFailure::Network(w) if w.contains("no endpoint event within 5s")),
        "{f:?}"
    );
    assert_eq!(m.poll_timeout(), None);
}

#[test]
fn the_stream_cut_mid_call_fails_the_call_and_later_ones() {
    for failed in [false, true] {
        let mut m = machine(Transport::Sse);
        let get = opened(&mut m);
        m.handle_body(T0, get, b"event: endpoint\ndata: /m\n\n");
        let post = m.poll_request().unwrap();
        m.handle_head(T0, post.id, 202, &[]);
        m.handle_end(T0, post.id);
        if failed {
            m.handle_failed(T0, get, NetFailure::Broken("connection reset".into()));
        } else {
            m.handle_end(T0, get);
        }
        let f = failures(&events(&mut m));
        assert!(
            matches!(&f[..], [(RequestId::Number(1), SendFailure::Network(w))] if w.contains("cannot resume")),
            "{f:?}"
        );
        m.send(T0, call(2));
        assert!(m.poll_request().is_none(), "no resumption, no new stream");
        assert_eq!(failures(&events(&mut m)).len(), 1);
    }
}

#[test]
fn a_message_event_that_is_not_json_rpc_does_not_break_the_session() {
    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    m.handle_body(T0, get, b"event: endpoint\ndata: /m\n\n");
    let post = m.poll_request().unwrap();
    m.handle_head(T0, post.id, 202, &[]);
    m.handle_body(
        T0,
        get,
        b"event: message\ndata: not json\n\nevent: ping\ndata: x\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n",
    );
    let ev = events(&mut m);
    // The core reads both frames (and reports the first as a diagnostic).
    assert_eq!(
        frames(&ev),
        ["not json", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"]
    );
    assert!(
        ev.iter()
            .any(|e| matches!(e, HttpEvent::Notice(n) if n.contains("\"ping\""))),
        "{ev:?}"
    );
    assert!(failures(&ev).is_empty());
    // The answered request is no longer pending: a cut now fails nothing.
    m.handle_end(T0, get);
    assert!(failures(&events(&mut m)).is_empty());
}

#[test]
fn a_refused_post_fails_its_request_and_an_oversized_event_ends_the_session() {
    let mut m = machine(Transport::Sse);
    let get = opened(&mut m);
    m.handle_body(T0, get, b"event: endpoint\ndata: /m\n\n");
    let post = m.poll_request().unwrap();
    m.handle_head(T0, post.id, 400, &[]);
    m.handle_body(T0, post.id, b"bad session");
    m.handle_end(T0, post.id);
    let f = failures(&events(&mut m));
    assert!(
        matches!(&f[..], [(RequestId::Number(1), SendFailure::Rejected { status: 400, body })] if body == "bad session"),
        "{f:?}"
    );

    let mut cfg = HttpConfig::new(SSE_URL);
    cfg.transport = Transport::Sse;
    cfg.max_event = 64;
    let mut m = HttpMachine::new(cfg);
    m.send(T0, call(7));
    let get = m.poll_request().unwrap();
    m.handle_head(T0, get.id, 200, &sse());
    m.handle_body(T0, get.id, b"event: endpoint\ndata: /m\n\n");
    let post = m.poll_request().unwrap();
    m.handle_head(T0, post.id, 202, &[]);
    let mut big = b"data: ".to_vec();
    big.extend(std::iter::repeat_n(b'x', 100));
    m.handle_body(T0, get.id, &big);
    let f = failures(&events(&mut m));
    assert!(
        matches!(&f[..], [(RequestId::Number(7), SendFailure::Network(w))] if w.contains("64-byte limit")),
        "{f:?}"
    );
}
