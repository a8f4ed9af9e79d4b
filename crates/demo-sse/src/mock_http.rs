//! A recorded session served over Streamable HTTP (`mcpg mock SESSION --http`),
//! sans-IO: the loopback checks of [`crate::guard`], then each POST handed to a
//! [`Mock`]. `initialize` opens a session with its own copy of the mock (each
//! session replays the recording from its start), named by `Mcp-Session-Id`; a
//! request without that header goes to one shared mock (the stateless
//! generation, when the recording is of a 2026-07-28 server). An answer is JSON;
//! when the recorded server asked the client something first, the answer is an
//! event stream that carries the question, stays open while the client POSTs its
//! answer (202), and carries the next question or the held answer, then ends.

use std::collections::VecDeque;

use mcpg_recording::mock::Mock;
use serde_json::Value;

use crate::guard::{self, HttpRequest, PATH};
use crate::refusals::{is_initialize, rpc_error, unknown_session};
use crate::{Answer, Push, StreamId};

/// Sessions kept at most (the oldest is ended first).
const MAX_SESSIONS: usize = 64;

/// Questions waited for at most (the oldest stream is ended first): a client that
/// calls and never answers cannot grow this.
const MAX_WAITING: usize = 256;

/// A question asked on a stream, waiting for the client's answer.
#[derive(Debug)]
struct Waiting {
    /// The session it was asked in (`None`: the shared mock).
    session: Option<String>,
    /// The question's id (`mock-N`).
    question: String,
    /// The stream the answer goes to.
    stream: StreamId,
}

/// The server: who may talk to it, the recording and its sessions.
#[derive(Debug)]
pub struct HttpMock {
    hosts: Vec<String>,
    origins: Vec<String>,
    id_prefix: String,
    next_id: u64,
    /// The recording as loaded, copied for each new session.
    fresh: Mock,
    /// The mock for requests outside a session.
    shared: Mock,
    sessions: VecDeque<(String, Mock)>,
    waiting: Vec<Waiting>,
    pushes: VecDeque<Push>,
    streams: u64,
}

impl HttpMock {
    /// A server for `mock` that answers only `Host`s in `hosts` and `Origin`s in
    /// `origins` (as [`crate::HttpDemo::new`]); session ids are `id_prefix` and a
    /// counter (the I/O layer passes a random prefix).
    pub fn new(mock: Mock, hosts: Vec<String>, origins: Vec<String>, id_prefix: String) -> Self {
        HttpMock {
            hosts,
            origins,
            id_prefix,
            next_id: 0,
            shared: mock.clone(),
            fresh: mock,
            sessions: VecDeque::new(),
            waiting: Vec::new(),
            pushes: VecDeque::new(),
            streams: 0,
        }
    }

    /// Answers one request; an answer with `stream` set stays open (its later
    /// chunks and its end come from [`HttpMock::poll_push`]).
    pub fn answer(&mut self, req: &HttpRequest<'_>) -> Answer {
        if let Some(refused) = guard::rebinding(&self.hosts, &self.origins, req) {
            return refused;
        }
        if req.path != PATH {
            return Answer::not_found();
        }
        let session = req.header("mcp-session-id");
        match req.method {
            "POST" => guard::post(req).unwrap_or_else(|| self.post(req.body, session)),
            "DELETE" => match session {
                None => rpc_error(400, -32600, "DELETE needs the Mcp-Session-Id to end"),
                Some(id) => match self.find(id) {
                    Some(i) => {
                        self.sessions.remove(i);
                        self.end_waiting(id);
                        Answer::empty(200)
                    }
                    None => unknown_session(),
                },
            },
            // The recording has nothing to say unasked: no GET stream.
            _ => Answer::not_allowed("POST, DELETE"),
        }
    }

    /// The next chunk or end for an open stream.
    pub fn poll_push(&mut self) -> Option<Push> {
        self.pushes.pop_front()
    }

    /// The client closed stream `stream`: its question is not waited for any more.
    pub fn handle_closed(&mut self, stream: StreamId) {
        self.waiting.retain(|w| w.stream != stream);
    }

    /// The answer for a body the I/O layer stopped reading at `MAX_BODY` + 1.
    pub fn too_large() -> Answer {
        guard::too_large()
    }

    /// How many sessions are open.
    pub fn open_sessions(&self) -> usize {
        self.sessions.len()
    }

    fn post(&mut self, body: &[u8], session: Option<&str>) -> Answer {
        let msg = std::str::from_utf8(body)
            .ok()
            .and_then(|b| serde_json::from_str::<Value>(b).ok());
        let Some(msg) = msg.filter(Value::is_object) else {
            return rpc_error(400, -32700, "the body is not one JSON-RPC message");
        };
        let text = std::str::from_utf8(body).unwrap_or_default();
        let (mock, key) = match session {
            Some(id) => match self.find(id).and_then(|i| self.sessions.get_mut(i)) {
                Some((_, mock)) => (mock, Some(id.to_owned())),
                None => return unknown_session(),
            },
            None if is_initialize(text) => {
                let id = format!("{}{}", self.id_prefix, self.next_id);
                self.next_id += 1;
                if self.sessions.len() >= MAX_SESSIONS
                    && let Some((old, _)) = self.sessions.pop_front()
                {
                    self.end_waiting(&old);
                }
                let mut mock = self.fresh.clone();
                let out = mock.handle(&msg);
                self.sessions.push_back((id.clone(), mock));
                let mut answer = json_answer(out.first());
                answer.headers.push(("mcp-session-id".into(), id));
                return answer;
            }
            None => (&mut self.shared, None),
        };
        let is_request = msg.get("method").is_some();
        let out = mock.handle(&msg);
        let Some(next) = out.into_iter().next() else {
            // A notification, or the client's answer to no question of ours.
            return Answer::empty(202);
        };
        if is_request {
            if !is_question(&next) {
                return json_answer(Some(&next));
            }
            self.streams += 1;
            let stream = StreamId(self.streams);
            self.wait(key, &next, stream);
            return Answer {
                status: 200,
                headers: vec![
                    ("content-type".into(), "text/event-stream".into()),
                    ("cache-control".into(), "no-cache".into()),
                ],
                body: event(&next),
                stream: Some(stream),
            };
        }
        // The client answered a question: what follows goes to the stream it was
        // asked on, and this POST is accepted.
        let answered = msg.get("id").and_then(Value::as_str).unwrap_or_default();
        let at = self
            .waiting
            .iter()
            .position(|w| w.session == key && w.question == answered);
        if let Some(at) = at {
            let w = self.waiting.remove(at);
            self.pushes.push_back(Push::Chunk {
                stream: w.stream,
                text: event(&next),
            });
            if is_question(&next) {
                self.wait(key, &next, w.stream);
            } else {
                self.pushes.push_back(Push::End(w.stream));
            }
        }
        Answer::empty(202)
    }

    /// Remembers that `question` waits on `stream`.
    fn wait(&mut self, session: Option<String>, question: &Value, stream: StreamId) {
        if self.waiting.len() >= MAX_WAITING {
            let oldest = self.waiting.remove(0);
            self.pushes.push_back(Push::End(oldest.stream));
        }
        let id = question
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default();
        self.waiting.push(Waiting {
            session,
            question: id.to_owned(),
            stream,
        });
    }

    /// Ends the streams of session `id`'s open questions (it ended).
    fn end_waiting(&mut self, id: &str) {
        let (ended, kept): (Vec<Waiting>, Vec<Waiting>) = std::mem::take(&mut self.waiting)
            .into_iter()
            .partition(|w| w.session.as_deref() == Some(id));
        self.waiting = kept;
        self.pushes
            .extend(ended.into_iter().map(|w| Push::End(w.stream)));
    }

    fn find(&self, id: &str) -> Option<usize> {
        self.sessions.iter().position(|(s, _)| s == id)
    }
}

/// A message the server sends as a request of its own (a recorded question).
fn is_question(msg: &Value) -> bool {
    msg.get("method").is_some() && msg.get("id").is_some()
}

/// One SSE event carrying `msg`.
fn event(msg: &Value) -> String {
    format!("event: message\ndata: {msg}\n\n")
}

/// `msg` as a 200 JSON body (202 when there is none).
fn json_answer(msg: Option<&Value>) -> Answer {
    match msg {
        Some(m) => Answer {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: m.to_string(),
            stream: None,
        },
        None => Answer::empty(202),
    }
}

#[cfg(test)]
mod tests;
