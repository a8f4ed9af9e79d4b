//! The faces driven by the page's own HTTP machine (`Transport::Auto`, as the page
//! and the CLI run it), executing each request against the face as the page's
//! in-page executor does: the 405 makes it fall back, the stream's `endpoint`
//! event settles the choice, answers come as `message` events on the GET.

use std::collections::HashMap;

use mcpg_core::Timestamp;
use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_demo_sse::{MCP_URL, Push, Request, SSE_URL, SseDemo, StreamId};
use mcpg_http::{HttpConfig, HttpEvent, HttpMachine, Method, ReqId, Transport};
use serde_json::{Value, json};

const T: Timestamp = Timestamp(1_000);

struct Net {
    demo: SseDemo,
    /// Open streams, and the machine's request each belongs to.
    streams: HashMap<StreamId, ReqId>,
    /// Requests of each method the machine made.
    made: Vec<(Method, String, u16)>,
    events: Vec<HttpEvent>,
}

fn out(msg: Message) -> Outgoing {
    Outgoing {
        message: msg,
        headers: Vec::new(),
        param_headers: Vec::new(),
    }
}

fn machine(url: &str) -> HttpMachine {
    let mut cfg = HttpConfig::new(url);
    cfg.transport = Transport::Auto;
    HttpMachine::new(cfg)
}

impl Net {
    fn new() -> Net {
        Net {
            demo: SseDemo::new(),
            streams: HashMap::new(),
            made: Vec::new(),
            events: Vec::new(),
        }
    }

    /// Runs every request, abort and push until nothing moves.
    fn pump(&mut self, m: &mut HttpMachine) {
        loop {
            let mut moved = false;
            while let Some(r) = m.poll_request() {
                moved = true;
                let a = self.demo.answer(
                    T,
                    &Request {
                        method: r.method.as_str(),
                        url: &r.url,
                        body: r.body.as_deref(),
                    },
                );
                self.made.push((r.method, r.url.clone(), a.status));
                m.handle_head(T, r.id, a.status, &a.headers);
                if !a.body.is_empty() {
                    m.handle_body(T, r.id, a.body.as_bytes());
                }
                match a.stream {
                    Some(s) => {
                        self.streams.insert(s, r.id);
                    }
                    None => m.handle_end(T, r.id),
                }
            }
            while let Some(req) = m.poll_abort() {
                moved = true;
                let s = self
                    .streams
                    .iter()
                    .find(|(_, r)| **r == req)
                    .map(|(s, _)| *s);
                if let Some(s) = s {
                    self.streams.remove(&s);
                    self.demo.handle_closed(s);
                }
            }
            while let Some(p) = self.demo.poll_push() {
                moved = true;
                match p {
                    Push::Chunk { stream, text } => {
                        if let Some(req) = self.streams.get(&stream) {
                            m.handle_body(T, *req, text.as_bytes());
                        }
                    }
                    Push::End(stream) => {
                        if let Some(req) = self.streams.remove(&stream) {
                            m.handle_end(T, req);
                        }
                    }
                }
            }
            self.events.extend(std::iter::from_fn(|| m.poll_event()));
            if !moved {
                break;
            }
        }
    }

    /// The frames received so far, parsed.
    fn frames(&self) -> Vec<Value> {
        self.events
            .iter()
            .filter_map(|e| match e {
                HttpEvent::Frame(t) => Some(serde_json::from_str(t).unwrap()),
                _ => None,
            })
            .collect()
    }
}

fn init() -> Outgoing {
    out(Message::request(
        RequestId::Number(1),
        "initialize",
        Some(
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}),
        ),
    ))
}

fn weather(id: i64) -> Outgoing {
    out(Message::request(
        RequestId::Number(id),
        "tools/call",
        Some(json!({"name": "get_weather", "arguments": {"city": "Austin"}})),
    ))
}

/// Connects to the old face with Auto; returns the machine and the network.
fn connected() -> (HttpMachine, Net) {
    let mut m = machine(SSE_URL);
    let mut net = Net::new();
    m.send(T, init());
    net.pump(&mut m);
    m.send(
        T,
        out(Message::notification("notifications/initialized", None)),
    );
    net.pump(&mut m);
    (m, net)
}

#[test]
fn auto_falls_back_on_the_405_and_hears_answers_on_the_stream() {
    let (mut m, mut net) = connected();
    let first = &net.made[..2];
    assert_eq!(
        first,
        &[
            (Method::Post, SSE_URL.to_owned(), 405),
            (Method::Get, SSE_URL.to_owned(), 200),
        ],
        "{:?}",
        net.made
    );
    let (method, url, status) = &net.made[2];
    assert_eq!(*method, Method::Post);
    assert!(url.starts_with("https://mcp.demo-sse.invalid/messages/?session_id="));
    assert_eq!(*status, 202);
    let choice = m.transport_choice().expect("chosen");
    assert_eq!(choice.transport, Transport::Sse);
    assert!(choice.settled());
    assert!(
        choice.why.starts_with("Streamable HTTP POST answered 405; fell back to HTTP+SSE (2024-11-05): endpoint /messages/?session_id="),
        "{}",
        choice.why
    );
    let frames = net.frames();
    assert_eq!(frames[0]["result"]["protocolVersion"], "2024-11-05");

    m.send(T, weather(2));
    net.pump(&mut m);
    let answer = net
        .frames()
        .into_iter()
        .find(|f| f["id"] == 2)
        .expect("answered");
    assert!(
        answer["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Austin")
    );
    assert_eq!(net.demo.open_sessions(), 1);
    let (method, _, status) = net.made.last().unwrap();
    assert_eq!(
        (*method, *status),
        (Method::Post, 202),
        "the call's own POST said only 202"
    );
}

#[test]
fn a_cut_stream_fails_what_was_pending_and_the_session_is_over() {
    let (mut m, mut net) = connected();
    let stream = *net.streams.keys().next().unwrap();
    // The call is POSTed and accepted, but the stream is cut before its answer goes.
    m.send(T, weather(2));
    let r = m.poll_request().unwrap();
    let a = net.demo.answer(
        T,
        &Request {
            method: r.method.as_str(),
            url: &r.url,
            body: r.body.as_deref(),
        },
    );
    assert_eq!(a.status, 202);
    m.handle_head(T, r.id, a.status, &a.headers);
    m.handle_body(T, r.id, a.body.as_bytes());
    m.handle_end(T, r.id);
    net.demo.cut(stream);
    net.pump(&mut m);
    let failed = net.events.iter().any(|e| {
        matches!(e, HttpEvent::SendFailed { id: RequestId::Number(2), failure: SendFailure::Network(why) } if why.contains("cannot resume"))
    });
    assert!(failed, "{:?}", net.events);
    assert!(
        net.frames().iter().all(|f| f["id"] != 2),
        "the answer is lost"
    );
    // Later messages fail at once: the session cannot come back.
    m.send(T, weather(3));
    net.pump(&mut m);
    assert!(net.events.iter().any(|e| matches!(
        e,
        HttpEvent::SendFailed {
            id: RequestId::Number(3),
            ..
        }
    )));
}

#[test]
fn closing_the_machine_drops_the_stream_and_the_session() {
    let (mut m, mut net) = connected();
    assert_eq!(net.demo.open_sessions(), 1);
    m.close(T);
    net.pump(&mut m);
    assert_eq!(net.demo.open_sessions(), 0, "{:?}", net.made);
}

#[test]
fn auto_settles_streamable_http_on_the_other_face() {
    let mut m = machine(MCP_URL);
    let mut net = Net::new();
    m.send(T, init());
    net.pump(&mut m);
    let choice = m.transport_choice().expect("chosen");
    assert_eq!(choice.transport, Transport::StreamableHttp);
    assert_eq!(
        choice.why,
        "Streamable HTTP: the POST of initialize answered 200"
    );
    m.send(T, weather(2));
    net.pump(&mut m);
    assert!(net.frames().iter().any(|f| f["id"] == 2));
    assert!(net.made.iter().all(|(_, url, _)| url == MCP_URL));
    assert_eq!(net.demo.open_sessions(), 0);
}
