//! A session's requests (`post_session`, with the held calls of `held.rs`), its
//! GET stream, and what ends with it.

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message};

use super::{HttpDemo, HttpRequest};
use crate::listen::is_unsolicited;
use crate::refusals::{accepts, rpc_error, unknown_session};
use crate::{Answer, StreamId, streamable};

impl HttpDemo {
    /// A POST in session `id`.
    pub(super) fn post_session(&mut self, now: Timestamp, body: &str, id: &str) -> Answer {
        let Some((_, s)) = self.find(id).and_then(|i| self.sessions.get_mut(i)) else {
            return unknown_session();
        };
        let call = Message::decode(body).ok().and_then(|m| match m.body() {
            Body::Request { id, .. } => Some(id.clone()),
            _ => None,
        });
        // News the demo sends unasked goes to the session's GET stream, when one
        // is open (else it stays in this response); after the client's answer
        // to a question, the rest of the call that asked goes to its held stream.
        let get = self.gets.iter().find(|(g, _)| g == id).map(|(_, st)| *st);
        let listens = &mut self.listens;
        let held = &mut self.held;
        let answering = call.is_none();
        let hold = StreamId(self.streams + 1);
        let answer = streamable::post_with(
            s,
            now,
            body,
            &mut |m| match get {
                Some(st) if is_unsolicited(m) => {
                    listens.push(st, m);
                    true
                }
                _ => answering && held.route(id, m, listens),
            },
            Some(hold),
        );
        if let Some(call) = call
            && answer.stream == Some(hold)
        {
            self.streams += 1;
            self.held.hold(id, call, hold, &mut self.listens);
        }
        answer
    }

    pub(super) fn get(&mut self, req: &HttpRequest<'_>, session: Option<&str>) -> Answer {
        if !accepts(
            req.header("accept").unwrap_or_default(),
            "text/event-stream",
        ) {
            return rpc_error(406, -32600, "a GET stream needs Accept: text/event-stream");
        }
        match session {
            // The stateless generation has no stream outside a request.
            None => Answer::not_allowed("POST"),
            Some(id) if self.find(id).is_none() => unknown_session(),
            Some(id) => {
                self.streams += 1;
                self.gets.push((id.to_owned(), StreamId(self.streams)));
                Answer {
                    status: 200,
                    headers: vec![
                        ("content-type".into(), "text/event-stream".into()),
                        ("cache-control".into(), "no-cache".into()),
                    ],
                    // A comment: the stream is open; the demo's messages follow.
                    body: ": stream open\n\n".into(),
                    stream: Some(StreamId(self.streams)),
                }
            }
        }
    }

    /// Ends the GET streams and held calls of session `id` (it ended).
    pub(super) fn end_gets(&mut self, id: &str) {
        self.held.end_session(id, &mut self.listens);
        let (ended, kept) = std::mem::take(&mut self.gets)
            .into_iter()
            .partition(|(g, _)| g == id);
        self.gets = kept;
        for (_, stream) in ended {
            self.listens.end(stream);
        }
    }

    pub(super) fn find(&self, id: &str) -> Option<usize> {
        self.sessions.iter().position(|(s, _)| s == id)
    }
}
