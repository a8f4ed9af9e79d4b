//! Everything that can happen to the page, as one closed enum.

use mcpg_net::NetEvent;

pub use crate::command::{Command, ConnId, LoopId, ModelReply};

use crate::bridge_event::BridgeEvent;
use crate::parts::LaterKit;

/// One thing that happened, handed to [`crate::PageDriver::handle`].
#[derive(Debug)]
pub enum Input {
    /// The learner did something.
    Command(Command),
    /// A text frame arrived on connection `conn`'s WebSocket.
    Frame {
        /// The connection it came on.
        conn: ConnId,
        /// The text.
        text: String,
    },
    /// The shell's socket for `conn` opened: queued frames may go.
    LinkOpened {
        /// The connection.
        conn: ConnId,
    },
    /// The transport of `conn` closed.
    LinkClosed {
        /// The connection.
        conn: ConnId,
        /// Why, in words.
        why: String,
    },
    /// What the network did with a request of HTTP link `conn` (its head, body
    /// bytes, end, or a failure below HTTP: a `TypeError` from `fetch` is
    /// [`mcpg_net::NetFailure::Unreachable`], down or blocked by CORS).
    Http {
        /// The connection.
        conn: ConnId,
        /// The step, naming the request as [`crate::Output::Http`] did.
        event: NetEvent,
    },
    /// The bridge's side channel said something about `conn`'s server process.
    BridgeEvent {
        /// The connection.
        conn: ConnId,
        /// What.
        event: BridgeEvent,
    },
    /// A real model answered (or could not be reached) for loop `loop_id`.
    ModelReply {
        /// The loop that asked.
        loop_id: LoopId,
        /// The answer.
        reply: ModelReply,
    },
    /// A real model answered (or could not be reached) for the server's sampling
    /// request `ask` ([`crate::ModelRequest::ask`]).
    SampleReply {
        /// The question.
        ask: u64,
        /// The answer.
        reply: ModelReply,
    },
    /// The deadline of [`crate::PageDriver::poll_timeout`] passed.
    Timer,
    /// The later parts, as [`crate::Output::LoadLater`] asked (waiting commands run).
    Later(LaterKit),
    /// The later parts could not be loaded (why, in words).
    LaterFailed(String),
}
