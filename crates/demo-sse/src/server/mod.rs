//! The demo as a real Streamable HTTP server (`mcpg demo --http`), sans-IO: the
//! checks a server on a port must make before it answers (DNS rebinding: `Host` and
//! `Origin`; the body's size, type and the client's `Accept`), then both
//! generations at one path. `initialize` opens a session with its own demo, named
//! by `Mcp-Session-Id`; a request with that header goes to it, an unknown id is
//! 404, `DELETE` ends it, and a `GET` opens its stream for the server's own
//! messages. A request with no session header and no `initialize` is the
//! stateless generation (2026-07-28), answered by one shared demo.

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message};

mod sessions;

use crate::held::Held;
use crate::listen::{Listens, is_listen};
use crate::profile::Profile;
use crate::refusals::{accepts, is_initialize, rpc_error, unknown_session};
use crate::session::DemoSession;
use crate::{Answer, Push, StreamId, stateless, streamable};

/// The largest body accepted; a larger one is 413. The demo's own inputs are small.
pub const MAX_BODY: usize = 4 << 20;

/// Sessions kept at most (the oldest is ended first): a client that opens
/// sessions and never ends them cannot grow this.
const MAX_SESSIONS: usize = 64;

/// One request as the I/O layer read it.
#[derive(Clone, Copy, Debug)]
pub struct HttpRequest<'a> {
    /// `GET`, `POST`, `DELETE`, ...
    pub method: &'a str,
    /// The path (no query).
    pub path: &'a str,
    /// Headers as sent (names in any case).
    pub headers: &'a [(&'a str, &'a str)],
    /// The body (at most [`MAX_BODY`] + 1 bytes: the I/O layer stops reading there).
    pub body: &'a [u8],
}

impl HttpRequest<'_> {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }
}

/// The path the demo is served at.
pub const PATH: &str = "/mcp";

/// The server: who may talk to it, its sessions and the stateless demo.
#[derive(Debug)]
pub struct HttpDemo {
    hosts: Vec<String>,
    origins: Vec<String>,
    id_prefix: String,
    next_id: u64,
    sessions: VecDeque<(String, DemoSession<Profile>)>,
    stateless: DemoSession<Profile>,
    listens: Listens,
    /// Open GET streams: the session and its stream.
    gets: Vec<(String, StreamId)>,
    streams: u64,
    /// Calls whose server asked the client first, held open.
    held: Held,
    /// What makes each session's server.
    profile: Profile,
}

impl HttpDemo {
    /// A server that answers only `Host`s in `hosts` (`host:port`, compared without
    /// case) and `Origin`s in `origins` (a request with no `Origin` is not from a
    /// browser and passes). Session ids are `id_prefix` and a counter: the I/O layer
    /// passes a random prefix, so ids cannot be guessed.
    pub fn new(hosts: Vec<String>, origins: Vec<String>, id_prefix: String) -> HttpDemo {
        HttpDemo::with_profile(hosts, origins, id_prefix, Profile::DEMO)
    }

    /// [`HttpDemo::new`] serving `profile`'s server instead of the lessons' demo.
    pub fn with_profile(
        hosts: Vec<String>,
        origins: Vec<String>,
        id_prefix: String,
        profile: Profile,
    ) -> HttpDemo {
        HttpDemo {
            profile,
            hosts,
            origins,
            id_prefix,
            next_id: 0,
            sessions: VecDeque::new(),
            stateless: DemoSession::new(profile),
            listens: Listens::default(),
            gets: Vec::new(),
            held: Held::default(),
            streams: 0,
        }
    }

    /// How many sessions are open.
    pub fn open_sessions(&self) -> usize {
        self.sessions.len()
    }

    /// Answers one request. A `GET` stream's answer has `stream` set: the I/O layer
    /// keeps it open until the client goes.
    pub fn answer(&mut self, now: Timestamp, req: &HttpRequest<'_>) -> Answer {
        if let Some(refused) = self.refuse(req) {
            return refused;
        }
        if req.path != PATH {
            return Answer::not_found();
        }
        let session = req.header("mcp-session-id");
        match req.method {
            "POST" => self.post(now, req, session),
            "GET" => self.get(req, session),
            "DELETE" => match session {
                None => rpc_error(400, -32600, "DELETE needs the Mcp-Session-Id to end"),
                Some(id) => match self.find(id) {
                    Some(i) => {
                        self.sessions.remove(i);
                        self.end_gets(id);
                        Answer::empty(200)
                    }
                    None => unknown_session(),
                },
            },
            _ => Answer::not_allowed("GET, POST, DELETE"),
        }
    }

    /// The next chunk for an open stream (a `subscriptions/listen` stream, or a
    /// session's GET stream), or its end (the session ended).
    pub fn poll_push(&mut self) -> Option<Push> {
        self.listens.poll_push()
    }

    /// The client closed stream `stream`.
    pub fn handle_closed(&mut self, stream: StreamId) {
        self.listens.closed(stream);
        self.held.closed(stream);
        self.gets.retain(|(_, s)| *s != stream);
    }

    /// The answer for a body the I/O layer stopped reading at [`MAX_BODY`] + 1.
    pub fn too_large() -> Answer {
        rpc_error(
            413,
            -32600,
            "the body is larger than this server accepts (4 MiB)",
        )
    }

    /// DNS rebinding: a `Host` that is not this server's, then a foreign `Origin`.
    fn refuse(&self, req: &HttpRequest<'_>) -> Option<Answer> {
        let host_ok = req
            .header("host")
            .is_some_and(|h| self.hosts.iter().any(|ok| ok.eq_ignore_ascii_case(h)));
        if !host_ok {
            return Some(Answer::text(
                421,
                "Misdirected Request: the Host is not this server (DNS rebinding protection)",
            ));
        }
        let origin_ok = req
            .header("origin")
            .is_none_or(|o| self.origins.iter().any(|ok| ok.eq_ignore_ascii_case(o)));
        (!origin_ok).then(|| Answer::text(403, "Forbidden: this Origin may not use the server"))
    }

    fn post(&mut self, now: Timestamp, req: &HttpRequest<'_>, session: Option<&str>) -> Answer {
        if req.body.len() > MAX_BODY {
            return HttpDemo::too_large();
        }
        let json = req
            .header("content-type")
            .and_then(|c| c.split(';').next())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return rpc_error(415, -32600, "Content-Type must be application/json");
        }
        let accept = req.header("accept").unwrap_or_default();
        if !(accepts(accept, "application/json") && accepts(accept, "text/event-stream")) {
            return rpc_error(
                406,
                -32600,
                "Accept must include both application/json and text/event-stream",
            );
        }
        let Ok(body) = std::str::from_utf8(req.body) else {
            // Not UTF-8, so not JSON: the face's parse error (400).
            return streamable::post(&mut self.stateless, now, "");
        };
        match session {
            Some(id) => self.post_session(now, body, id),
            None if is_initialize(body)
                && !stateless::stamped(body, req.header("mcp-protocol-version")) =>
            {
                let mut s = DemoSession::new(self.profile);
                let mut answer = streamable::post(&mut s, now, body);
                if answer.status == 200 {
                    let id = format!("{}{}", self.id_prefix, self.next_id);
                    self.next_id += 1;
                    if self.sessions.len() >= MAX_SESSIONS
                        && let Some((old, _)) = self.sessions.pop_front()
                    {
                        self.end_gets(&old);
                    }
                    self.sessions.push_back((id.clone(), s));
                    answer.headers.push(("mcp-session-id".into(), id));
                }
                answer
            }
            None => {
                if let Some(refused) = stateless::refuse(body, |n| req.header(n)) {
                    return refused;
                }
                if is_listen(body)
                    && let Ok(msg) = Message::decode(body)
                    && let Body::Request { id, .. } = msg.body()
                {
                    self.streams += 1;
                    let stream = StreamId(self.streams);
                    return self
                        .listens
                        .open(&mut self.stateless, now, &msg, id, stream);
                }
                let listens = &mut self.listens;
                let mut answer = streamable::post_with(
                    &mut self.stateless,
                    now,
                    body,
                    &mut |m| listens.divert(m),
                    None,
                );
                stateless::status(&mut answer);
                answer
            }
        }
    }
}
