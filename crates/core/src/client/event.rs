//! What the client session reports to its driver: one closed enum.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::answers::{Answer, ListItems, ListKind};
use crate::diag::Diagnostic;
use crate::jsonrpc::{Message, RequestId, RpcError};
use crate::model::{CallToolResult, Implementation, JsonObject, LogMessage, Tool};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// Handle for one operation the host started (a listing, a call, a raw request).
/// Stays the same when the core retries the request under a new JSON-RPC id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId(pub u64);

/// Which way a message travelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Client → server.
    Sent,
    /// Server → client.
    Received,
}

/// One frame on the wire, exactly as it was.
#[derive(Clone, Debug, PartialEq)]
pub struct WireEntry {
    /// Which way.
    pub direction: Direction,
    /// When (driver's clock).
    pub at: Timestamp,
    /// The exact text.
    pub raw: Arc<str>,
    /// The one JSON-RPC message the text holds, as the core decoded it (`None`: a
    /// batch, text that is no message, or a note of the core's own). Readers use
    /// it instead of decoding the text again: a 10 MB answer took ~30 ms per
    /// decode in the page, and the page, the log and the loop each decoded it.
    pub message: Option<crate::jsonrpc::Message>,
}

/// What the client and server agreed on.
#[derive(Clone, Debug, PartialEq)]
pub struct Negotiated {
    /// Handshake style.
    pub generation: Generation,
    /// The shared revision.
    pub version: ProtocolVersion,
    /// The server's name and version, when it said.
    pub server_info: Option<Implementation>,
    /// `ServerCapabilities`.
    pub capabilities: JsonObject,
    /// Instructions for the model, when the server gave some.
    pub instructions: Option<String>,
    /// Revisions the server listed (`server/discover`) or chose (`initialize`).
    pub server_versions: Vec<String>,
    /// The raw `initialize` or `server/discover` result.
    pub result: Value,
}

impl Negotiated {
    /// Whether the server declared `tools.listChanged`.
    pub fn tools_list_changed(&self) -> bool {
        self.capabilities
            .get("tools")
            .and_then(|t| t.get("listChanged"))
            .and_then(Value::as_bool)
            == Some(true)
    }
}

/// Why an operation ended without an answer from the server.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Failure {
    /// No answer within the timeout; the core sent `notifications/cancelled`.
    /// Displays in seconds, as people read it ("no answer within 0.3 s").
    #[error("no answer within {} s", crate::fmt::fmt_secs(*.0))]
    Timeout(Duration),
    /// The host cancelled it.
    #[error("cancelled: {0}")]
    Cancelled(String),
    /// The connection failed or closed.
    #[error("transport failed: {0}")]
    Transport(String),
    /// The server refused the request with an HTTP status and no JSON-RPC error in
    /// the body (401: it wants authorization). Reads as the transport failure it is.
    #[error("transport failed: HTTP {status}: {reason}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The response body, trimmed and shortened (may be empty).
        reason: String,
    },
    /// The task behind the call outlived its `ttl` without ending; the client
    /// stopped polling it.
    #[error("task {task_id} did not end within its ttl of {} s", crate::fmt::fmt_secs(*.ttl))]
    TaskExpired {
        /// The server's task id.
        task_id: String,
        /// The task's ttl.
        ttl: Duration,
    },
    /// The session never got connected.
    #[error("not connected: {0}")]
    NotConnected(ConnectError),
    /// The server answered with something unusable.
    #[error("unusable answer: {0}")]
    Malformed(String),
    /// The answer was larger than the transport accepts and was dropped unread.
    #[error("the server's answer ({size} bytes) exceeds the {limit}-byte limit")]
    TooLarge {
        /// Its size in bytes (at least this many).
        size: usize,
        /// The transport's limit.
        limit: usize,
    },
}

impl Failure {
    /// The HTTP status the server refused with ([`Failure::Refused`], or a
    /// handshake it refused), for callers that act on it (401: offer a login).
    pub fn refused(&self) -> Option<u16> {
        match self {
            Failure::Refused { status, .. } => Some(*status),
            Failure::NotConnected(e) => e.refused,
            _ => None,
        }
    }
}

/// Why negotiation failed: one line for people and, when the server refused the
/// handshake with an HTTP status, that status for callers that act on it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{why}")]
pub struct ConnectError {
    /// What happened, in one line.
    pub why: String,
    /// The HTTP status the server refused the handshake with and no JSON-RPC error
    /// in the body (401: it wants authorization); `None` for every other reason.
    pub refused: Option<u16>,
}

impl From<String> for ConnectError {
    fn from(why: String) -> Self {
        ConnectError { why, refused: None }
    }
}

impl From<&str> for ConnectError {
    fn from(why: &str) -> Self {
        why.to_owned().into()
    }
}

/// How a `tools/call` ended. The first two are answers from the *tool*; a
/// [`CallOutcome::ProtocolError`] is an answer from the *protocol layer*: the host must
/// keep them apart all the way to the user.
#[derive(Clone, Debug, PartialEq)]
pub enum CallOutcome {
    /// The tool ran and succeeded.
    Success(CallToolResult),
    /// The tool ran and reported failure (`isError: true`): the model should see it.
    ToolError(CallToolResult),
    /// The server answered with a JSON-RPC error (unknown tool, bad params…).
    ProtocolError(RpcError),
    /// 2026-07-28 `InputRequiredResult` (the raw result, with `inputRequests` and
    /// maybe `requestState`): the server needs input before it can finish. This ends
    /// the round, not necessarily the call: answer with
    /// [`crate::client::Client::continue_call`] and the same [`OpId`] ends in another
    /// [`Event::CallFinished`]. A call followed as a Tasks-extension task reports
    /// its task's new `inputRequests` the same way (an `InputRequiredResult` with
    /// those requests), while the task is polled on.
    InputRequired(Value),
    /// No usable answer.
    Failed(Failure),
}

/// How a listing or raw request ended badly.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OpError {
    /// A JSON-RPC error from the server.
    #[error("server error: {0}")]
    Rpc(RpcError),
    /// No usable answer.
    #[error("{0}")]
    Failed(Failure),
}

/// Everything the client session reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A frame crossed the wire.
    Wire(WireEntry),
    /// Negotiation finished; requests flow.
    Connected(Negotiated),
    /// Negotiation failed; the driver should close the transport.
    ConnectFailed(ConnectError),
    /// One page of `tools/list` arrived (pages count from 1).
    ToolsPage {
        /// The listing.
        op: OpId,
        /// Page number, from 1.
        page: u32,
        /// The tools of this page that could be read.
        tools: Vec<Tool>,
        /// The cursor for the next page, if any.
        next_cursor: Option<String>,
        /// The response message.
        message: Message,
    },
    /// A listing reached its last page.
    ToolsListed {
        /// The listing.
        op: OpId,
        /// Pages fetched.
        pages: u32,
        /// Tools in all pages.
        tools: usize,
    },
    /// A listing stopped early; pages already reported stay valid.
    ToolsListFailed {
        /// The listing.
        op: OpId,
        /// Pages fetched before it stopped.
        pages: u32,
        /// Why.
        error: OpError,
    },
    /// The server said its tool list changed; list again to refresh.
    ToolsListChanged,
    /// One page of `resources/list`, `resources/templates/list` or `prompts/list`
    /// arrived (pages count from 1).
    ListPage {
        /// The listing.
        op: OpId,
        /// Which list.
        kind: ListKind,
        /// Page number, from 1.
        page: u32,
        /// The items of this page that could be read.
        items: ListItems,
        /// The cursor for the next page, if any.
        next_cursor: Option<String>,
        /// The response message.
        message: Message,
    },
    /// A resource, template or prompt listing reached its last page.
    Listed {
        /// The listing.
        op: OpId,
        /// Which list.
        kind: ListKind,
        /// Pages fetched.
        pages: u32,
        /// Items in all pages.
        count: usize,
    },
    /// A resource, template or prompt listing stopped early; pages already
    /// reported stay valid.
    ListFailed {
        /// The listing.
        op: OpId,
        /// Which list.
        kind: ListKind,
        /// Pages fetched before it stopped.
        pages: u32,
        /// Why.
        error: OpError,
    },
    /// `resources/read`, `prompts/get`, `completion/complete`, a subscription
    /// change or `logging/setLevel` ended.
    Answered {
        /// The operation.
        op: OpId,
        /// The typed answer, or why there is none.
        outcome: Result<Answer, OpError>,
        /// The response message, when one arrived.
        message: Option<Message>,
    },
    /// `notifications/resources/updated`: a subscribed resource changed.
    ResourceUpdated {
        /// The resource (maybe a sub-resource of the one subscribed to).
        uri: String,
    },
    /// `notifications/resources/list_changed`: list resources again to refresh.
    ResourcesListChanged,
    /// `notifications/prompts/list_changed`: list prompts again to refresh.
    PromptsListChanged,
    /// `notifications/message`: a log message from the server.
    Log(LogMessage),
    /// Progress of a call.
    Progress {
        /// The call.
        op: OpId,
        /// Progress so far.
        progress: f64,
        /// Total, if known.
        total: Option<f64>,
        /// Human-readable message.
        message: Option<String>,
    },
    /// A call ended (or, with [`CallOutcome::InputRequired`], paused until the host
    /// calls [`crate::client::Client::continue_call`]).
    CallFinished {
        /// The call.
        op: OpId,
        /// How.
        outcome: CallOutcome,
        /// The response message, when one arrived.
        message: Option<Message>,
    },
    /// The task behind a task-augmented call moved (2025-11-25, or the 2026-07-28
    /// Tasks extension).
    Task {
        /// The call.
        op: OpId,
        /// What happened.
        event: super::TaskEvent,
    },
    /// A raw request ended. A `prompts/get` or `resources/read` whose result is
    /// `input_required` (2026-07-28) can be continued with
    /// [`crate::client::Client::continue_call`]; the next answer comes here again.
    Response {
        /// The request.
        op: OpId,
        /// The result, or why there is none.
        outcome: Result<Value, OpError>,
    },
    /// The server sent a request. If `answered` is false the host should call
    /// [`crate::client::Client::answer`] before `deadline`, else the core answers with an error.
    ServerRequest {
        /// Its id.
        id: RequestId,
        /// Its method.
        method: String,
        /// Its params.
        params: Option<Value>,
        /// Whether the core already answered (ping, undeclared capabilities, unknown methods).
        answered: bool,
        /// When the core answers on the host's behalf.
        deadline: Timestamp,
    },
    /// Any notification the core does not type (its own events cover tools,
    /// resources, prompts and logs), and `notifications/subscriptions/acknowledged`,
    /// which the core also reads.
    Notification {
        /// Its method.
        method: String,
        /// Its params.
        params: Option<Value>,
    },
    /// A finding about the conversation.
    Diagnostic(Diagnostic),
    /// The connection is gone; every operation in flight has ended.
    Closed(String),
}
