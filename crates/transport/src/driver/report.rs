//! What driver operations return, and what the driver lets observers see.

use std::collections::VecDeque;
use std::sync::Arc;

use mcpg_core::client::{CallOutcome, OpId, TaskEvent, WireEntry};
use mcpg_core::diag::Diagnostic;
use mcpg_core::jsonrpc::Message;
use mcpg_core::model::Tool;
use serde_json::Value;

use super::catalog::Listing;
use crate::link::StderrLine;

/// Every tool of a listing, page by page (the raw `tools/list` response of each
/// page in `responses`).
pub type ToolList = Listing<Tool>;

impl Listing<Tool> {
    /// All tools, in order.
    pub fn tools(&self) -> impl Iterator<Item = &Tool> {
        self.items()
    }
}

/// One progress notification for a call.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressUpdate {
    /// Progress so far.
    pub progress: f64,
    /// Total, if known.
    pub total: Option<f64>,
    /// The server's message, if any.
    pub message: Option<String>,
}

/// How a `tools/call` ended, with the raw response.
#[derive(Clone, Debug, PartialEq)]
pub struct CallReport {
    /// The core's operation: pass it to [`crate::Driver::continue_call`] when the
    /// outcome is `InputRequired`.
    pub op: OpId,
    /// `Success`, `ToolError`, `ProtocolError` or `InputRequired` (never `Failed`:
    /// a call without a usable answer is a [`crate::DriverError`]).
    pub outcome: CallOutcome,
    /// The response message as received.
    pub response: Option<Message>,
    /// Progress notifications received during the call.
    pub progress: Vec<ProgressUpdate>,
}

/// Something the driver saw, for live observers (`--verbose`) and the log.
#[derive(Clone, Debug, PartialEq)]
pub enum Observed {
    /// A frame crossed the wire.
    Wire(WireEntry),
    /// A finding of the core about the conversation.
    Diagnostic(Diagnostic),
    /// A line the server wrote to stderr.
    Stderr(StderrLine),
    /// A transport notice (resumed stream, rejected notification…).
    Notice(String),
    /// Which HTTP transport the connection speaks and why (Streamable HTTP, or the
    /// old HTTP+SSE one and its endpoint), once settled.
    Transport(mcpg_http::TransportChoice),
    /// One exchange of the OAuth flow, secrets masked (a card of the lesson).
    Auth(mcpg_auth::Exchange),
    /// A notification from the server the driver does not act on.
    Notification {
        /// Its method.
        method: String,
        /// Its params.
        params: Option<Value>,
    },
    /// The task behind a task-augmented call moved (2025-11-25).
    Task {
        /// The call.
        op: OpId,
        /// What happened.
        event: TaskEvent,
    },
    /// A request from the server, and whether the core already answered it.
    ServerRequest {
        /// Its method.
        method: String,
        /// Answered by the core (true) or by the driver's handler (false).
        by_core: bool,
    },
}

/// A live observer of everything the driver sees.
pub type Observer = Arc<dyn Fn(&Observed) + Send + Sync>;

/// The last diagnostics, stderr lines and notices, kept for later reading.
/// Bounded: a noisy server costs at most [`Log::CAPACITY`] entries.
#[derive(Clone, Debug, Default)]
pub struct Log {
    entries: VecDeque<Observed>,
    dropped: u64,
}

impl Log {
    /// How many entries are kept.
    pub const CAPACITY: usize = 1000;

    pub(crate) fn push(&mut self, o: Observed) {
        if self.entries.len() >= Self::CAPACITY {
            self.entries.pop_front();
            self.dropped += 1;
        }
        self.entries.push_back(o);
    }

    /// The entries kept, oldest first.
    pub fn entries(&self) -> impl Iterator<Item = &Observed> {
        self.entries.iter()
    }

    /// The diagnostics kept.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.entries.iter().filter_map(|o| match o {
            Observed::Diagnostic(d) => Some(d),
            _ => None,
        })
    }

    /// The stderr lines kept.
    pub fn stderr(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().filter_map(|o| match o {
            Observed::Stderr(l) => Some(l.text.as_str()),
            _ => None,
        })
    }

    /// How many older entries were dropped to stay within the bound.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}
