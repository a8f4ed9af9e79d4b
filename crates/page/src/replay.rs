//! The replay link: a recorded session stands in for the server. Each frame the
//! page sends is looked up in the recording (in order); the frames the server sent
//! after it, up to the next sent frame, come back as its answer. Nothing touches the
//! network.

use std::collections::VecDeque;

use mcpg_session::{Direction, Session};

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
    pub fn new(session: &Session) -> Self {
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
    use mcpg_session::{Connection, WireRecord};

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
        let mut s = Session::new(Connection::Embedded);
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
}
