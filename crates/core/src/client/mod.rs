//! The client session: a sans-IO state machine. Text goes in through `handle_*`
//! with the current time, frames to send come out of [`Client::poll_transmit`],
//! and everything that happened comes out of [`Client::poll_event`].
//!
//! ```text
//!  driver ──handle_text/handle_timeout/handle_closed──▶ Client ──poll_transmit──▶ transport
//!                                                         └────poll_event──────▶ host / UI
//! ```

mod config;
mod event;
mod faults;
mod outgoing;
mod param_headers;

pub use config::{ClientConfig, GenerationMode};
pub use event::{CallOutcome, Direction, Event, Failure, Negotiated, OpError, OpId, WireEntry};
pub use outgoing::{Outgoing, SendFailure};

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Body, Message, RequestId, RpcError, code, decode_frame};
use crate::model::{CallToolResult, DiscoverResult, InitializeResult, JsonObject, Tool, meta};
use crate::time::Timestamp;
use crate::validate;
use crate::version::{Generation, ProtocolVersion};
use param_headers::ParamHeader;

/// Options for one `tools/call`.
#[derive(Clone, Debug, Default)]
pub struct CallOptions {
    /// Ask for progress notifications (`_meta.progressToken`).
    pub progress: bool,
    /// Override the configured request timeout.
    pub timeout: Option<Duration>,
    /// Extra `_meta` members for the request.
    pub meta: Option<JsonObject>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Probing,
    Initializing,
    Ready,
    Closed,
}

#[derive(Clone, Debug)]
enum What {
    Probe,
    Initialize(ProtocolVersion),
    ListPage,
    Call {
        name: String,
    },
    Raw,
    /// A `subscriptions/listen` stream: open for the session's life.
    Listen,
}

#[derive(Clone, Debug)]
struct Pending {
    op: OpId,
    what: What,
    method: String,
    params: Option<Value>,
    timeout: Duration,
    deadline: Timestamp,
    progress_token: Option<String>,
}

#[derive(Clone, Debug)]
struct Deferred {
    op: OpId,
    what: What,
    method: String,
    params: Option<Value>,
    timeout: Duration,
}

#[derive(Clone, Debug, Default)]
struct Listing {
    pages: u32,
    tools: usize,
    cursors: HashSet<String>,
    names: HashSet<String>,
}

/// A call (or `prompts/get` / `resources/read`) the server answered with
/// `input_required`, kept so the host can continue it (2026-07-28 MRTR).
#[derive(Clone, Debug)]
struct Suspended {
    what: What,
    method: String,
    /// The original params, without the per-request stamp and without the previous
    /// round's `inputResponses` / `requestState` (each round carries only its own).
    params: Option<Value>,
    timeout: Duration,
    /// The keys of the `inputRequests` the server sent.
    requested: Vec<String>,
    /// `requestState`, exactly as received, to echo back.
    request_state: Option<Value>,
}

#[derive(Clone, Debug)]
struct Incoming {
    method: String,
    deadline: Timestamp,
}

/// How many ids of cancelled or timed-out requests to remember, so that their late
/// responses are recognised instead of reported as unknown.
const FINISHED_MEMORY: usize = 256;

/// How many calls waiting for input to keep; a host that never continues them must
/// not make the session grow without bound.
const SUSPENDED_MEMORY: usize = 256;

/// The client side of one MCP connection.
#[derive(Debug)]
pub struct Client {
    cfg: ClientConfig,
    phase: Phase,
    negotiated: Option<Negotiated>,
    /// The revision requests are stamped with while probing or initializing.
    trying: Option<ProtocolVersion>,
    next_id: i64,
    next_op: u64,
    pending: HashMap<RequestId, Pending>,
    waiting: Vec<Deferred>,
    finished: VecDeque<RequestId>,
    listings: HashMap<OpId, Listing>,
    progress: HashMap<String, (RequestId, f64)>,
    incoming: HashMap<RequestId, Incoming>,
    tools: HashMap<String, Tool>,
    /// 2026-07-28 `x-mcp-header` annotations of the listed tools that have any.
    param_specs: HashMap<String, Vec<ParamHeader>>,
    /// Tools left out of the latest listing for invalid `x-mcp-header`
    /// annotations, with the reason.
    dropped: HashMap<String, String>,
    /// Calls waiting for the host's input (MRTR), by operation.
    suspended: HashMap<OpId, Suspended>,
    /// Operations already re-sent once after `UnsupportedProtocolVersion`.
    version_retried: HashSet<OpId>,
    /// The `server/discover` probe that timed out: a slow server may still answer it.
    late_probe: Option<RequestId>,
    /// Whether negotiation already went back from `initialize` to the stateless probe.
    reprobed: bool,
    outbox: VecDeque<Outgoing>,
    events: VecDeque<Event>,
}

impl Client {
    /// A new, unconnected client.
    pub fn new(cfg: ClientConfig) -> Self {
        Client {
            cfg,
            phase: Phase::Idle,
            negotiated: None,
            trying: None,
            next_id: 0,
            next_op: 0,
            pending: HashMap::new(),
            waiting: Vec::new(),
            finished: VecDeque::new(),
            listings: HashMap::new(),
            progress: HashMap::new(),
            incoming: HashMap::new(),
            tools: HashMap::new(),
            param_specs: HashMap::new(),
            dropped: HashMap::new(),
            suspended: HashMap::new(),
            version_retried: HashSet::new(),
            late_probe: None,
            reprobed: false,
            outbox: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &ClientConfig {
        &self.cfg
    }

    /// What was negotiated, once connected.
    pub fn negotiated(&self) -> Option<&Negotiated> {
        self.negotiated.as_ref()
    }

    /// Whether requests can flow.
    pub fn is_ready(&self) -> bool {
        self.phase == Phase::Ready
    }

    /// Whether the session has ended.
    pub fn is_closed(&self) -> bool {
        self.phase == Phase::Closed
    }

    /// The tools seen in the latest listing, by name.
    pub fn known_tool(&self, name: &str) -> Option<&Tool> {
        self.tools.get(name)
    }

    /// Why the latest listing left tool `name` out, if it did (2026-07-28: invalid
    /// `x-mcp-header` annotations). Such a tool cannot be called.
    pub fn dropped_tool(&self, name: &str) -> Option<&str> {
        self.dropped.get(name).map(String::as_str)
    }

    /// Starts negotiation (called implicitly by the first request).
    pub fn connect(&mut self, now: Timestamp) {
        if self.phase != Phase::Idle {
            return;
        }
        match self.cfg.mode {
            GenerationMode::Initialize => self.start_initialize(now),
            GenerationMode::Stateless | GenerationMode::Auto => {
                match self.cfg.newest_stateless_version() {
                    Some(v) => self.start_probe(now, v),
                    None => self.start_initialize(now),
                }
            }
        }
    }

    /// Lists every tool, following `nextCursor` to the end. Each page arrives as
    /// [`Event::ToolsPage`]; the end as [`Event::ToolsListed`] or [`Event::ToolsListFailed`].
    pub fn list_tools(&mut self, now: Timestamp) -> OpId {
        let op = self.new_op();
        self.listings.insert(op, Listing::default());
        let timeout = self.cfg.request_timeout;
        self.submit(now, op, What::ListPage, "tools/list", None, timeout);
        op
    }

    /// Calls a tool. The end arrives as [`Event::CallFinished`].
    pub fn call_tool(
        &mut self,
        now: Timestamp,
        name: &str,
        arguments: Option<JsonObject>,
        opts: CallOptions,
    ) -> OpId {
        let op = self.new_op();
        if let Some(why) = self.dropped.get(name) {
            // The spec has clients leave such a tool out; calling it anyway could not
            // carry the headers the server expects.
            let text = format!("tool {name:?} was left out of the listing: {why}");
            self.events.push_back(Event::CallFinished {
                op,
                outcome: CallOutcome::Failed(Failure::Malformed(text)),
                message: None,
            });
            return op;
        }
        let mut params = Map::new();
        params.insert("name".into(), Value::from(name));
        if let Some(args) = arguments {
            params.insert("arguments".into(), Value::Object(args));
        }
        let mut m = opts.meta.unwrap_or_default();
        if opts.progress {
            // The op number is unique for the session's life, so it makes a good token.
            m.insert(
                "progressToken".into(),
                Value::from(format!("mcpg-{}", op.0)),
            );
        }
        if !m.is_empty() {
            params.insert("_meta".into(), Value::Object(m));
        }
        let timeout = opts.timeout.unwrap_or(self.cfg.request_timeout);
        self.submit(
            now,
            op,
            What::Call {
                name: name.to_owned(),
            },
            "tools/call",
            Some(Value::Object(params)),
            timeout,
        );
        op
    }

    /// Continues a call that ended its round with [`CallOutcome::InputRequired`]
    /// (2026-07-28 MRTR): re-sends the original request, as a new JSON-RPC request,
    /// with `input_responses` (keyed like the server's `inputRequests`; left out
    /// when empty) and the `requestState` the server sent, exactly as it sent it.
    /// The answer arrives under the same `op`, as [`Event::CallFinished`] with a
    /// typed outcome (which may ask for input again). A raw `prompts/get` or
    /// `resources/read` answered with `input_required` continues the same way and
    /// ends in [`Event::Response`].
    ///
    /// Returns false if `op` is not waiting for input (never was, already
    /// continued, cancelled, or the session closed).
    pub fn continue_call(&mut self, now: Timestamp, op: OpId, input_responses: JsonObject) -> bool {
        let Some(s) = self.suspended.remove(&op) else {
            return false;
        };
        let missing: Vec<&str> = s
            .requested
            .iter()
            .filter(|k| !input_responses.contains_key(k.as_str()))
            .map(String::as_str)
            .collect();
        if !missing.is_empty() {
            self.diag(Diagnostic::new(
                Rule::InputRequired,
                Severity::Warning,
                format!(
                    "retrying {} without answers to {missing:?}; the client must answer every input request, so the server will likely ask again",
                    s.method
                ),
            ));
        }
        let extra: Vec<&str> = input_responses
            .keys()
            .filter(|k| !s.requested.contains(k))
            .map(String::as_str)
            .collect();
        if !extra.is_empty() {
            self.diag(Diagnostic::new(
                Rule::InputRequired,
                Severity::Info,
                format!(
                    "inputResponses {extra:?} answer nothing the server asked for; it should ignore them"
                ),
            ));
        }
        let mut params = match s.params {
            Some(Value::Object(o)) => o,
            _ => Map::new(),
        };
        if !input_responses.is_empty() {
            params.insert("inputResponses".into(), Value::Object(input_responses));
        }
        if let Some(state) = s.request_state {
            params.insert("requestState".into(), state);
        }
        self.submit(
            now,
            op,
            s.what,
            &s.method,
            Some(Value::Object(params)),
            s.timeout,
        );
        true
    }

    /// Sends any request; the end arrives as [`Event::Response`].
    pub fn request(&mut self, now: Timestamp, method: &str, params: Option<Value>) -> OpId {
        let op = self.new_op();
        let timeout = self.cfg.request_timeout;
        self.submit(now, op, What::Raw, method, params, timeout);
        op
    }

    /// Sends a notification (e.g. `notifications/roots/list_changed`).
    pub fn notify(&mut self, now: Timestamp, method: &str, params: Option<Value>) {
        self.transmit(now, Message::notification(method, params));
    }

    /// Cancels an operation in flight: sends `notifications/cancelled` and ends it
    /// with [`Failure::Cancelled`]. A late response is then ignored. A call waiting
    /// for input has nothing in flight: it is just forgotten, without an event (its
    /// round already ended with [`CallOutcome::InputRequired`]).
    pub fn cancel(&mut self, now: Timestamp, op: OpId, reason: &str) {
        if self.suspended.remove(&op).is_some() {
            return;
        }
        if let Some(pos) = self.waiting.iter().position(|d| d.op == op) {
            let d = self.waiting.remove(pos);
            self.finish(
                op,
                &d.what,
                None,
                Err(OpError::Failed(Failure::Cancelled(reason.to_owned()))),
            );
            return;
        }
        let Some(id) = self
            .pending
            .iter()
            .find(|(_, p)| p.op == op)
            .map(|(id, _)| id.clone())
        else {
            return;
        };
        if let Some(p) = self.pending.remove(&id) {
            self.send_cancelled(now, &id, reason);
            self.forget(&id, &p);
            self.finish(
                op,
                &p.what,
                None,
                Err(OpError::Failed(Failure::Cancelled(reason.to_owned()))),
            );
        }
    }

    /// Answers a server-to-client request surfaced as [`Event::ServerRequest`].
    /// Returns false if there is no such request waiting (already answered or expired).
    pub fn answer(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        result: Result<Value, RpcError>,
    ) -> bool {
        if self.incoming.remove(id).is_none() {
            return false;
        }
        let msg = match result {
            Ok(v) => Message::response(id.clone(), v),
            Err(e) => Message::error(Some(id.clone()), e),
        };
        self.transmit(now, msg);
        true
    }

    /// Feeds one frame of received text (a line, a WebSocket frame, an HTTP body or SSE `data`).
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        let frame = decode_frame(text);
        self.events.push_back(Event::Wire(WireEntry {
            direction: Direction::Received,
            at: now,
            raw: frame.raw.clone(),
        }));
        if frame.batch {
            let allowed = self
                .negotiated
                .as_ref()
                .is_some_and(|n| n.version.allows_batches());
            if !allowed {
                self.diag(
                    Diagnostic::new(Rule::BatchNotAllowed, Severity::Warning, "the server sent a JSON-RPC batch, which only 2025-03-26 allows; reading each element anyway")
                        .with_raw(frame.raw.clone()),
                );
            }
        }
        for item in frame.items {
            match item {
                Ok(msg) => self.handle_message(now, msg),
                Err(e) => {
                    let rule = match e {
                        crate::jsonrpc::DecodeError::Json(_) => Rule::MalformedJson,
                        crate::jsonrpc::DecodeError::NotJsonRpc(_) => Rule::NotJsonRpc,
                    };
                    let d = Diagnostic::new(
                        rule,
                        Severity::Error,
                        format!("ignored a message from the server: {e}"),
                    )
                    .with_raw(frame.raw.clone());
                    self.diag(d);
                }
            }
        }
    }

    /// Tells the core that a request never reached the server or was refused by the
    /// transport (HTTP status, network error, expired session).
    pub fn handle_send_failed(&mut self, now: Timestamp, id: &RequestId, failure: SendFailure) {
        let Some(p) = self.pending.remove(id) else {
            return;
        };
        self.forget(id, &p);
        match failure {
            SendFailure::SessionExpired => {
                self.diag(Diagnostic::new(
                    Rule::Transport,
                    Severity::Info,
                    "the server no longer knows our session (HTTP 404); starting a new one",
                ));
                let deferred = Deferred {
                    op: p.op,
                    what: p.what.clone(),
                    method: p.method.clone(),
                    params: strip_stamp(p.params.clone()),
                    timeout: p.timeout,
                };
                match p.what {
                    What::Probe | What::Initialize(_) => self.start_initialize(now),
                    _ => {
                        self.waiting.push(deferred);
                        if self.phase == Phase::Ready {
                            self.start_initialize(now);
                        }
                    }
                }
            }
            SendFailure::Rejected { status, body } => {
                // A JSON-RPC error in the body is the server's real answer; use it.
                let err = Message::decode(&body).ok().and_then(|m| match m.body() {
                    Body::Error { error, .. } => Some(error.clone()),
                    _ => None,
                });
                match err {
                    Some(e) => self.on_error(now, id.clone(), p, e),
                    None => {
                        let why =
                            format!("HTTP {status}: {}", validate::truncate(body.trim(), 200));
                        self.on_failure(now, p, Failure::Transport(why));
                    }
                }
            }
            SendFailure::Network(why) => self.on_failure(now, p, Failure::Transport(why)),
        }
    }

    /// Tells the core that time has passed; expires requests whose deadline is due.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        let due: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(id, _)| id.clone())
            .collect();
        for id in due {
            let Some(p) = self.pending.remove(&id) else {
                continue;
            };
            self.forget(&id, &p);
            if matches!(p.what, What::Probe) {
                self.late_probe = Some(id.clone());
            }
            if !matches!(p.what, What::Initialize(_)) {
                // `initialize` must never be cancelled; everything else is told we gave up.
                self.send_cancelled(
                    now,
                    &id,
                    &format!("no answer within {} s", crate::num::fmt_secs(p.timeout)),
                );
            }
            self.on_failure(now, p.clone(), Failure::Timeout(p.timeout));
        }
        let late: Vec<RequestId> = self
            .incoming
            .iter()
            .filter(|(_, r)| r.deadline <= now)
            .map(|(id, _)| id.clone())
            .collect();
        for id in late {
            if let Some(r) = self.incoming.remove(&id) {
                let secs = crate::num::fmt_secs(self.cfg.server_request_timeout);
                self.diag(Diagnostic::new(Rule::Timeout, Severity::Warning, format!("the host did not answer the server's {} request within {secs} s; answered with an error", r.method)));
                let err = RpcError::new(
                    code::INTERNAL_ERROR,
                    format!("the client did not answer {} within {secs} s", r.method),
                );
                self.transmit(now, Message::error(Some(id), err));
            }
        }
    }

    /// Tells the core the connection is gone. Every operation in flight ends.
    pub fn handle_closed(&mut self, now: Timestamp, reason: &str) {
        if self.phase == Phase::Closed {
            return;
        }
        let was_connecting = matches!(
            self.phase,
            Phase::Probing | Phase::Initializing | Phase::Idle
        );
        self.phase = Phase::Closed;
        let mut pending: Vec<(RequestId, Pending)> = self.pending.drain().collect();
        pending.sort_by_key(|(_, p)| p.op);
        for (_, p) in pending {
            let f = Failure::Transport(reason.to_owned());
            self.finish(p.op, &p.what, None, Err(OpError::Failed(f)));
        }
        self.fail_waiting(&Failure::Transport(reason.to_owned()));
        self.suspended.clear();
        if was_connecting {
            self.events.push_back(Event::ConnectFailed(format!(
                "the connection closed before the handshake finished: {reason}"
            )));
        }
        self.incoming.clear();
        self.events.push_back(Event::Closed(reason.to_owned()));
        let _ = now;
    }

    /// The next frame to send, if any.
    pub fn poll_transmit(&mut self) -> Option<Outgoing> {
        self.outbox.pop_front()
    }

    /// The next event, if any.
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    /// When [`Client::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        // Requests without a deadline (listen streams) carry the saturated maximum.
        let a = self
            .pending
            .values()
            .map(|p| p.deadline)
            .filter(|d| d.0 != u64::MAX)
            .min();
        let b = self.incoming.values().map(|r| r.deadline).min();
        match (a, b) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    // ----- negotiation -----

    /// A slow server answered the probe after the fallback to `initialize` began. If
    /// it speaks a stateless revision we share, that is the better answer (a stateless
    /// server refuses `initialize`), so the pending handshake is abandoned.
    fn adopt_late_probe(&mut self, now: Timestamp, msg: &Message, result: &Value) -> bool {
        if self.phase != Phase::Initializing {
            return false;
        }
        let shares_stateless = result
            .get("supportedVersions")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
            .any(|v| v.generation() == Generation::Stateless && self.cfg.versions.contains(&v));
        if !shares_stateless {
            return false;
        }
        self.late_probe = None;
        let handshakes: Vec<RequestId> = self
            .pending
            .iter()
            .filter(|(_, p)| matches!(p.what, What::Initialize(_)))
            .map(|(id, _)| id.clone())
            .collect();
        for id in handshakes {
            if let Some(p) = self.pending.remove(&id) {
                self.forget(&id, &p);
            }
        }
        self.diag(Diagnostic::new(Rule::Negotiation, Severity::Info, "the server/discover answer arrived after the probe timed out; the server speaks 2026-07-28, so the initialize fallback is dropped"));
        self.on_discover(now, msg, result);
        true
    }

    fn start_probe(&mut self, now: Timestamp, v: ProtocolVersion) {
        self.phase = Phase::Probing;
        self.trying = Some(v);
        let op = self.new_op();
        let timeout = if self.cfg.mode == GenerationMode::Auto && !self.reprobed {
            self.cfg.probe_timeout
        } else {
            self.cfg.request_timeout
        };
        self.send_request(now, op, What::Probe, "server/discover", None, timeout);
    }

    fn start_initialize(&mut self, now: Timestamp) {
        let Some(v) = self.cfg.newest_initialize_version() else {
            self.connect_failed("the server does not speak 2026-07-28 and this client is configured for no earlier revision".into());
            return;
        };
        self.phase = Phase::Initializing;
        self.trying = None;
        self.negotiated = None;
        let op = self.new_op();
        let params = json!({
            "protocolVersion": v.as_str(),
            "capabilities": Value::Object(self.cfg.capabilities.clone()),
            "clientInfo": self.cfg.client_info,
        });
        let timeout = self.cfg.request_timeout;
        self.send_request(
            now,
            op,
            What::Initialize(v),
            "initialize",
            Some(params),
            timeout,
        );
    }

    fn on_discover(&mut self, now: Timestamp, msg: &Message, result: &Value) {
        let parsed = DiscoverResult::from_json(result);
        let Ok(d) = parsed else {
            return self.probe_fallback(
                now,
                "its server/discover result could not be read".into(),
                msg,
            );
        };
        let ours: Vec<ProtocolVersion> = self.cfg.versions.clone();
        let shared = d
            .supported_versions
            .iter()
            .filter_map(|s| ProtocolVersion::parse(s))
            .filter(|v| ours.contains(v))
            .max();
        match shared {
            Some(v) if v.generation() == Generation::Stateless => {
                if d.result_type.is_none() {
                    self.diag(Diagnostic::new(Rule::MissingResultType, Severity::Warning, "server/discover result has no resultType (required in 2026-07-28; read as \"complete\")"));
                }
                let server_info = d
                    .meta
                    .as_ref()
                    .and_then(|m| m.get(meta::SERVER_INFO))
                    .and_then(|v| crate::model::Implementation::from_json(v).ok());
                let n = Negotiated {
                    generation: Generation::Stateless,
                    version: v,
                    server_info,
                    capabilities: d.capabilities.clone(),
                    instructions: d.instructions.clone(),
                    server_versions: d.supported_versions.clone(),
                    result: result.clone(),
                };
                self.connected(now, n);
            }
            _ => {
                let listed = d.supported_versions.join(", ");
                self.probe_fallback(
                    now,
                    format!(
                        "it lists no stateless revision we share (supportedVersions: [{listed}])"
                    ),
                    msg,
                );
            }
        }
    }

    fn probe_fallback(&mut self, now: Timestamp, why: String, msg: &Message) {
        if self.cfg.mode == GenerationMode::Stateless {
            return self.connect_failed(format!("the server does not speak 2026-07-28: {why}"));
        }
        let d = Diagnostic::new(
            Rule::Negotiation,
            Severity::Info,
            format!("server/discover probe: {why}; falling back to initialize"),
        )
        .with_raw(msg.raw_shared());
        self.diag(d);
        self.start_initialize(now);
    }

    fn on_initialize(
        &mut self,
        now: Timestamp,
        offered: ProtocolVersion,
        msg: &Message,
        result: &Value,
    ) {
        let parsed = InitializeResult::from_json(result);
        let Ok(r) = parsed else {
            let d = Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                "the initialize result could not be read",
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
            return self.connect_failed("the initialize result could not be read".into());
        };
        let Some(v) = ProtocolVersion::parse(&r.protocol_version)
            .filter(|v| self.cfg.versions.contains(v) && v.generation() == Generation::Initialize)
        else {
            let d = Diagnostic::new(
                Rule::VersionNotOffered,
                Severity::Error,
                format!("the server chose protocol version {:?}, which this client does not speak (offered {offered})", r.protocol_version),
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
            return self.connect_failed(format!(
                "unsupported protocol version {:?}",
                r.protocol_version
            ));
        };
        if v != offered {
            self.diag(Diagnostic::new(
                Rule::Negotiation,
                Severity::Info,
                format!("asked for {offered}, the server chose {v}; using {v}"),
            ));
        }
        if r.server_info.name.is_empty() {
            self.diag(Diagnostic::new(
                Rule::ResultShape,
                Severity::Warning,
                "initialize result has no serverInfo.name",
            ));
        }
        let n = Negotiated {
            generation: Generation::Initialize,
            version: v,
            server_info: Some(r.server_info.clone()),
            capabilities: r.capabilities.clone(),
            instructions: r.instructions.clone(),
            server_versions: vec![r.protocol_version.clone()],
            result: result.clone(),
        };
        // Record the revision first: `initialized` already needs its HTTP header.
        self.negotiated = Some(n.clone());
        self.transmit(
            now,
            Message::notification("notifications/initialized", None),
        );
        self.connected(now, n);
    }

    fn connected(&mut self, now: Timestamp, n: Negotiated) {
        self.phase = Phase::Ready;
        self.trying = None;
        let listen = self.cfg.listen_for_list_changes
            && n.generation == Generation::Stateless
            && n.tools_list_changed();
        self.negotiated = Some(n.clone());
        self.events.push_back(Event::Connected(n));
        if listen {
            let op = self.new_op();
            let params = json!({ "notifications": { "toolsListChanged": true } });
            // A listen stream has no answer until the server ends it: no deadline.
            self.send_request(
                now,
                op,
                What::Listen,
                "subscriptions/listen",
                Some(params),
                Duration::MAX,
            );
        }
        for d in std::mem::take(&mut self.waiting) {
            self.send_request(now, d.op, d.what, &d.method, d.params, d.timeout);
        }
    }

    fn connect_failed(&mut self, why: String) {
        self.phase = Phase::Closed;
        self.fail_waiting(&Failure::NotConnected(why.clone()));
        self.events.push_back(Event::ConnectFailed(why));
    }

    fn fail_waiting(&mut self, f: &Failure) {
        for d in std::mem::take(&mut self.waiting) {
            self.finish(d.op, &d.what, None, Err(OpError::Failed(f.clone())));
        }
    }

    // ----- sending -----

    fn new_op(&mut self) -> OpId {
        self.next_op += 1;
        OpId(self.next_op)
    }

    fn submit(
        &mut self,
        now: Timestamp,
        op: OpId,
        what: What,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) {
        match self.phase {
            Phase::Ready => self.send_request(now, op, what, method, params, timeout),
            Phase::Closed => self.finish(
                op,
                &what,
                None,
                Err(OpError::Failed(Failure::NotConnected(
                    "the session is closed".into(),
                ))),
            ),
            Phase::Idle => {
                self.waiting.push(Deferred {
                    op,
                    what,
                    method: method.to_owned(),
                    params,
                    timeout,
                });
                self.connect(now);
            }
            Phase::Probing | Phase::Initializing => self.waiting.push(Deferred {
                op,
                what,
                method: method.to_owned(),
                params,
                timeout,
            }),
        }
    }

    /// The revision outgoing requests are stamped with: the negotiated one, or the one being tried.
    fn stamp_version(&self) -> Option<ProtocolVersion> {
        self.negotiated.as_ref().map(|n| n.version).or(self.trying)
    }

    fn send_request(
        &mut self,
        now: Timestamp,
        op: OpId,
        what: What,
        method: &str,
        params: Option<Value>,
        timeout: Duration,
    ) {
        self.next_id += 1;
        let id = RequestId::Number(self.next_id);
        let version = self.stamp_version();
        let stateless = version.is_some_and(|v| v.generation() == Generation::Stateless);
        let params = if stateless {
            Some(self.stamp(params, version))
        } else {
            params
        };
        let progress_token = params
            .as_ref()
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .map(token_key);
        if let Some(t) = &progress_token {
            self.progress
                .insert(t.clone(), (id.clone(), f64::NEG_INFINITY));
        }
        let msg = Message::request(id.clone(), method, params.clone());
        let p = Pending {
            op,
            what,
            method: method.to_owned(),
            params,
            timeout,
            deadline: now.after(timeout),
            progress_token,
        };
        self.pending.insert(id, p);
        self.transmit(now, msg);
    }

    /// Adds the 2026-07-28 per-request `_meta` keys, keeping any the caller set.
    fn stamp(&self, params: Option<Value>, version: Option<ProtocolVersion>) -> Value {
        let mut p = match params {
            Some(Value::Object(o)) => o,
            _ => Map::new(),
        };
        let m = p
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = m {
            if let Some(v) = version {
                m.insert(meta::PROTOCOL_VERSION.into(), Value::from(v.as_str()));
            }
            m.insert(
                meta::CLIENT_CAPABILITIES.into(),
                Value::Object(self.cfg.capabilities.clone()),
            );
            m.insert(meta::CLIENT_INFO.into(), self.cfg.client_info.to_json());
        }
        Value::Object(p)
    }

    fn transmit(&mut self, now: Timestamp, msg: Message) {
        let headers = outgoing::headers(&msg, self.stamp_version());
        let param_headers = self.param_headers(&msg);
        self.events.push_back(Event::Wire(WireEntry {
            direction: Direction::Sent,
            at: now,
            raw: msg.raw_shared(),
        }));
        self.outbox.push_back(Outgoing {
            message: msg,
            headers,
            param_headers,
        });
    }

    /// 2026-07-28 `Mcp-Param-*` headers for a `tools/call`, from the annotations of
    /// the tool as last listed (a tool never listed gets none).
    fn param_headers(&mut self, msg: &Message) -> Vec<(String, String)> {
        let stateless = self
            .stamp_version()
            .is_some_and(|v| v.generation() == Generation::Stateless);
        if !stateless || msg.method() != Some("tools/call") {
            return Vec::new();
        }
        let params = msg.value().get("params");
        let name = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let Some(specs) = name.and_then(|n| self.param_specs.get(n)) else {
            return Vec::new();
        };
        let (headers, notes) =
            param_headers::headers(specs, params.and_then(|p| p.get("arguments")));
        for note in notes {
            self.diag(Diagnostic::new(Rule::ParamHeader, Severity::Warning, note));
        }
        headers
    }

    fn send_cancelled(&mut self, now: Timestamp, id: &RequestId, reason: &str) {
        let params = json!({ "requestId": id.to_value(), "reason": reason });
        self.transmit(
            now,
            Message::notification("notifications/cancelled", Some(params)),
        );
    }

    /// Drops bookkeeping for a request that will get no more processing.
    fn forget(&mut self, id: &RequestId, p: &Pending) {
        if let Some(t) = &p.progress_token {
            self.progress.remove(t);
        }
        self.finished.push_back(id.clone());
        if self.finished.len() > FINISHED_MEMORY {
            self.finished.pop_front();
        }
    }

    // ----- receiving -----

    fn handle_message(&mut self, now: Timestamp, msg: Message) {
        match msg.body() {
            Body::Response { id, result } => self.on_response(now, id.clone(), &msg, result),
            Body::Error {
                id: Some(id),
                error,
            } => match self.pending.remove(id) {
                Some(p) => {
                    self.forget(id, &p);
                    let (id, error) = (id.clone(), error.clone());
                    self.on_error_with_msg(now, id, p, error, Some(msg));
                }
                None => self.unknown_id(id, &msg),
            },
            Body::Error { id: None, error } => {
                let d = Diagnostic::new(
                    Rule::InvalidRequest,
                    Severity::Error,
                    format!("the server reported an error tied to no request: {error}"),
                )
                .with_raw(msg.raw_shared());
                self.diag(d);
            }
            Body::Request { id, method, params } => {
                self.on_server_request(now, id.clone(), method.clone(), params.clone(), &msg)
            }
            Body::Notification { method, params } => {
                self.on_notification(now, method.clone(), params.clone(), &msg)
            }
        }
    }

    fn unknown_id(&mut self, id: &RequestId, msg: &Message) {
        let (rule, sev, text) = if self.finished.contains(id) {
            (
                Rule::LateResponse,
                Severity::Info,
                format!(
                    "ignored a late response to request {id}, which had already been cancelled or timed out"
                ),
            )
        } else {
            (
                Rule::UnknownResponseId,
                Severity::Error,
                format!(
                    "the server answered request id {id}, which the client never sent or already has an answer for"
                ),
            )
        };
        self.diag(Diagnostic::new(rule, sev, text).with_raw(msg.raw_shared()));
    }

    fn on_response(&mut self, now: Timestamp, id: RequestId, msg: &Message, result: &Value) {
        let Some(p) = self.pending.remove(&id) else {
            if self.late_probe.as_ref() == Some(&id) && self.adopt_late_probe(now, msg, result) {
                return;
            }
            return self.unknown_id(&id, msg);
        };
        self.forget(&id, &p);
        let stateless = self
            .stamp_version()
            .is_some_and(|v| v.generation() == Generation::Stateless);
        if stateless && !matches!(p.what, What::Probe) && result.get("resultType").is_none() {
            self.diag(Diagnostic::new(Rule::MissingResultType, Severity::Warning, format!("the {} result has no resultType (required in 2026-07-28; read as \"complete\")", p.method)).with_raw(msg.raw_shared()));
        }
        match p.what.clone() {
            What::Probe => self.on_discover(now, msg, result),
            What::Initialize(v) => self.on_initialize(now, v, msg, result),
            What::ListPage => self.on_list_page(now, p, msg, result),
            What::Call { name } => self.on_call_result(&p, &name, msg, result),
            What::Raw => {
                // MRTR applies to these two as well; the host may continue them.
                if matches!(p.method.as_str(), "prompts/get" | "resources/read")
                    && is_input_required(result)
                {
                    self.suspend(&p, result, msg);
                }
                self.events.push_back(Event::Response {
                    op: p.op,
                    outcome: Ok(result.clone()),
                })
            }
            What::Listen => self.diag(Diagnostic::new(
                Rule::Negotiation,
                Severity::Info,
                "the server closed the subscriptions/listen stream",
            )),
        }
    }

    fn on_error(&mut self, now: Timestamp, id: RequestId, p: Pending, error: RpcError) {
        self.on_error_with_msg(now, id, p, error, None);
    }

    fn on_error_with_msg(
        &mut self,
        now: Timestamp,
        _id: RequestId,
        p: Pending,
        error: RpcError,
        msg: Option<Message>,
    ) {
        if error.code == code::UNSUPPORTED_PROTOCOL_VERSION && self.retry_version(now, &p, &error) {
            return;
        }
        match &p.what {
            What::Probe => {
                let why = format!("the server answered server/discover with an error: {error}");
                let raw = msg.unwrap_or_else(|| Message::error(None, error.clone()));
                self.probe_fallback(now, why, &raw);
            }
            What::Initialize(_) => {
                // A stateless server that missed (or answered too late) our probe
                // refuses the handshake naming the revisions it speaks: probe again.
                let stateless = error
                    .data
                    .as_ref()
                    .and_then(|d| d.get("supported"))
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
                    .filter(|v| {
                        v.generation() == Generation::Stateless && self.cfg.versions.contains(v)
                    })
                    .max();
                match stateless {
                    Some(v) if !self.reprobed && self.cfg.mode == GenerationMode::Auto => {
                        self.reprobed = true;
                        self.diag(Diagnostic::new(Rule::Negotiation, Severity::Info, format!("initialize was refused by a server that speaks {v}; probing server/discover again")));
                        self.start_probe(now, v);
                    }
                    _ => self.connect_failed(format!("the server refused initialize: {error}")),
                }
            }
            _ => self.finish(p.op, &p.what, msg, Err(OpError::Rpc(error))),
        }
    }

    /// 2026-07-28: on `UnsupportedProtocolVersion`, retry with a revision both sides speak.
    fn retry_version(&mut self, now: Timestamp, p: &Pending, error: &RpcError) -> bool {
        let Some(current) = self
            .stamp_version()
            .filter(|v| v.generation() == Generation::Stateless)
        else {
            return false;
        };
        let supported: Vec<String> = error
            .data
            .as_ref()
            .and_then(|d| d.get("supported"))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        let shared = supported
            .iter()
            .filter_map(|s| ProtocolVersion::parse(s))
            // The current revision may be retried once: a server can refuse it in one
            // place (a stale cache, a proxy) while listing it as supported.
            .filter(|v| {
                self.cfg.versions.contains(v)
                    && (*v != current || !self.version_retried.contains(&p.op))
            })
            .max();
        match shared {
            Some(v) if v.generation() == Generation::Stateless => {
                self.version_retried.insert(p.op);
                let text = if v == current {
                    format!(
                        "the server refused {} for {current} yet lists {current} as supported; sending it once more",
                        p.method
                    )
                } else {
                    format!(
                        "the server does not accept {current}; retrying {} with {v}",
                        p.method
                    )
                };
                self.diag(Diagnostic::new(Rule::Negotiation, Severity::Info, text));
                if let Some(n) = &mut self.negotiated {
                    n.version = v;
                } else {
                    self.trying = Some(v);
                }
                self.send_request(
                    now,
                    p.op,
                    p.what.clone(),
                    &p.method,
                    strip_stamp(p.params.clone()),
                    p.timeout,
                );
                true
            }
            Some(_) if matches!(p.what, What::Probe) && self.cfg.mode == GenerationMode::Auto => {
                let d = Diagnostic::new(
                    Rule::Negotiation,
                    Severity::Info,
                    format!(
                        "the server supports only [{}]; falling back to initialize",
                        supported.join(", ")
                    ),
                );
                self.diag(d);
                self.start_initialize(now);
                true
            }
            _ => false,
        }
    }

    fn on_failure(&mut self, now: Timestamp, p: Pending, f: Failure) {
        match p.what {
            What::Probe => {
                let why = match &f {
                    Failure::Timeout(d) => {
                        format!(
                            "no answer to server/discover within {} s",
                            crate::num::fmt_secs(*d)
                        )
                    }
                    other => other.to_string(),
                };
                let msg = Message::notification("server/discover", None);
                self.probe_fallback(now, why, &msg);
            }
            What::Initialize(_) => self.connect_failed(format!("initialize failed: {f}")),
            _ => self.finish(p.op, &p.what, None, Err(OpError::Failed(f))),
        }
    }

    fn finish(
        &mut self,
        op: OpId,
        what: &What,
        msg: Option<Message>,
        outcome: Result<Value, OpError>,
    ) {
        match what {
            What::ListPage => {
                let pages = self.listings.remove(&op).map_or(0, |l| l.pages);
                if let Err(error) = outcome {
                    self.events
                        .push_back(Event::ToolsListFailed { op, pages, error });
                }
            }
            What::Call { .. } => {
                let outcome = match outcome {
                    Ok(_) => return,
                    Err(OpError::Rpc(e)) => CallOutcome::ProtocolError(e),
                    Err(OpError::Failed(f)) => CallOutcome::Failed(f),
                };
                self.events.push_back(Event::CallFinished {
                    op,
                    outcome,
                    message: msg,
                });
            }
            What::Raw => self.events.push_back(Event::Response { op, outcome }),
            What::Listen => {
                if let Err(e) = outcome {
                    let d = Diagnostic::new(
                        Rule::Negotiation,
                        Severity::Info,
                        format!(
                            "no subscriptions/listen stream, so no list_changed notifications: {e}"
                        ),
                    );
                    self.diag(d);
                }
            }
            What::Probe | What::Initialize(_) => {}
        }
    }

    fn on_list_page(&mut self, now: Timestamp, p: Pending, msg: &Message, result: &Value) {
        let op = p.op;
        let Some(mut listing) = self.listings.remove(&op) else {
            return;
        };
        let version = self
            .stamp_version()
            .unwrap_or(ProtocolVersion::LATEST_WITH_INITIALIZE);
        let Some(obj) = result.as_object() else {
            let d = Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                "tools/list result is not an object",
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
            let error = OpError::Failed(Failure::Malformed(
                "tools/list result is not an object".into(),
            ));
            self.events.push_back(Event::ToolsListFailed {
                op,
                pages: listing.pages,
                error,
            });
            return;
        };
        listing.pages += 1;
        if listing.pages == 1 {
            self.tools.clear();
            self.param_specs.clear();
            self.dropped.clear();
        }
        // `x-mcp-header` exists from 2026-07-28 on; older revisions never read it.
        let stateless = version.generation() == Generation::Stateless;
        let mut diags = Vec::new();
        let mut tools = Vec::new();
        let mut specs = Vec::new();
        match obj.get("tools") {
            Some(Value::Array(items)) => {
                for (i, item) in items.iter().enumerate() {
                    match Tool::from_json(item) {
                        Ok(t) => {
                            if stateless {
                                match param_headers::annotations(&t.input_schema) {
                                    Ok(found) if found.is_empty() => {}
                                    Ok(found) => specs.push((t.name.clone(), found)),
                                    Err(why) => {
                                        diags.push(Diagnostic::new(
                                            Rule::ParamHeader,
                                            Severity::Error,
                                            format!(
                                                "left out tool {:?}: {why} (clients must exclude tools with invalid x-mcp-header annotations)",
                                                t.name
                                            ),
                                        ));
                                        self.dropped.insert(t.name.clone(), why);
                                        continue;
                                    }
                                }
                            }
                            validate::check_tool(&t, version, &mut diags);
                            validate::check_unique(&t, &mut listing.names, &mut diags);
                            tools.push(t);
                        }
                        Err(e) => diags.push(Diagnostic::new(
                            Rule::ToolShape,
                            Severity::Error,
                            format!(
                                "tools[{i}] on page {} could not be read and was skipped: {e}",
                                listing.pages
                            ),
                        )),
                    }
                }
            }
            other => diags.push(Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                format!(
                    "tools/list result has {} instead of a \"tools\" array",
                    other.map_or("nothing", validate::kind_of)
                ),
            )),
        }
        for d in diags {
            self.diag(d.with_raw(msg.raw_shared()));
        }
        let mut next = match obj.get("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(other) => {
                self.diag(Diagnostic::new(
                    Rule::ResultShape,
                    Severity::Error,
                    format!(
                        "nextCursor is {}, not a string; treating this page as the last",
                        validate::kind_of(other)
                    ),
                ));
                None
            }
        };
        if next.as_deref() == Some("") {
            self.diag(Diagnostic::new(Rule::RepeatingCursor, Severity::Warning, "nextCursor is an empty string; treating this page as the last (omit nextCursor to end a list)"));
            next = None;
        }
        for t in &tools {
            // A later tool of the same name that is valid wins over a dropped one.
            self.dropped.remove(&t.name);
            self.tools.insert(t.name.clone(), t.clone());
        }
        self.param_specs.extend(specs);
        listing.tools += tools.len();
        self.events.push_back(Event::ToolsPage {
            op,
            page: listing.pages,
            tools,
            next_cursor: next.clone(),
            message: msg.clone(),
        });
        match next {
            None => self.events.push_back(Event::ToolsListed {
                op,
                pages: listing.pages,
                tools: listing.tools,
            }),
            Some(c) if !listing.cursors.insert(c.clone()) => {
                let text = format!(
                    "tools/list returned cursor {:?} a second time (page {}); stopping instead of looping forever",
                    validate::truncate(&c, 60),
                    listing.pages
                );
                self.diag(Diagnostic::new(
                    Rule::RepeatingCursor,
                    Severity::Error,
                    text.clone(),
                ));
                let error = OpError::Failed(Failure::Malformed(text));
                self.events.push_back(Event::ToolsListFailed {
                    op,
                    pages: listing.pages,
                    error,
                });
            }
            Some(_) if listing.pages >= self.cfg.max_list_pages => {
                let text = format!(
                    "tools/list still had more after {} pages; stopping (limit {})",
                    listing.pages, self.cfg.max_list_pages
                );
                self.diag(Diagnostic::new(
                    Rule::TooManyPages,
                    Severity::Error,
                    text.clone(),
                ));
                let error = OpError::Failed(Failure::Malformed(text));
                self.events.push_back(Event::ToolsListFailed {
                    op,
                    pages: listing.pages,
                    error,
                });
            }
            Some(c) => {
                self.listings.insert(op, listing);
                self.send_request(
                    now,
                    op,
                    What::ListPage,
                    "tools/list",
                    Some(json!({ "cursor": c })),
                    p.timeout,
                );
            }
        }
    }

    fn on_call_result(&mut self, p: &Pending, name: &str, msg: &Message, result: &Value) {
        let op = p.op;
        if is_input_required(result) {
            self.suspend(p, result, msg);
            self.events.push_back(Event::CallFinished {
                op,
                outcome: CallOutcome::InputRequired(result.clone()),
                message: Some(msg.clone()),
            });
            return;
        }
        let version = self
            .stamp_version()
            .unwrap_or(ProtocolVersion::LATEST_WITH_INITIALIZE);
        let outcome = match CallToolResult::from_json(result) {
            Ok(r) if result.is_object() => {
                let mut diags = Vec::new();
                validate::check_call_result(result, &r, self.tools.get(name), version, &mut diags);
                for d in diags {
                    self.diag(d.with_raw(msg.raw_shared()));
                }
                if r.failed() {
                    CallOutcome::ToolError(r)
                } else {
                    CallOutcome::Success(r)
                }
            }
            Ok(_) | Err(_) => {
                let text = format!(
                    "the tools/call result is {}, not a CallToolResult",
                    validate::kind_of(result)
                );
                self.diag(
                    Diagnostic::new(Rule::ResultShape, Severity::Error, text.clone())
                        .with_raw(msg.raw_shared()),
                );
                CallOutcome::Failed(Failure::Malformed(text))
            }
        };
        self.events.push_back(Event::CallFinished {
            op,
            outcome,
            message: Some(msg.clone()),
        });
    }

    /// Keeps what a continuation needs and checks the `InputRequiredResult`
    /// against the MRTR rules.
    fn suspend(&mut self, p: &Pending, result: &Value, msg: &Message) {
        let mut diags = Vec::new();
        let mut requested = Vec::new();
        let requests = result.get("inputRequests");
        match requests {
            None => {}
            Some(Value::Object(map)) => {
                for (key, req) in map {
                    requested.push(key.clone());
                    if let Some(d) = self.check_input_request(key, req) {
                        diags.push(d);
                    }
                }
            }
            Some(other) => diags.push(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!(
                    "inputRequests is {}, not an object of requests",
                    validate::kind_of(other)
                ),
            )),
        }
        let request_state = result.get("requestState").cloned();
        match &request_state {
            None | Some(Value::String(_)) => {}
            Some(other) => diags.push(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!(
                    "requestState is {}, not a string; it will be echoed back unchanged anyway",
                    validate::kind_of(other)
                ),
            )),
        }
        if requests.is_none() && request_state.is_none() {
            diags.push(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                "an input_required result must carry inputRequests or requestState (it has neither)",
            ));
        }
        for d in diags {
            self.diag(d.with_raw(msg.raw_shared()));
        }
        if self.suspended.len() >= SUSPENDED_MEMORY
            && let Some(oldest) = self.suspended.keys().min().copied()
        {
            self.suspended.remove(&oldest);
        }
        self.suspended.insert(
            p.op,
            Suspended {
                what: p.what.clone(),
                method: p.method.clone(),
                params: strip_input(strip_stamp(p.params.clone())),
                timeout: p.timeout,
                requested,
                request_state,
            },
        );
    }

    /// One entry of `inputRequests`: a known method, for a declared capability.
    fn check_input_request(&self, key: &str, req: &Value) -> Option<Diagnostic> {
        let Some(method) = req.get("method").and_then(Value::as_str) else {
            return Some(Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!("input request {key:?} has no method"),
            ));
        };
        let cap = match method {
            "elicitation/create" => "elicitation",
            "sampling/createMessage" => "sampling",
            "roots/list" => "roots",
            other => {
                return Some(Diagnostic::new(
                    Rule::InputRequired,
                    Severity::Warning,
                    format!(
                        "input request {key:?} is {other:?}, not elicitation/create, sampling/createMessage or roots/list"
                    ),
                ));
            }
        };
        (!self.cfg.declares(cap)).then(|| {
            Diagnostic::new(
                Rule::InputRequired,
                Severity::Error,
                format!(
                    "input request {key:?} is {method}, but the client did not declare the {cap:?} capability (servers must not ask for it)"
                ),
            )
        })
    }

    fn on_server_request(
        &mut self,
        now: Timestamp,
        id: RequestId,
        method: String,
        params: Option<Value>,
        msg: &Message,
    ) {
        if self.phase == Phase::Initializing && method != "ping" {
            let d = Diagnostic::new(Rule::RequestBeforeInitialized, Severity::Warning, format!("the server sent {method} before answering initialize (only ping may come first)")).with_raw(msg.raw_shared());
            self.diag(d);
        }
        let deadline = now.after(self.cfg.server_request_timeout);
        let capability = match method.as_str() {
            "ping" => {
                // The spec asks for a prompt answer; the host needs no say in it.
                self.transmit(now, Message::response(id.clone(), json!({})));
                self.events.push_back(Event::ServerRequest {
                    id,
                    method,
                    params,
                    answered: true,
                    deadline: now,
                });
                return;
            }
            "roots/list" => Some("roots"),
            "sampling/createMessage" => Some("sampling"),
            "elicitation/create" => Some("elicitation"),
            _ => None,
        };
        match capability {
            Some(cap) if self.cfg.declares(cap) => {
                if self.incoming.contains_key(&id) {
                    let d = Diagnostic::new(
                        Rule::InvalidRequest,
                        Severity::Error,
                        format!("the server reused request id {id} while it was still open"),
                    )
                    .with_raw(msg.raw_shared());
                    self.diag(d);
                    return;
                }
                self.incoming.insert(
                    id.clone(),
                    Incoming {
                        method: method.clone(),
                        deadline,
                    },
                );
                self.events.push_back(Event::ServerRequest {
                    id,
                    method,
                    params,
                    answered: false,
                    deadline,
                });
            }
            _ => {
                let text = match capability {
                    Some(cap) => format!(
                        "the server sent {method}, but the client did not declare the {cap:?} capability"
                    ),
                    None => format!("the server sent an unknown request method {method:?}"),
                };
                self.diag(
                    Diagnostic::new(Rule::UnexpectedRequest, Severity::Warning, text.clone())
                        .with_raw(msg.raw_shared()),
                );
                self.transmit(
                    now,
                    Message::error(
                        Some(id.clone()),
                        RpcError::new(
                            code::METHOD_NOT_FOUND,
                            format!("Method not found: {method}"),
                        ),
                    ),
                );
                self.events.push_back(Event::ServerRequest {
                    id,
                    method,
                    params,
                    answered: true,
                    deadline: now,
                });
            }
        }
    }

    fn on_notification(
        &mut self,
        now: Timestamp,
        method: String,
        params: Option<Value>,
        msg: &Message,
    ) {
        match method.as_str() {
            "notifications/tools/list_changed" => self.events.push_back(Event::ToolsListChanged),
            "notifications/progress" => self.on_progress(now, params.unwrap_or(Value::Null), msg),
            "notifications/cancelled" => {
                // The server gave up on one of its own requests to us.
                if let Some(id) = params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(RequestId::from_value)
                {
                    self.incoming.remove(&id);
                }
                self.events
                    .push_back(Event::Notification { method, params });
            }
            _ => self
                .events
                .push_back(Event::Notification { method, params }),
        }
    }

    fn on_progress(&mut self, now: Timestamp, params: Value, msg: &Message) {
        let token = params.get("progressToken").map(token_key);
        let progress = params.get("progress").and_then(Value::as_f64);
        let (Some(token), Some(progress)) = (token, progress) else {
            let d = Diagnostic::new(
                Rule::Progress,
                Severity::Error,
                "notifications/progress needs progressToken and a numeric progress",
            )
            .with_raw(msg.raw_shared());
            return self.diag(d);
        };
        let Some((id, last)) = self.progress.get(&token).cloned() else {
            let d = Diagnostic::new(
                Rule::Progress,
                Severity::Warning,
                format!("progress for token {token} that matches no request in flight"),
            )
            .with_raw(msg.raw_shared());
            return self.diag(d);
        };
        if progress <= last {
            let d = Diagnostic::new(
                Rule::Progress,
                Severity::Warning,
                format!(
                    "progress went from {} to {}; it must increase",
                    crate::num::fmt_num(last),
                    crate::num::fmt_num(progress)
                ),
            )
            .with_raw(msg.raw_shared());
            self.diag(d);
        }
        self.progress.insert(token, (id.clone(), progress));
        let Some(p) = self.pending.get_mut(&id) else {
            return;
        };
        // Progress shows the server is alive, so the timeout starts again (spec: MAY).
        p.deadline = now.after(p.timeout);
        let op = p.op;
        self.events.push_back(Event::Progress {
            op,
            progress,
            total: params.get("total").and_then(Value::as_f64),
            message: params
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        });
    }

    fn diag(&mut self, d: Diagnostic) {
        self.events.push_back(Event::Diagnostic(d));
    }
}

/// A progress token as a map key: strings and numbers never collide ("1" vs 1).
fn token_key(v: &Value) -> String {
    v.to_string()
}

/// Whether a result is a 2026-07-28 `InputRequiredResult`.
fn is_input_required(result: &Value) -> bool {
    result.get("resultType").and_then(Value::as_str) == Some("input_required")
}

/// Removes a previous MRTR round's answers: each retry carries only its own.
fn strip_input(params: Option<Value>) -> Option<Value> {
    let mut p = params?;
    if let Some(o) = p.as_object_mut() {
        o.remove("inputResponses");
        o.remove("requestState");
    }
    Some(p)
}

/// Removes the per-request 2026-07-28 `_meta` keys so a retry can stamp them afresh.
fn strip_stamp(params: Option<Value>) -> Option<Value> {
    let mut p = params?;
    if let Some(m) = p.get_mut("_meta").and_then(Value::as_object_mut) {
        m.remove(meta::PROTOCOL_VERSION);
        m.remove(meta::CLIENT_CAPABILITIES);
        m.remove(meta::CLIENT_INFO);
        if m.is_empty()
            && let Some(o) = p.as_object_mut()
        {
            o.remove("_meta");
        }
    }
    match &p {
        Value::Object(o) if o.is_empty() => None,
        _ => Some(p),
    }
}
