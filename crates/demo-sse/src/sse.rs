//! The deprecated HTTP+SSE transport (2024-11-05), served as the Python SDK's
//! `sse_app` serves it: `GET /sse` opens a stream whose first event names the
//! session's POST endpoint; each POST there is `202 Accepted` and its answer goes
//! out on that stream. A session is its stream: when the stream ends, the session
//! and every answer it had not sent yet are gone (the transport has no resumption).

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::Message;

use crate::session::DemoSession;
use crate::{Answer, Push, StreamId};

/// Sessions open at once at most: opening one more ends the oldest's stream.
const MAX_SESSIONS: usize = 8;

/// The revision this face's server speaks: the old transport's.
const OLD_REVISION: &str = "2024-11-05";

/// The open sessions and what waits to go out on their streams.
#[derive(Debug, Default)]
pub(crate) struct Sessions {
    open: Vec<Session>,
    /// Sessions opened so far (numbers the streams and derives the ids).
    opened: u64,
    pushes: VecDeque<Push>,
}

#[derive(Debug)]
struct Session {
    /// 32 hex digits, as the SDK's `uuid4().hex`.
    id: String,
    stream: StreamId,
    demo: DemoSession,
}

/// One SSE event, with the CRLF line ends the SDK's server writes.
fn event(name: &str, data: &str) -> String {
    format!("event: {name}\r\ndata: {data}\r\n\r\n")
}

/// The session id of the `n`th session: a counter mixed (splitmix64) into 32 hex
/// digits, so it looks like the SDK's and no two sessions share one.
fn session_id(n: u64) -> String {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    format!("{:016x}{:016x}", mix(n), mix(n ^ 0xA5A5_A5A5_A5A5_A5A5))
}

/// `initialize` as this face's server reads it: a server that speaks only
/// 2024-11-05 answers with that revision whatever the client asked for (the
/// demo's core would otherwise accept a later one).
fn as_old_server(msg: Message) -> Message {
    if msg.method() != Some("initialize") {
        return msg;
    }
    let mut v = msg.to_value();
    if let Some(p) = v.get_mut("params").and_then(|p| p.as_object_mut()) {
        p.insert("protocolVersion".into(), OLD_REVISION.into());
    }
    Message::from_value(v).unwrap_or(msg)
}

impl Sessions {
    /// `GET /sse`: a new session, its stream's head and its `endpoint` event.
    pub fn open(&mut self) -> Answer {
        self.opened += 1;
        let id = session_id(self.opened);
        let stream = StreamId(self.opened);
        if self.open.len() >= MAX_SESSIONS {
            let oldest = self.open.remove(0);
            self.drop_pushes(oldest.stream);
            self.pushes.push_back(Push::End(oldest.stream));
        }
        let body = event("endpoint", &format!("/messages/?session_id={id}"));
        self.open.push(Session {
            id,
            stream,
            demo: DemoSession::default(),
        });
        Answer {
            status: 200,
            headers: vec![
                ("content-type".into(), "text/event-stream".into()),
                ("cache-control".into(), "no-store".into()),
            ],
            body,
            stream: Some(stream),
        }
    }

    /// `POST /messages/?…`: one client message for a session (the SDK's answers
    /// and words for each refusal).
    pub fn post(&mut self, now: Timestamp, query: &str, body: &str) -> Answer {
        let Some(id) = query.split('&').find_map(|p| p.strip_prefix("session_id=")) else {
            return Answer::text(400, "session_id is required");
        };
        if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Answer::text(400, "Invalid session ID");
        }
        let Some(s) = self.open.iter_mut().find(|s| s.id == id) else {
            return Answer::text(404, "Could not find session");
        };
        let Ok(msg) = Message::decode(body) else {
            return Answer::text(400, "Could not parse message");
        };
        let stream = s.stream;
        for m in s.demo.handle(now, &as_old_server(msg)) {
            self.pushes.push_back(Push::Chunk {
                stream,
                text: event("message", m.raw()),
            });
        }
        Answer::text(202, "Accepted")
    }

    pub fn poll_push(&mut self) -> Option<Push> {
        self.pushes.pop_front()
    }

    /// Ends the session of `stream`; what it had not sent is lost. `by_server`: the
    /// server ended it, and says so with a [`Push::End`].
    pub fn close(&mut self, stream: StreamId, by_server: bool) {
        let Some(i) = self.open.iter().position(|s| s.stream == stream) else {
            return;
        };
        self.open.remove(i);
        self.drop_pushes(stream);
        if by_server {
            self.pushes.push_back(Push::End(stream));
        }
    }

    fn drop_pushes(&mut self, stream: StreamId) {
        self.pushes.retain(|p| match p {
            Push::Chunk { stream: s, .. } | Push::End(s) => *s != stream,
        });
    }

    pub fn len(&self) -> usize {
        self.open.len()
    }
}
