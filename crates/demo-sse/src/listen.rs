//! `subscriptions/listen` (2026-07-28) on the stateless face: the request's answer
//! is an event stream that stays open (its first event the demo's
//! `notifications/subscriptions/acknowledged`), and every later change
//! notification naming that subscription goes out on it as a [`Push`] instead of
//! in the response of whichever request caused it.

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message, RequestId};
use serde_json::Value;

use crate::profile::Make;
use crate::session::DemoSession;
use crate::{Answer, Push, StreamId, stateless};

/// `_meta` key naming the listen stream a notification belongs to.
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// Pushes waiting for the I/O layer at most (the oldest are dropped).
const MAX_PUSHES: usize = 1024;

/// Open listen streams and what waits to go out on them.
#[derive(Debug, Default)]
pub(crate) struct Listens {
    /// The subscription id (the listen request's id, as JSON) and its stream.
    streams: Vec<(String, StreamId)>,
    pushes: VecDeque<Push>,
}

impl Listens {
    /// Hands the listen request `msg` (id `id`) to the demo; its answer opens
    /// `stream`, unless the demo refused it (then the refusal, with its status).
    pub fn open<M: Make>(
        &mut self,
        session: &mut DemoSession<M>,
        now: Timestamp,
        msg: &Message,
        id: &RequestId,
        stream: StreamId,
    ) -> Answer {
        let sent = session.handle(now, msg);
        // The demo never answers a listen request: stop waiting for it.
        session.give_up(id);
        let mut body = String::new();
        for m in &sent {
            if let Body::Error { id: Some(r), .. } = m.body()
                && r == id
            {
                let mut refused = json_answer(m.raw());
                stateless::status(&mut refused);
                return refused;
            }
            body.push_str(&event(m));
        }
        self.streams.push((id.to_value().to_string(), stream));
        Answer {
            status: 200,
            headers: vec![
                ("content-type".into(), "text/event-stream".into()),
                ("cache-control".into(), "no-cache".into()),
            ],
            body,
            stream: Some(stream),
        }
    }

    /// Takes `m` if it belongs to a listen stream: queued for its stream, or
    /// dropped when that stream is gone. `false` for anything else.
    pub fn divert(&mut self, m: &Message) -> bool {
        if !matches!(m.body(), Body::Notification { .. }) {
            return false;
        }
        let Some(sub) = m
            .params()
            .and_then(|p| p.get("_meta"))
            .and_then(|meta| meta.get(SUBSCRIPTION_ID))
        else {
            return false;
        };
        let key = sub.to_string();
        if let Some(&(_, stream)) = self.streams.iter().find(|(k, _)| *k == key) {
            self.push(stream, m);
        }
        true
    }

    /// Queues `m` for `stream` (a session's GET stream).
    pub fn push(&mut self, stream: StreamId, m: &Message) {
        if self.pushes.len() >= MAX_PUSHES {
            self.pushes.pop_front();
        }
        self.pushes.push_back(Push::Chunk {
            stream,
            text: event(m),
        });
    }

    /// Ends `stream` from the server's side (its session ended).
    pub fn end(&mut self, stream: StreamId) {
        self.closed(stream);
        self.pushes.push_back(Push::End(stream));
    }

    /// Ends `stream` after what is queued for it (a held call was answered).
    pub fn finish(&mut self, stream: StreamId) {
        self.streams.retain(|(_, s)| *s != stream);
        self.pushes.push_back(Push::End(stream));
    }

    /// The next chunk for an open listen stream.
    pub fn poll_push(&mut self) -> Option<Push> {
        self.pushes.pop_front()
    }

    /// The client closed `stream`: nothing more goes to it.
    pub fn closed(&mut self, stream: StreamId) {
        self.streams.retain(|(_, s)| *s != stream);
        self.pushes
            .retain(|p| !matches!(p, Push::Chunk { stream: s, .. } if *s == stream));
    }
}

/// Whether `m` is news the client did not ask for in a request (a list changed, a
/// subscribed resource was updated): a session's GET stream carries it.
pub(crate) fn is_unsolicited(m: &Message) -> bool {
    matches!(m.body(), Body::Notification { .. })
        && m.method()
            .is_some_and(|n| n.ends_with("/list_changed") || n == "notifications/resources/updated")
}

/// Whether `body` is a `subscriptions/listen` request.
pub(crate) fn is_listen(body: &str) -> bool {
    serde_json::from_str::<Value>(body)
        .ok()
        .is_some_and(|v| v.get("method").and_then(Value::as_str) == Some("subscriptions/listen"))
}

fn event(m: &Message) -> String {
    format!("event: message\ndata: {}\n\n", m.raw())
}

fn json_answer(body: &str) -> Answer {
    Answer {
        status: 200,
        headers: vec![("content-type".into(), "application/json".into())],
        body: body.to_owned(),
        stream: None,
    }
}
