//! The replay link: a recorded session stands in for the server. Each frame the
//! page sends is looked up in the recording (in order); the frames the server sent
//! after it, up to the next sent frame, come back as its answer. Nothing touches the
//! network.

use std::collections::VecDeque;

use mcpg_core::jsonrpc::{Body, Message, RequestId, RpcError};
use mcpg_recording::{Direction, Recording};
use serde_json::Value;

/// The recording and how far the page has got through it.
#[derive(Debug, Default)]
pub struct ReplayLink {
    /// `(sent by the page, text)` for every recorded frame.
    wire: Vec<(bool, String)>,
    /// The first frame not yet replayed.
    pos: usize,
    inbox: VecDeque<String>,
}

impl ReplayLink {
    /// A replay of `session`, whose received frames must all have their text (an
    /// elided link is rehydrated first); frames without text are skipped.
    pub fn new(session: &Recording) -> Self {
        let wire = session
            .wire
            .iter()
            .filter_map(|w| Some((w.direction == Direction::Sent, w.text.clone()?)))
            .collect();
        ReplayLink {
            wire,
            pos: 0,
            inbox: VecDeque::new(),
        }
    }

    /// The page sends `raw`: when the recording has it (at or after the current
    /// position), the server's recorded answers are queued and `true` is returned;
    /// `false` when the recording never sent it, so nothing can answer.
    pub fn send(&mut self, raw: &str) -> bool {
        let rest = self.wire.get(self.pos..).unwrap_or_default();
        let Some(at) = rest.iter().position(|(sent, t)| *sent && t == raw) else {
            return false;
        };
        let mut i = self.pos + at + 1;
        while let Some((false, text)) = self.wire.get(i) {
            self.inbox.push_back(text.clone());
            i += 1;
        }
        self.pos = i;
        true
    }

    /// The requests the recording sent from here up to its next `tools/list` (the
    /// start of its next loop), as `(method, params)`: what the learner asked in the
    /// panels between loops (a prompt got for **Use in the loop**, a resource read).
    /// The driver sends them again before a replayed loop starts, so the loop's
    /// requests get the ids they had and are found in the recording. The handshake
    /// (`initialize`, `server/discover`) is the connection's own and is left out.
    pub fn requests_before_loop(&self) -> Vec<(String, Option<serde_json::Value>)> {
        let rest = self.wire.get(self.pos..).unwrap_or_default();
        let mut asked = Vec::new();
        for (_, text) in rest.iter().filter(|(sent, _)| *sent) {
            let Ok(serde_json::Value::Object(mut o)) = serde_json::from_str(text) else {
                continue;
            };
            let Some(method) = o.get("method").and_then(|m| m.as_str()).map(str::to_owned) else {
                continue;
            };
            if method == "tools/list" {
                break;
            }
            if o.contains_key("id") && !matches!(method.as_str(), "initialize" | "server/discover")
            {
                asked.push((method, o.remove("params")));
            }
        }
        asked
    }

    /// The recorded session's answer to the server's request `id` (a sent
    /// response from here on): a replay answers the same way.
    pub fn recorded_answer(&self, id: &RequestId) -> Option<Result<Value, RpcError>> {
        let rest = self.wire.get(self.pos..).unwrap_or_default();
        rest.iter()
            .filter(|(sent, _)| *sent)
            .filter_map(|(_, t)| Message::decode(t).ok())
            .find_map(|m| match m.body() {
                Body::Response { id: i, result } if i == id => Some(Ok(result.clone())),
                Body::Error { id: Some(i), error } if i == id => Some(Err(error.clone())),
                _ => None,
            })
    }

    /// The `inputResponses` of the recorded session's next `tools/call` retried
    /// with them (2026-07-28).
    pub fn recorded_retry(&self) -> Option<Value> {
        let rest = self.wire.get(self.pos..).unwrap_or_default();
        rest.iter()
            .filter(|(sent, _)| *sent)
            .filter_map(|(_, t)| serde_json::from_str::<Value>(t).ok())
            .find_map(|v| v.pointer("/params/inputResponses").cloned())
    }

    /// Frames from the "server", oldest first.
    pub fn take_incoming(&mut self) -> Vec<String> {
        self.inbox.drain(..).collect()
    }

    /// The next frame from the "server".
    pub fn pop(&mut self) -> Option<String> {
        self.inbox.pop_front()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use mcpg_recording::{Connection, WireRecord};

    fn rec(sent: bool, text: &str) -> WireRecord {
        WireRecord {
            direction: if sent {
                Direction::Sent
            } else {
                Direction::Received
            },
            at_ms: 0,
            text: Some(text.into()),
            hash: None,
        }
    }

    #[test]
    fn answers_each_sent_frame_with_what_followed_it() {
        let mut s = Recording::new(Connection::Embedded);
        s.wire = vec![
            rec(true, "a"),
            rec(false, "ra"),
            rec(true, "n"),
            rec(true, "b"),
            rec(true, "c"),
            rec(false, "rb"),
            rec(false, "rc"),
        ];
        let mut r = ReplayLink::new(&s);
        assert!(r.send("a"));
        assert_eq!(r.take_incoming(), ["ra"]);
        assert!(r.send("n"));
        assert!(r.send("b"));
        assert!(r.take_incoming().is_empty());
        assert!(r.send("c"));
        assert_eq!(r.take_incoming(), ["rb", "rc"]);
        // Past the recording, or something it never sent: no answer.
        assert!(!r.send("a"));
        assert!(!r.send("zzz"));
        assert!(r.take_incoming().is_empty());
    }

    #[test]
    fn the_requests_before_the_next_loop_are_the_panels_own() {
        let mut s = Recording::new(Connection::Embedded);
        let req = |id: u32, m: &str| {
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{m}","params":{{"n":{id}}}}}"#)
        };
        s.wire = vec![
            rec(true, &req(1, "initialize")),
            rec(false, "ri"),
            rec(
                true,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            ),
            rec(true, &req(2, "prompts/get")),
            rec(false, "rp"),
            rec(true, &req(3, "tools/list")),
            rec(true, &req(4, "resources/read")),
        ];
        let r = ReplayLink::new(&s);
        let asked = r.requests_before_loop();
        assert_eq!(asked.len(), 1);
        assert_eq!(asked[0].0, "prompts/get");
        assert_eq!(asked[0].1, Some(serde_json::json!({"n": 2})));
    }
}
