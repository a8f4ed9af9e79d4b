//! The client session: a sans-IO state machine. Text goes in through `handle_*`
//! with the current time, frames to send come out of [`Client::poll_transmit`],
//! and everything that happened comes out of [`Client::poll_event`].
//!
//! ```text
//!  driver ──handle_text/handle_timeout/handle_closed──▶ Client ──poll_transmit──▶ transport
//!                                                         └────poll_event──────▶ host / UI
//! ```

mod answers;
mod ask_rules;
mod asks;
mod calls;
mod catalog;
mod catalog_page;
mod config;
mod dispatch;
mod elicitation;
mod event;
mod faults;
mod finish;
mod incoming;
mod list_page;
mod listen;
mod listing;
mod mrtr;
mod negotiation;
mod notices;
mod outgoing;
mod param_headers;
mod readers;
mod requests;
mod stamp;
mod subscriptions;
mod task_ends;
mod task_ext;
mod task_types;
mod tasks;
mod version_retry;

pub use answers::{Answer, ListItems, ListKind};
pub use config::{ClientConfig, GenerationMode, TaskTiming};
pub use event::{
    CallOutcome, ConnectError, Direction, Event, Failure, Negotiated, OpError, OpId, WireEntry,
};
pub use outgoing::{Outgoing, SendFailure, TRANSPORT_HEADERS, is_transport_header};
pub use param_headers::{param_header_count, param_header_problem};
pub use readers::AnswerReaders;
pub use task_types::{TASKS_EXTENSION, TaskEvent, TaskRequest, TaskStatus};

use std::collections::{HashMap, HashSet, VecDeque};
use std::time::Duration;

use serde_json::Value;

use crate::diag::Diagnostic;
use crate::jsonrpc::RequestId;
use crate::model::{JsonObject, LoggingLevel, Tool};
use crate::time::Timestamp;
use crate::version::ProtocolVersion;
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
    /// Run the call as a 2025-11-25 task (`params.task`): the client polls the
    /// task and the call still ends in one [`Event::CallFinished`].
    pub task: Option<TaskRequest>,
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
    /// One page of a resource, template or prompt listing.
    List(ListKind),
    /// A single request with a typed answer ([`Event::Answered`]).
    Ask(Ask),
    Call {
        name: String,
    },
    Raw,
    /// A `subscriptions/listen` stream: open for the session's life.
    Listen,
    /// A request about the task behind a call (the pending op is the call's).
    Task(task_types::TaskStep),
}

/// What a single typed request is, to read its answer.
#[derive(Clone, Debug, PartialEq)]
enum Ask {
    Read,
    Prompt,
    Complete,
    Subscribe(String),
    Unsubscribe(String),
    SetLevel(LoggingLevel),
}

/// A 2026-07-28 subscription change waiting for the server's
/// `notifications/subscriptions/acknowledged` on the listen stream that carries it.
#[derive(Clone, Debug)]
struct AckWait {
    op: OpId,
    listen: RequestId,
    uri: String,
    subscribe: bool,
    deadline: Timestamp,
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
    /// Items (tools, resources, templates or prompts) in all pages so far.
    items: usize,
    cursors: HashSet<String>,
    /// Names (or URIs, or templates) seen so far, to find duplicates across pages.
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
    /// The level asked for with [`Client::set_log_level`]: stamped on every
    /// 2026-07-28 request, and the floor log messages are checked against.
    log_level: Option<LoggingLevel>,
    /// Resources subscribed to (2026-07-28: the listen stream's filter).
    subscribed: subscriptions::UriSet,
    /// The open 2026-07-28 `subscriptions/listen` request, if any.
    listen: Option<RequestId>,
    /// Subscription changes waiting for their acknowledgement (2026-07-28).
    acks: Vec<AckWait>,
    /// URL elicitations the server sent the user to, not yet completed (2025-11-25).
    open_elicitations: VecDeque<String>,
    /// Task-augmented calls whose task has not ended, by the call's operation
    /// (2025-11-25 and the Tasks extension alike).
    tasks: tasks::TaskBook,
    outbox: VecDeque<Outgoing>,
    events: VecDeque<Event>,
    /// Who reads tool call, resource, prompt and completion answers and the server's
    /// requests and notifications (`readers.rs`).
    readers: Option<AnswerReaders>,
    /// The server's requests and notifications that came before the readers, with
    /// the time each came.
    held: Vec<(Timestamp, crate::jsonrpc::Message)>,
}
impl Client {
    /// A new, unconnected client.
    pub fn new(cfg: ClientConfig) -> Self {
        let mut client = Client::new_bare(cfg);
        client.readers = Some(AnswerReaders::ALL);
        client
    }

    /// A new client with no answer readers: refers to none of their code.
    fn new_bare(cfg: ClientConfig) -> Self {
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
            log_level: None,
            subscribed: subscriptions::UriSet::default(),
            listen: None,
            acks: Vec::new(),
            open_elicitations: VecDeque::new(),
            tasks: tasks::TaskBook::default(),
            outbox: VecDeque::new(),
            events: VecDeque::new(),
            readers: None,
            held: Vec::new(),
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
        let c = self.acks.iter().map(|w| w.deadline).min();
        let d = self.readers.and_then(|r| (r.tasks.wake)(self));
        [a, b, c, d].into_iter().flatten().min()
    }

    /// The resources subscribed to, in URI order.
    pub fn subscriptions(&self) -> impl Iterator<Item = &str> {
        self.subscribed.iter().map(String::as_str)
    }

    /// The log level last asked for with [`Client::set_log_level`], if any.
    pub fn log_level(&self) -> Option<LoggingLevel> {
        self.log_level
    }

    pub(super) fn diag(&mut self, d: Diagnostic) {
        self.events.push_back(Event::Diagnostic(d));
    }
}
