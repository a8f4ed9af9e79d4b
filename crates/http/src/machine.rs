//! The machine's state and its outward API: what the client sends, what the driver
//! must do, timers. What the network answers is handled in `exchange.rs`.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};

use mcpg_core::client::Outgoing;
use mcpg_core::jsonrpc::{Body, RequestId};
use mcpg_core::{Generation, ProtocolVersion, Timestamp};

use crate::headers::{PROTOCOL_VERSION, SESSION_ID};
use crate::legacy_state::{Legacy, TransportChoice};
use crate::sse::SseParser;
use crate::{HttpConfig, HttpEvent, HttpRequest, Method, ReqId};

/// What one HTTP request is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The POST of a client request; its answer is JSON or SSE.
    Request(RequestId),
    /// The POST of a notification or response (`what` names it); wants a 202.
    OneWay(String),
    /// A GET with `Last-Event-ID` resuming request `id`'s cut SSE answer.
    Resume(RequestId),
    /// The standalone GET stream.
    Listen,
    /// The closing DELETE.
    Delete,
    /// The old HTTP+SSE transport's GET stream (see `legacy.rs`).
    LegacyStream,
    /// The old transport's POST of one message (`id` when it is a request); its
    /// answer comes on the stream.
    LegacyPost { id: Option<RequestId>, what: String },
}

/// Where in its answer one HTTP request is.
#[derive(Debug)]
pub(crate) enum Phase {
    /// Sent; no status yet.
    AwaitHead,
    /// A JSON (or other non-SSE) 2xx body being collected.
    Json {
        buf: Vec<u8>,
        declared: Option<usize>,
    },
    /// A non-2xx body being collected (bounded) for the failure.
    Refused { status: u16, buf: Vec<u8> },
    /// An SSE stream; the parser lives with the request's [`Stream`] (or `listen`).
    Sse,
}

/// One HTTP request in flight.
#[derive(Debug)]
pub(crate) struct Exchange {
    pub kind: Kind,
    /// The session id the request carried (a 404 expires only that one).
    pub session: Option<String>,
    pub phase: Phase,
    /// The message it carries, kept only while the machine may hold it for
    /// authorization and re-send it (see `hold.rs`).
    pub sent: Option<Outgoing>,
}

/// The SSE answer of one client request, across its connections.
#[derive(Debug)]
pub(crate) struct Stream {
    pub parser: SseParser,
    pub resumes: u32,
    /// Resume attempts in a row that found no server at all.
    pub unreachable: u32,
}

/// The standalone GET stream's state across reconnections.
#[derive(Debug)]
pub(crate) struct Listen {
    pub parser: SseParser,
    pub failures: u32,
    pub got_events: bool,
}

/// The messages waiting for authorization (see `hold.rs`), in the order they
/// were sent.
#[derive(Debug)]
pub(crate) struct AuthHold {
    /// The refusal's status (what `give_up` fails them with).
    pub status: u16,
    pub held: Vec<Outgoing>,
}

/// Something that happens at a time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Timer {
    /// Resume request `id`'s stream.
    Resume(RequestId),
    /// Reconnect the standalone stream.
    Listen,
    /// Request `ReqId` took too long (one-way POSTs, the DELETE, waiting for a head
    /// that holds other messages back).
    Deadline(ReqId),
}

/// The Streamable HTTP client for one endpoint and its session. See the crate docs.
#[derive(Debug)]
pub struct HttpMachine {
    pub(crate) cfg: HttpConfig,
    pub(crate) next_req: u64,
    pub(crate) session: Option<String>,
    pub(crate) version: Option<ProtocolVersion>,
    pub(crate) exchanges: BTreeMap<ReqId, Exchange>,
    /// Request id → the HTTP request currently carrying its answer.
    pub(crate) by_rpc: HashMap<RequestId, ReqId>,
    pub(crate) streams: HashMap<RequestId, Stream>,
    pub(crate) listen: Option<Listen>,
    /// `initialize` requests whose result tells the revision (2025-03-26 sends no
    /// version header to learn it from).
    pub(crate) initializing: HashSet<RequestId>,
    /// Requests whose head later messages wait for (one-way POSTs keep their order;
    /// the GET stream should be open before a request can make the server push).
    pub(crate) gating: BTreeSet<ReqId>,
    /// Messages waiting for `gating` to empty, in order.
    pub(crate) held: VecDeque<Outgoing>,
    pub(crate) timers: BTreeSet<(Timestamp, Timer)>,
    pub(crate) closing: bool,
    pub(crate) closed: bool,
    pub(crate) requests: VecDeque<HttpRequest>,
    pub(crate) aborts: VecDeque<ReqId>,
    pub(crate) events: VecDeque<HttpEvent>,
    /// `Authorization: Bearer` for every request (see `hold.rs`).
    pub(crate) bearer: Option<String>,
    /// Messages held for authorization, in order (see `hold.rs`).
    pub(crate) auth_hold: Option<AuthHold>,
    /// The transport in use and why (see `legacy.rs`).
    pub(crate) choice: Option<TransportChoice>,
    /// `Auto`'s `initialize` POST, whose status decides the transport; later
    /// messages wait for it.
    pub(crate) probe: Option<(ReqId, Outgoing)>,
    /// The old HTTP+SSE transport, once chosen.
    pub(crate) legacy: Option<Legacy>,
}

impl HttpMachine {
    /// A machine for `cfg.url`; nothing is sent before the first message.
    pub fn new(cfg: HttpConfig) -> Self {
        HttpMachine {
            cfg,
            next_req: 0,
            session: None,
            version: None,
            exchanges: BTreeMap::new(),
            by_rpc: HashMap::new(),
            streams: HashMap::new(),
            listen: None,
            initializing: HashSet::new(),
            gating: BTreeSet::new(),
            held: VecDeque::new(),
            timers: BTreeSet::new(),
            closing: false,
            closed: false,
            requests: VecDeque::new(),
            aborts: VecDeque::new(),
            events: VecDeque::new(),
            bearer: None,
            auth_hold: None,
            choice: None,
            probe: None,
            legacy: None,
        }
    }

    /// The session id the server handed out, if any.
    pub fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }

    /// The revision in use, as far as the machine learnt it.
    pub fn version(&self) -> Option<ProtocolVersion> {
        self.version
    }

    /// Sends one frame from the core (with its MCP headers and `param_headers`).
    pub fn send(&mut self, now: Timestamp, out: Outgoing) {
        if self.closing {
            return;
        }
        if let Some(hold) = self.auth_hold.as_mut() {
            hold.held.push(out);
            return;
        }
        if self.choice.is_none() && self.probe.is_none() {
            self.choose(now);
        }
        if !self.gating.is_empty() {
            self.held.push_back(out);
            return;
        }
        if self.legacy.is_some() {
            self.legacy_send(now, out);
            return;
        }
        if let Some(v) = out
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(PROTOCOL_VERSION))
            .and_then(|(_, v)| ProtocolVersion::parse(v))
        {
            self.version = Some(v);
        }
        match out.message.body() {
            Body::Request { id, method, .. } => {
                let id = id.clone();
                if method == "initialize" {
                    self.initializing.insert(id.clone());
                }
                let req = self.post(&out, Kind::Request(id.clone()));
                if self.probes(&out) {
                    self.probe = Some((req, out.clone()));
                    self.gate(now, req);
                }
                if let Some(old) = self.by_rpc.insert(id, req) {
                    self.drop_exchange(old);
                }
            }
            Body::Notification { method, params } if method == "notifications/cancelled" => {
                let target = params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(RequestId::from_value);
                if let Some(target) = target {
                    self.cancel(now, &target);
                }
                // Under 2026-07-28 closing the stream *is* the cancellation.
                let stateless = self
                    .version
                    .is_some_and(|v| v.generation() == Generation::Stateless);
                if !stateless {
                    self.one_way(now, &out, "notifications/cancelled".into());
                }
            }
            Body::Notification { method, .. }
                if method == "notifications/initialized" && self.may_listen() =>
            {
                // The GET stream opens first and `initialized` waits for its answer:
                // servers push what they do on `initialized` (server-everything's
                // `tools/list_changed`) to the stream open at that moment, and drop
                // it when there is none.
                self.held.push_back(out);
                self.open_listen(now);
                if self.gating.is_empty()
                    && let Some(out) = self.held.pop_back()
                {
                    self.one_way(now, &out, "notifications/initialized".into());
                }
            }
            Body::Notification { method, .. } => {
                self.one_way(now, &out, method.clone());
            }
            _ => {
                self.one_way(now, &out, "response".into());
            }
        }
    }

    /// Stops reading request `id`'s answer (the driver aborts its HTTP request).
    pub fn cancel(&mut self, now: Timestamp, id: &RequestId) {
        if let Some(req) = self.by_rpc.remove(id) {
            self.drop_exchange(req);
            self.probe_settled(now, req);
        }
        self.forget_pending(id);
        self.streams.remove(id);
        self.timers.retain(|(_, t)| *t != Timer::Resume(id.clone()));
        self.initializing.remove(id);
        self.unhold(id);
    }

    /// Ends the session: every request in flight is aborted and, when there is a
    /// session, a DELETE ends it. [`HttpEvent::Closed`] follows.
    pub fn close(&mut self, now: Timestamp) {
        if self.closing {
            return;
        }
        self.closing = true;
        let all: Vec<ReqId> = self.exchanges.keys().copied().collect();
        for req in all {
            self.drop_exchange(req);
        }
        self.timers.clear();
        self.held.clear();
        self.auth_hold = None;
        self.gating.clear();
        self.streams.clear();
        self.listen = None;
        self.probe = None;
        if let Some(l) = self.legacy.as_mut() {
            l.pending.clear();
            l.stream = None;
            l.over = Some("the session was closed by the client".into());
        }
        let Some(session) = self.session.clone() else {
            self.finish_close("closed by the client".into());
            return;
        };
        let mut headers = self.base_headers(&[]);
        if let Some(v) = self.version.filter(|v| v.requires_version_header()) {
            headers.push((PROTOCOL_VERSION.into(), v.as_str().into()));
        }
        headers.push((SESSION_ID.into(), session.clone()));
        let req = self.request(Method::Delete, headers, None, Kind::Delete, Some(session));
        self.deadline(now, req, self.cfg.one_way_timeout);
    }

    /// The next HTTP request to make.
    pub fn poll_request(&mut self) -> Option<HttpRequest> {
        self.requests.pop_front()
    }

    /// The next HTTP request to abort (its answer is no longer wanted).
    pub fn poll_abort(&mut self) -> Option<ReqId> {
        self.aborts.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<HttpEvent> {
        self.events.pop_front()
    }

    /// When [`HttpMachine::handle_timeout`] is next due.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.timers.first().map(|(at, _)| *at)
    }

    /// Time passed: resumes cut streams, reconnects the GET stream, gives up on slow
    /// one-way POSTs.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        while let Some((at, _)) = self.timers.first() {
            if *at > now {
                break;
            }
            let Some((_, timer)) = self.timers.pop_first() else {
                break;
            };
            match timer {
                Timer::Resume(id) => self.resume_stream(&id),
                Timer::Listen => self.open_listen(now),
                Timer::Deadline(req) => self.deadline_passed(now, req),
            }
        }
    }

    // ----- small helpers -----

    /// Forgets `req` and asks the driver to abort it.
    pub(crate) fn drop_exchange(&mut self, req: ReqId) {
        if self.exchanges.remove(&req).is_some() {
            self.aborts.push_back(req);
        }
        self.timers.retain(|(_, t)| *t != Timer::Deadline(req));
    }

    pub(crate) fn notice(&mut self, text: String) {
        self.events.push_back(HttpEvent::Notice(text));
    }

    pub(crate) fn finish_close(&mut self, reason: String) {
        if !self.closed {
            self.closed = true;
            self.events.push_back(HttpEvent::Closed(reason));
        }
    }
}
