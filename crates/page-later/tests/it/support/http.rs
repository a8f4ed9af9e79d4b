//! A scripted Streamable HTTP server at the level of the driver's `Output::Http`
//! and `Input::Http`: each request the driver asks for is answered by a script
//! function, at once or (held streams) later by the test.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::Timestamp;
use mcpg_demo::DemoServer;
use mcpg_page::{ConnId, HttpRequest, Input, Method, NetEvent, Output, ReqId};

use super::Shell;

/// How the script answers one request.
pub enum Reply {
    /// 200 with a JSON body.
    Json(String),
    /// 202, no body.
    Accepted,
    /// 200 `text/event-stream` with these bytes; `end`: whether the body ends.
    Sse { body: String, end: bool },
    /// Any status with a body.
    Status(u16, String),
    /// 200 `application/json` with raw bytes (e.g. oversized, or not UTF-8).
    Bytes(Vec<u8>),
    /// Any status with one more header (e.g. `WWW-Authenticate`) and a body.
    WithHeader(u16, (String, String), String),
}

/// What the server saw.
#[derive(Default)]
pub struct Peer {
    /// Every request, in order, with its connection.
    pub seen: Vec<(ConnId, HttpRequest)>,
    /// Requests the driver aborted.
    pub aborted: Vec<ReqId>,
    /// Connections the driver closed (`CloseLink`).
    pub closed: Vec<ConnId>,
    /// Streams answered and held open, as (conn, request).
    pub held: Vec<(ConnId, ReqId)>,
    /// The session id handed out (on every answer).
    pub session: Option<String>,
}

impl Peer {
    /// A peer that hands out the session `id`.
    pub fn with_session(id: &str) -> Peer {
        Peer {
            session: Some(id.into()),
            ..Peer::default()
        }
    }

    /// The requests whose JSON-RPC method is `m` (POST bodies).
    pub fn posts(&self, m: &str) -> Vec<&HttpRequest> {
        self.seen
            .iter()
            .map(|(_, r)| r)
            .filter(|r| rpc_method(r).as_deref() == Some(m))
            .collect()
    }

    /// Answers every request the driver asked for with `script`, until it asks for
    /// nothing more. Returns how many requests were answered.
    pub fn serve(
        &mut self,
        s: &mut Shell,
        script: &mut dyn FnMut(&HttpRequest, Timestamp) -> Reply,
    ) -> usize {
        let mut n = 0;
        loop {
            let batch: Vec<Output> = s.effects.drain(..).collect();
            let mut any = false;
            for out in batch {
                match out {
                    Output::Http { conn, request } => {
                        any = true;
                        n += 1;
                        self.seen.push((conn, request.clone()));
                        let reply = script(&request, s.now);
                        self.answer(s, conn, request.id, reply);
                    }
                    Output::AbortHttp { req, .. } => {
                        self.aborted.push(req);
                        self.held.retain(|(_, r)| *r != req);
                    }
                    Output::CloseLink { conn } => self.closed.push(conn),
                    _ => {}
                }
            }
            if !any {
                return n;
            }
        }
    }

    /// Delivers `reply` for request `req` of `conn`.
    pub fn answer(&mut self, s: &mut Shell, conn: ConnId, req: ReqId, reply: Reply) {
        let mut headers = Vec::new();
        if let Some(id) = &self.session {
            headers.push(("mcp-session-id".to_owned(), id.clone()));
        }
        let (status, ctype, body, end) = match reply {
            Reply::WithHeader(st, h, b) => {
                headers.push(h);
                (st, "text/plain", b.into_bytes(), true)
            }
            Reply::Json(b) => (200, "application/json", b.into_bytes(), true),
            Reply::Accepted => (202, "application/json", Vec::new(), true),
            Reply::Sse { body, end } => (200, "text/event-stream", body.into_bytes(), end),
            Reply::Status(st, b) => (st, "text/plain", b.into_bytes(), true),
            Reply::Bytes(b) => (200, "application/json", b, true),
        };
        headers.push(("content-type".to_owned(), ctype.to_owned()));
        s.input(Input::Http {
            conn,
            event: NetEvent::Head {
                id: req,
                status,
                headers,
            },
        });
        // Like the page's shell: a closed link's fetches are aborted, nothing follows.
        if s.effects
            .iter()
            .any(|o| matches!(o, Output::CloseLink { conn: c } if *c == conn))
        {
            return;
        }
        if !body.is_empty() {
            s.input(Input::Http {
                conn,
                event: NetEvent::Chunk(req, body),
            });
        }
        if end {
            s.input(Input::Http {
                conn,
                event: NetEvent::End(req),
            });
        } else {
            self.held.push((conn, req));
        }
    }

    /// More bytes on a held stream.
    pub fn push(&mut self, s: &mut Shell, conn: ConnId, req: ReqId, text: &str) {
        s.input(Input::Http {
            conn,
            event: NetEvent::Chunk(req, text.as_bytes().to_vec()),
        });
    }
}

/// The JSON-RPC method of a POST's body.
pub fn rpc_method(r: &HttpRequest) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(r.body.as_deref()?).ok()?;
    v.get("method")?.as_str().map(str::to_owned)
}

/// A header's value (name compared ignoring case).
pub fn header<'a>(r: &'a HttpRequest, name: &str) -> Option<&'a str> {
    r.headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// One SSE event carrying `data`, with an optional id.
pub fn event(id: Option<&str>, data: &str) -> String {
    match id {
        Some(id) => format!("id: {id}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// The demo server over HTTP: requests answered with JSON (or SSE when the server
/// sends more than one message), notifications and responses with 202, no GET
/// stream (405), DELETE 200.
pub fn demo(server: &mut DemoServer, req: &HttpRequest, now: Timestamp) -> Reply {
    match req.method {
        Method::Get => return Reply::Status(405, "no stream here".into()),
        Method::Delete => return Reply::Status(200, String::new()),
        Method::Post => {}
    }
    let body = req.body.clone().unwrap_or_default();
    let is_request = serde_json::from_str::<serde_json::Value>(&body)
        .is_ok_and(|v| v.get("id").is_some() && v.get("method").is_some());
    server.handle_text(now, &body);
    let mut out = Vec::new();
    while let Some(m) = server.poll_transmit() {
        out.push(m.raw().to_owned());
    }
    while server.poll_event().is_some() {}
    match (is_request, out.len()) {
        (false, _) => Reply::Accepted,
        (true, 1) => Reply::Json(out.remove(0)),
        (true, _) => Reply::Sse {
            body: out.iter().map(|m| event(None, m)).collect(),
            end: true,
        },
    }
}
