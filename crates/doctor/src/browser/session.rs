//! The session checks of a browser run: `server/discover` and `initialize` on
//! connections of their own, the revisions, then on the session that worked (the
//! newer generation first) every page of `tools/list`, the tools' headers and
//! schemas, and the declared capabilities against answers. Each connection is the
//! core's client over the sans-IO HTTP machine, as the page's own connection is.

use std::mem;

use mcpg_core::Timestamp;
use mcpg_core::client::{Direction, Event, GenerationMode, Negotiated, OpError, OpId};
use mcpg_net::{HttpRequest, NetEvent, ReqId};
use serde_json::Value;

use super::conn::Conn;

use crate::capabilities::{self, Answered, FeatureSeen};
use crate::check::{Check, Finding};
use crate::handshake::{self, HandshakeSeen};
use crate::tools::{self, ListingSeen};

/// What the checks wait for.
#[derive(Debug)]
enum Stage {
    Discover,
    Initialize,
    Tools(OpId, Vec<Value>),
    Feature(usize, OpId),
    Done,
}

/// The session checks' state.
#[derive(Debug)]
pub(super) struct Sessions {
    url: String,
    next_id: u64,
    conn: Conn,
    stage: Stage,
    discover: Option<(HandshakeSeen, Option<Conn>)>,
    negotiated: Option<Negotiated>,
    listing: Option<ListingSeen>,
    features: Vec<FeatureSeen>,
    findings: Vec<Finding>,
    finished: bool,
}

impl Sessions {
    /// The checks against `url`; the run's request ids continue after `next_id`.
    pub(super) fn new(url: &str, now: Timestamp, next_id: u64) -> Sessions {
        Sessions {
            url: url.to_owned(),
            next_id,
            conn: Conn::new(url, now, GenerationMode::Stateless),
            stage: Stage::Discover,
            discover: None,
            negotiated: None,
            listing: None,
            features: Vec::new(),
            findings: Vec::new(),
            finished: false,
        }
    }

    /// Starts the first handshake (the connection already asked for it).
    pub(super) fn start(&mut self, now: Timestamp) {
        self.pump(now);
    }

    /// The next request for the page, with the run's id.
    pub(super) fn poll_request(&mut self) -> Option<HttpRequest> {
        let mut r = self.conn.machine.poll_request()?;
        self.next_id += 1;
        let outer = ReqId(self.next_id);
        self.conn.ids.insert(outer, r.id);
        r.id = outer;
        Some(r)
    }

    /// What the network did (ignored for a connection already given up).
    pub(super) fn handle_net(&mut self, now: Timestamp, ev: NetEvent) {
        let outer = ev.id();
        let Some(&inner) = self.conn.ids.get(&outer) else {
            return;
        };
        if ev.is_last() {
            self.conn.ids.remove(&outer);
        }
        let ev = match ev {
            NetEvent::Head {
                status, headers, ..
            } => NetEvent::Head {
                id: inner,
                status,
                headers,
            },
            NetEvent::Chunk(_, b) => NetEvent::Chunk(inner, b),
            NetEvent::End(_) => NetEvent::End(inner),
            NetEvent::Failed(_, f) => NetEvent::Failed(inner, f),
        };
        self.conn.machine.handle_net(now, ev);
        self.pump(now);
    }

    /// The earliest deadline of the current connection.
    pub(super) fn poll_timeout(&self) -> Option<Timestamp> {
        let (a, b) = (
            self.conn.client.poll_timeout(),
            self.conn.machine.poll_timeout(),
        );
        a.into_iter().chain(b).min()
    }

    /// Time passed.
    pub(super) fn handle_timeout(&mut self, now: Timestamp) {
        self.conn.client.handle_timeout(now);
        self.conn.machine.handle_timeout(now);
        self.pump(now);
    }

    /// The findings, once, when every session check has one.
    pub(super) fn take_findings(&mut self) -> Option<Vec<Finding>> {
        if self.finished && !self.findings.is_empty() {
            return Some(mem::take(&mut self.findings));
        }
        None
    }

    /// Moves the connection along and reads its events.
    pub(super) fn pump(&mut self, now: Timestamp) {
        loop {
            self.conn.pump(now);
            let Some(ev) = self.conn.client.poll_event() else {
                return;
            };
            self.event(now, ev);
        }
    }

    fn event(&mut self, now: Timestamp, ev: Event) {
        match (ev, &mut self.stage) {
            (Event::Wire(w), _) => {
                let sent = w.direction == Direction::Sent;
                self.conn.wire.push((sent, w.raw.to_string()));
            }
            (Event::Connected(n), Stage::Discover) => {
                let seen = agreed(&n);
                self.negotiated = Some(n);
                self.next_handshake(now, seen);
            }
            (Event::ConnectFailed(e), Stage::Discover) => {
                let seen = handshake::failed(e.refused, &e.why, &self.conn.wire, "server/discover");
                self.next_handshake(now, seen);
            }
            (Event::Connected(n), Stage::Initialize) => {
                let seen = agreed(&n);
                if self.negotiated.is_none() {
                    self.negotiated = Some(n);
                }
                self.handshakes_done(now, seen);
            }
            (Event::ConnectFailed(e), Stage::Initialize) => {
                let seen = handshake::failed(e.refused, &e.why, &self.conn.wire, "initialize");
                self.handshakes_done(now, seen);
            }
            (Event::ToolsPage { op, message, .. }, Stage::Tools(want, pages)) if op == *want => {
                if let Some(r) = message.result() {
                    pages.push(r.clone());
                }
            }
            (Event::ToolsListed { op, .. }, Stage::Tools(want, pages)) if op == *want => {
                let pages = mem::take(pages);
                self.tools_done(now, ListingSeen::Listed(pages));
            }
            (Event::ToolsListFailed { op, error, .. }, Stage::Tools(want, _)) if op == *want => {
                self.tools_done(now, listing_error(error));
            }
            (Event::Response { op, outcome }, Stage::Feature(i, want)) if op == *want => {
                let i = *i;
                let answered = match outcome {
                    Ok(_) => Answered::Yes,
                    Err(OpError::Rpc(e)) => Answered::Error {
                        code: e.code,
                        message: e.message,
                    },
                    Err(OpError::Failed(f)) => Answered::Failed(f.to_string()),
                };
                self.feature_done(now, i, answered);
            }
            _ => {}
        }
    }

    /// `server/discover` went as `seen`: keep its connection if it worked, and
    /// open the `initialize` one.
    fn next_handshake(&mut self, now: Timestamp, seen: HandshakeSeen) {
        let fresh = Conn::new(&self.url, now, GenerationMode::Initialize);
        let old = mem::replace(&mut self.conn, fresh);
        let keep = seen.agreed().then_some(old);
        self.discover = Some((seen, keep));
        self.stage = Stage::Initialize;
    }

    /// Both handshakes are in: judge them, then list on the session that worked.
    fn handshakes_done(&mut self, now: Timestamp, init: HandshakeSeen) {
        let (disc, kept) = self
            .discover
            .take()
            .unwrap_or((HandshakeSeen::Failed("not tried".into()), None));
        self.findings
            .push(handshake::discover(&disc, init.agreed()));
        self.findings
            .push(handshake::initialize(&init, disc.agreed()));
        self.findings.push(handshake::revisions(&disc, &init, &[]));
        if let Some(c) = kept {
            self.conn = c;
        } else if !init.agreed() {
            let why = if [&disc, &init]
                .iter()
                .any(|h| matches!(h, HandshakeSeen::SignIn))
            {
                "the server wants a sign-in first"
            } else {
                "no handshake worked"
            };
            for c in &Check::SESSION[3..] {
                self.findings.push(Finding::skip(*c, why));
            }
            self.finish();
            return;
        }
        let op = self.conn.client.list_tools(now);
        self.stage = Stage::Tools(op, Vec::new());
    }

    fn declared(&self, feature: &str) -> bool {
        self.negotiated
            .as_ref()
            .is_some_and(|n| n.capabilities.contains_key(feature))
    }

    fn tools_done(&mut self, now: Timestamp, listing: ListingSeen) {
        self.findings
            .push(tools::list(&listing, self.declared("tools")));
        let version = self.negotiated.as_ref().map(|n| n.version);
        match (&listing, version) {
            (ListingSeen::Listed(pages), Some(v)) => {
                self.findings.push(tools::param_headers(pages, v));
                self.findings.push(tools::schemas(pages, v));
            }
            _ => {
                for c in [Check::ParamHeaders, Check::ToolSchemas] {
                    self.findings.push(Finding::skip(c, "no tools were listed"));
                }
            }
        }
        let answered = match &listing {
            ListingSeen::Listed(_) => Answered::Yes,
            ListingSeen::Refused { code, message } => Answered::Error {
                code: *code,
                message: message.clone(),
            },
            ListingSeen::Failed(why) => Answered::Failed(why.clone()),
        };
        self.listing = Some(listing);
        self.feature_done(now, 0, answered);
    }

    /// Feature `i` of [`capabilities::FEATURES`] answered; ask the next one.
    fn feature_done(&mut self, now: Timestamp, i: usize, answered: Answered) {
        if let Some(&(feature, method)) = capabilities::FEATURES.get(i) {
            self.features.push(FeatureSeen {
                feature,
                method,
                declared: self.declared(feature),
                answered,
            });
        }
        match capabilities::FEATURES.get(i + 1) {
            Some(&(_, method)) => {
                let op = self.conn.client.request(now, method, None);
                self.stage = Stage::Feature(i + 1, op);
            }
            None => {
                self.findings
                    .push(capabilities::capabilities(&self.features));
                self.finish();
            }
        }
    }

    fn finish(&mut self) {
        self.stage = Stage::Done;
        self.finished = true;
    }
}

fn agreed(n: &Negotiated) -> HandshakeSeen {
    HandshakeSeen::Agreed {
        version: n.version.as_str().to_owned(),
        server_versions: n.server_versions.clone(),
    }
}

fn listing_error(error: OpError) -> ListingSeen {
    match error {
        OpError::Rpc(e) => ListingSeen::Refused {
            code: e.code,
            message: e.message,
        },
        OpError::Failed(f) => ListingSeen::Failed(f.to_string()),
    }
}
