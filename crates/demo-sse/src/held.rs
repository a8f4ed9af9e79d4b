//! Calls held open (a session of [`crate::HttpDemo`]): a request whose server
//! asked the client something first (sampling, elicitation) keeps its response
//! stream, whose last event was the question. The client answers in a POST of
//! its own; what the server sends then (the call's notifications, its answer, a
//! further question) goes out on the held stream, which ends with the answer.

use mcpg_core::jsonrpc::{Body, Message, RequestId};

use crate::StreamId;
use crate::listen::Listens;

/// Calls held at most (the oldest is ended first).
const MAX_HELD: usize = 64;

/// One held call: its session, its request id, its stream.
#[derive(Debug)]
struct Call {
    session: String,
    id: RequestId,
    stream: StreamId,
}

/// The calls held open.
#[derive(Debug, Default)]
pub(crate) struct Held {
    calls: Vec<Call>,
}

impl Held {
    /// Call `id` of `session` waits on the client, on `stream`.
    pub fn hold(&mut self, session: &str, id: RequestId, stream: StreamId, listens: &mut Listens) {
        if self.calls.len() >= MAX_HELD {
            let old = self.calls.remove(0);
            listens.finish(old.stream);
        }
        self.calls.push(Call {
            session: session.to_owned(),
            id,
            stream,
        });
    }

    /// Takes `m`, which `session`'s server sent after a message of the client
    /// that is not a request, if it belongs to a held call: its answer (which
    /// ends the stream), or anything else (the oldest held call's: a
    /// notification, or another question). `false` when no call of `session` is held.
    pub fn route(&mut self, session: &str, m: &Message, listens: &mut Listens) -> bool {
        let answers = match m.body() {
            Body::Response { id, .. } | Body::Error { id: Some(id), .. } => Some(id),
            _ => None,
        };
        let found = self
            .calls
            .iter()
            .position(|c| c.session == session && answers.is_none_or(|id| c.id == *id));
        let Some(i) = found else {
            return false;
        };
        let Some(call) = self.calls.get(i) else {
            return false;
        };
        listens.push(call.stream, m);
        if answers.is_some() {
            let call = self.calls.remove(i);
            listens.finish(call.stream);
        }
        true
    }

    /// The client closed `stream`: its call is no longer held (its answer is lost,
    /// as a dropped response's is).
    pub fn closed(&mut self, stream: StreamId) {
        self.calls.retain(|c| c.stream != stream);
    }

    /// `session` ended: its held streams end too.
    pub fn end_session(&mut self, session: &str, listens: &mut Listens) {
        let (ended, kept) = std::mem::take(&mut self.calls)
            .into_iter()
            .partition(|c| c.session == session);
        self.calls = kept;
        for c in ended {
            listens.finish(c.stream);
        }
    }
}
