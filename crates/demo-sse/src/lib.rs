//! The demo server over HTTP with no sign-in, played in-process at one origin under
//! `.invalid` (RFC 2606, which no resolver answers), two ways:
//!
//! - [`SSE_URL`]: the deprecated HTTP+SSE transport (2024-11-05) the way the Python
//!   SDK's `sse_app` serves it. A POST to `/sse` is refused with 405 (so a client
//!   that tries Streamable HTTP first falls back); a GET opens an event stream whose
//!   first event, `endpoint`, names `/messages/?session_id=…`; a POST there is
//!   answered `202 Accepted` and its JSON-RPC answer goes out later as an
//!   `event: message` on the GET stream ([`SseDemo::poll_push`]). The session lives
//!   as long as its stream: when the stream ends, answers not yet sent are lost.
//! - [`MCP_URL`]: Streamable HTTP, each POST answered in its own response.
//!
//! [`HttpDemo`] is the same demo as a server on a real port (`mcpg demo --http`):
//! `Host`/`Origin` checks, sessions, the GET stream and the statuses for bad input.
//!
//! The page answers requests to [`ORIGIN`] with [`SseDemo::answer`] instead of the
//! network, so the lesson that compares the two transports runs from a static
//! page, offline. Like the demo it does no I/O and reads no clock: session ids are
//! derived from a counter, not random (they never leave the page).

mod held;
mod listen;
mod profile;
mod refusals;
mod server;
mod session;
mod sse;
mod stateless;
mod streamable;

use mcpg_core::Timestamp;

pub use profile::{Engine, Profile};
pub use server::{HttpDemo, HttpRequest, MAX_BODY, PATH};
use session::DemoSession;
use sse::Sessions;

/// The origin both endpoints are served at.
pub const ORIGIN: &str = "https://mcp.demo-sse.invalid";
/// The old transport's stream endpoint (GET; a POST is refused with 405).
pub const SSE_URL: &str = "https://mcp.demo-sse.invalid/sse";
/// The same demo over Streamable HTTP.
pub const MCP_URL: &str = "https://mcp.demo-sse.invalid/mcp";

/// One HTTP request, as the page's fetch would have made it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// `GET`, `POST`, `DELETE`.
    pub method: &'a str,
    /// The full URL.
    pub url: &'a str,
    /// The body, if any.
    pub body: Option<&'a str>,
}

/// Names an event stream that stays open after its answer (the old transport's
/// GET): later chunks for it come from [`SseDemo::poll_push`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StreamId(pub u64);

/// The answer the page hands back as the network's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body (for an open stream: its first chunk).
    pub body: String,
    /// Set when the body does not end here: the stream stays open, and its later
    /// chunks and its end come as [`Push`]es.
    pub stream: Option<StreamId>,
}

impl Answer {
    fn text(status: u16, body: &str) -> Answer {
        Answer {
            status,
            headers: vec![("content-type".into(), "text/plain; charset=utf-8".into())],
            body: body.to_owned(),
            stream: None,
        }
    }

    fn empty(status: u16) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: String::new(),
            stream: None,
        }
    }

    fn not_found() -> Answer {
        Answer::text(404, "Not Found")
    }

    /// 405, with the one method the path allows.
    fn not_allowed(allow: &str) -> Answer {
        let mut a = Answer::text(405, "Method Not Allowed");
        a.headers.push(("allow".into(), allow.into()));
        a
    }
}

/// Something for an open stream, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Push {
    /// Bytes of the stream (one or more whole SSE events).
    Chunk {
        /// The stream.
        stream: StreamId,
        /// The text.
        text: String,
    },
    /// The server ended the stream (and with it the session).
    End(StreamId),
}

/// Whether `url` is one the page answers with [`SseDemo::answer`]: its origin is
/// [`ORIGIN`], exactly (no port, no user part).
pub fn is_in_page(url: &str) -> bool {
    url.strip_prefix(ORIGIN)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '?', '#']))
}

/// Both endpoints with their state: the old transport's sessions (each with its
/// own demo and its open stream) and the Streamable HTTP face's demo.
#[derive(Debug, Default)]
pub struct SseDemo {
    sessions: Sessions,
    streamable: DemoSession,
}

impl SseDemo {
    /// No session open.
    pub fn new() -> SseDemo {
        SseDemo::default()
    }

    /// Answers one request to [`ORIGIN`] (anything else: 404).
    pub fn answer(&mut self, now: Timestamp, req: &Request<'_>) -> Answer {
        let Some(rest) = req.url.strip_prefix(ORIGIN).filter(|_| is_in_page(req.url)) else {
            return Answer::not_found();
        };
        let rest = rest.split('#').next().unwrap_or_default();
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        match (path, req.method) {
            ("/sse", "GET") => self.sessions.open(),
            ("/sse", _) => Answer::not_allowed("GET"),
            ("/messages/", "POST") => self.sessions.post(now, query, req.body.unwrap_or_default()),
            ("/messages/", _) => Answer::not_allowed("POST"),
            ("/mcp", "POST") => {
                streamable::post(&mut self.streamable, now, req.body.unwrap_or_default())
            }
            // No stream for the server's own messages, no session to end.
            ("/mcp", _) => Answer::not_allowed("POST"),
            _ => Answer::not_found(),
        }
    }

    /// The next chunk or end for an open stream.
    pub fn poll_push(&mut self) -> Option<Push> {
        self.sessions.poll_push()
    }

    /// The client dropped stream `stream` (aborted the GET, or went away): its
    /// session ends, and a POST for it is answered 404.
    pub fn handle_closed(&mut self, stream: StreamId) {
        self.sessions.close(stream, false);
    }

    /// Ends stream `stream` from the server's side (a restart, a proxy's timeout):
    /// a [`Push::End`] follows, and its session is gone with whatever it had not
    /// sent yet. For tests and the lesson's "what if the stream drops".
    pub fn cut(&mut self, stream: StreamId) {
        self.sessions.close(stream, true);
    }

    /// How many sessions of the old transport are open.
    pub fn open_sessions(&self) -> usize {
        self.sessions.len()
    }
}
