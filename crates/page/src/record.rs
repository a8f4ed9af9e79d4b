//! What a shared session is built from, recorded as the page runs, and the pure
//! halves of sharing: the connection a source maps to (never a secret), and the
//! shortened document a link carries.

use std::sync::Arc;

use mcpg_demo::{DemoServer, Handlers};
use mcpg_loop_data::{ModelTurn, Turn};
use mcpg_recording::{
    Connection, Direction, Recording, SeedRole, SeedTurn, WireRecord, rehydrate_with,
};

use crate::view::{Source, Unrecorded};

/// The most bytes of wire text one connection's recording keeps (issue 26: a
/// server that floods the page must not grow its memory without end). A session
/// past it keeps its start, which is what a replay needs (the handshake, the first
/// loops); the rest is left out and the page says so ([`Unrecorded`]).
pub const RECORD_CEILING_BYTES: usize = 16 << 20;

/// What a shared session needs from the live connection.
#[derive(Clone, Debug)]
pub struct Recorder {
    /// The user's message of every loop, in order.
    pub prompts: Vec<String>,
    /// The seed of every loop (aligned with `prompts`): a prompt's messages, or
    /// `None` for a loop started from one message.
    pub seeds: Vec<Option<Vec<SeedTurn>>>,
    /// Model turns of the loops before the current one, as script entries.
    pub played: Vec<serde_json::Value>,
    /// The current loop's model turns so far, as script entries (kept by the later
    /// parts as the loop moves).
    pub loop_played: Vec<serde_json::Value>,
    /// The current loop's steps as recorded (`{"n", "status"}`), kept likewise.
    pub loop_steps: Vec<serde_json::Value>,
    /// Every wire message up to the ceiling: sent by the page, ms since the
    /// connection started, text (each text shared with the log).
    wire: Vec<(bool, u64, Arc<str>)>,
    /// The bytes of `wire`'s texts.
    wire_bytes: usize,
    /// The most bytes `wire` may hold.
    ceiling: usize,
    /// What did not fit.
    unrecorded: Unrecorded,
}

impl Default for Recorder {
    fn default() -> Recorder {
        Recorder::with_ceiling(RECORD_CEILING_BYTES)
    }
}

impl Recorder {
    /// An empty recorder that keeps at most `ceiling` bytes of wire text.
    pub(crate) fn with_ceiling(ceiling: usize) -> Recorder {
        Recorder {
            prompts: Vec::new(),
            seeds: Vec::new(),
            loop_played: Vec::new(),
            loop_steps: Vec::new(),
            played: Vec::new(),
            wire: Vec::new(),
            wire_bytes: 0,
            ceiling,
            unrecorded: Unrecorded::default(),
        }
    }

    /// Records one wire message, or counts it as left out: once one message does
    /// not fit, none after it is recorded either (a recording with a hole in it
    /// would replay as a different session).
    pub(crate) fn record_wire(&mut self, sent: bool, at_ms: u64, raw: Arc<str>) {
        let fits = self.unrecorded.messages == 0
            && self.wire_bytes.saturating_add(raw.len()) <= self.ceiling;
        if fits {
            self.wire_bytes += raw.len();
            self.wire.push((sent, at_ms, raw));
        } else {
            self.unrecorded.messages += 1;
            self.unrecorded.bytes += raw.len() as u64;
        }
    }

    /// What the recording left out so far.
    pub(crate) fn unrecorded(&self) -> Unrecorded {
        self.unrecorded
    }

    /// The wire as session records.
    pub(crate) fn wire_records(&self) -> Vec<WireRecord> {
        self.wire
            .iter()
            .map(|(sent, at, raw)| WireRecord {
                direction: if *sent {
                    Direction::Sent
                } else {
                    Direction::Received
                },
                at_ms: *at,
                text: Some(raw.to_string()),
                hash: None,
            })
            .collect()
    }
}

/// A loop's seed as a session keeps it; `None` when a turn is not words (a seed
/// holds only user messages and the model's earlier answers: `ToolLoop::from_turns`
/// refuses anything else).
pub fn seed_record(turns: &[Turn]) -> Option<Vec<SeedTurn>> {
    turns
        .iter()
        .map(|t| t.words().map(SeedTurn::from_words))
        .collect()
}

/// A recorded seed as the host's conversation.
pub fn seed_turns(seed: &[SeedTurn]) -> Vec<Turn> {
    seed.iter()
        .map(|t| match t.role {
            SeedRole::User => Turn::User(t.text.clone()),
            SeedRole::Model => Turn::Model(ModelTurn::Answer {
                text: t.text.clone(),
            }),
        })
        .collect()
}

/// The session's connection for a page source. A URL keeps no user name, password
/// or secret-looking query parameter.
pub fn connection(source: &Source) -> Connection {
    match source {
        Source::Demo => Connection::Embedded,
        Source::Bridge(n) => Connection::Bridge { server: n.clone() },
        Source::Relay(n) => Connection::Relay { remote: n.clone() },
        Source::Url(u) => Connection::Url { url: public_url(u) },
    }
}

/// The page source a session's connection names.
pub fn source_of(c: &Connection) -> Source {
    match c {
        Connection::Embedded => Source::Demo,
        Connection::Bridge { server } => Source::Bridge(server.clone()),
        Connection::Relay { remote } => Source::Relay(remote.clone()),
        Connection::Url { url } => Source::Url(url.clone()),
    }
}

/// `url` without credentials or secret-looking query parameters.
pub fn public_url(url: &str) -> String {
    let (url, _fragment) = url.split_once('#').unwrap_or((url, ""));
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let base = match base.split_once("://") {
        Some((scheme, rest)) => {
            let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
            let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
            let slash = if rest.contains('/') { "/" } else { "" };
            [scheme, "://", host, slash, path].concat()
        }
        None => base.to_owned(),
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| {
            let k = p.split('=').next().unwrap_or("").to_ascii_lowercase();
            !p.is_empty()
                && !["key", "token", "secret", "password", "auth", "sig"]
                    .iter()
                    .any(|s| k.contains(s))
        })
        .collect();
    if kept.is_empty() {
        base
    } else {
        [base.as_str(), "?", &kept.join("&")].concat()
    }
}

/// A fresh embedded demo server, answering as `rehydrate_with` asks with the code
/// `handlers` (the driver's come with the later parts).
pub fn demo_exchange(
    handlers: &'static dyn Handlers,
) -> impl FnMut(u64, Option<&str>) -> Vec<String> {
    let mut server = DemoServer::without_handlers();
    server.set_handlers(handlers);
    move |at, sent| server.exchange(at, sent)
}

/// The session a link carries: the embedded demo's answers are left out when
/// re-running the demo reproduces them exactly (checked here, before sharing).
pub fn link_session(session: &Recording) -> Recording {
    if session.connection == Connection::Embedded {
        let mut short = session.clone();
        short.elide_received(|_, _| true);
        let mut check = short.clone();
        if rehydrate_with(&mut check, demo_exchange(mcpg_demo::handlers())).is_ok()
            && check.wire == session.wire
        {
            return short;
        }
    }
    session.clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recording_stops_at_its_ceiling_and_counts_what_it_left_out() {
        let mut r = Recorder::with_ceiling(10);
        r.record_wire(true, 0, Arc::from("1234"));
        r.record_wire(false, 1, Arc::from("567890"));
        assert_eq!(r.unrecorded(), Unrecorded::default());
        assert_eq!(r.wire_records().len(), 2);
        // Full: this one and every later one, however small, are left out.
        r.record_wire(true, 2, Arc::from("abc"));
        r.record_wire(false, 3, Arc::from(""));
        assert_eq!(
            r.unrecorded(),
            Unrecorded {
                messages: 2,
                bytes: 3
            }
        );
        let kept: Vec<_> = r
            .wire_records()
            .into_iter()
            .filter_map(|w| w.text)
            .collect();
        assert_eq!(kept, ["1234", "567890"]);
        // A fresh recorder (a new connection) starts empty.
        assert_eq!(Recorder::default().unrecorded(), Unrecorded::default());
        assert_eq!(Recorder::default().ceiling, RECORD_CEILING_BYTES);
    }

    #[test]
    fn a_message_larger_than_the_ceiling_is_left_out_alone() {
        let mut r = Recorder::with_ceiling(4);
        r.record_wire(true, 0, Arc::from("too long"));
        assert!(r.wire_records().is_empty());
        assert_eq!(r.unrecorded().messages, 1);
        assert_eq!(r.unrecorded().bytes, 8);
    }

    #[test]
    fn urls_lose_credentials_and_secret_parameters() {
        assert_eq!(
            public_url("https://user:pw@example.com/mcp?api_key=1&x=2&Token=3#frag"),
            "https://example.com/mcp?x=2"
        );
        assert_eq!(public_url("http://127.0.0.1:3000"), "http://127.0.0.1:3000");
        assert_eq!(
            public_url("https://example.com/a/b?auth=z"),
            "https://example.com/a/b"
        );
    }

    #[test]
    fn sources_and_connections_map_both_ways() {
        for s in [
            Source::Demo,
            Source::Bridge("everything".into()),
            Source::Relay("remote".into()),
            Source::Url("https://example.com/mcp".into()),
        ] {
            assert_eq!(source_of(&connection(&s)), s);
        }
    }
}
