//! Resumption of a session's GET stream (Streamable HTTP, 2025-11-25: "the server
//! MAY use `Last-Event-ID` to replay messages that would have been sent after the
//! last event ID, on the stream that was disconnected"). Each event on a session's
//! GET stream carries an `id:` unique in that session, and the last
//! [`KEPT_EVENTS`] are kept; a GET that names one with `Last-Event-ID` gets those
//! after it first. A push the I/O layer could not deliver (the client had gone) is
//! so not lost. Held calls' streams and POST responses carry no ids: the spec
//! forbids replaying a message on another stream than its own, and those streams
//! end with their answer.

use std::collections::VecDeque;

use mcpg_core::jsonrpc::Message;

/// Events kept per session for a resuming GET (the oldest are forgotten).
pub const KEPT_EVENTS: usize = 64;

/// The events a session's GET streams carried, with their ids.
#[derive(Debug, Default)]
pub(crate) struct EventLog {
    /// The last id given (ids start at 1).
    last: u64,
    kept: VecDeque<(u64, String)>,
}

impl EventLog {
    /// `m` as an SSE event with the next id, kept for a resuming GET.
    pub fn record(&mut self, m: &Message) -> String {
        self.last += 1;
        let text = format!("id: {}\nevent: message\ndata: {}\n\n", self.last, m.raw());
        if self.kept.len() >= KEPT_EVENTS {
            self.kept.pop_front();
        }
        self.kept.push_back((self.last, text.clone()));
        text
    }

    /// The kept events after `last_event_id` (the `Last-Event-ID` header), in order;
    /// nothing for an id this log never gave.
    pub fn after(&self, last_event_id: &str) -> String {
        let Ok(seen) = last_event_id.trim().parse::<u64>() else {
            return String::new();
        };
        if seen > self.last {
            return String::new();
        }
        self.kept
            .iter()
            .filter(|(id, _)| *id > seen)
            .map(|(_, text)| text.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn note(n: u32) -> Message {
        Message::decode(&format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":{n}}}}}"#
        ))
        .unwrap()
    }

    #[test]
    fn ids_count_up_and_a_resume_gets_only_what_came_after() {
        let mut log = EventLog::default();
        let first = log.record(&note(1));
        assert!(
            first.starts_with("id: 1\nevent: message\ndata: "),
            "{first}"
        );
        log.record(&note(2));
        log.record(&note(3));
        let after = log.after("1");
        assert!(
            after.starts_with("id: 2\n") && after.contains("id: 3\n"),
            "{after}"
        );
        assert!(!after.contains("id: 1\n"));
        assert_eq!(log.after("3"), "");
        // Not an id of this log: nothing is replayed (never a guess).
        assert_eq!(log.after("9"), "");
        assert_eq!(log.after("abc"), "");
    }

    #[test]
    fn only_the_last_events_are_kept() {
        let mut log = EventLog::default();
        for n in 0..(KEPT_EVENTS as u32 + 10) {
            log.record(&note(n));
        }
        let all = log.after("0");
        assert_eq!(all.matches("event: message").count(), KEPT_EVENTS);
        assert!(all.starts_with("id: 11\n"), "{}", &all[..20]);
    }
}
