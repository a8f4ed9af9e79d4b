//! The boundary between the first screen and what loads after it.
//!
//! This crate is the first screen: the client, the links (the embedded demo, the
//! bridge, a replay, Streamable HTTP's plumbing), the Tools panel's list, the wire
//! log and the recorder. It does not depend on the host's code (`mcpg-host`) or the
//! HTTP machine (`mcpg-http`), so nothing here can run the tool loop; a test in
//! `mcpg-page-later` checks that with `cargo tree`.
//!
//! Everything else (the loop, a real model's replies, the server's questions, the
//! Resources, Prompts and Logs panels) is `mcpg-page-later`'s, which owns its own
//! state behind [`crate::LaterParts`]. The shell hands it in as a [`crate::LaterKit`]
//! ([`crate::Input::Later`]) when the driver asks ([`crate::Output::LoadLater`]);
//! in the browser it comes from a split wasm chunk, so its code is not part of the
//! first load.
//!
//! The driver never calls the later parts in the middle of its own work: it queues
//! a [`Later`] and runs the queue when that work is done (`PageDriver::run_later`),
//! handing the parts the first screen's state ([`crate::Page`]; the trait and the
//! kit are in `parts.rs`). Work that needs them while they are not in
//! is noted in the log as not done, never dropped silently.

use std::fmt;
use std::sync::Arc;

use mcpg_core::client::{AnswerReaders, CallOutcome, Event};
use mcpg_core::jsonrpc::code::URL_ELICITATION_REQUIRED;

use crate::command::{Command, LoopId, ModelReply};
use crate::http_port::{HttpPort, HttpRoute};

/// The kit's stateless tools, kept by the driver (the state is in the parts).
#[derive(Clone, Copy)]
pub(crate) struct LaterTools {
    pub(crate) http: fn(&str, HttpRoute) -> Box<dyn HttpPort>,
    pub(crate) demo_handlers: &'static dyn mcpg_demo::Handlers,
    pub(crate) answer_readers: AnswerReaders,
}

impl fmt::Debug for LaterTools {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("LaterTools")
    }
}

/// Work for the later parts, queued by the driver.
#[derive(Debug)]
pub enum Later {
    /// A command that needs them (see `waiting.rs`), or one about the loop.
    Command(Command),
    /// The timer fired (the running loop's pace, the questions' deadlines).
    Timer,
    /// A real model's reply for loop `loop_id`.
    ModelReply {
        /// The loop the request was sent for.
        loop_id: LoopId,
        /// The reply, or why there was none.
        reply: ModelReply,
    },
    /// A real model's reply to a sampling request the learner sent on.
    SampleReply {
        /// The ask it answers.
        ask: u64,
        /// The reply, or why there was none.
        reply: ModelReply,
    },
    /// A core event: the loop sees each one; those of [`for_later`] are theirs alone.
    Event(Event),
    /// A `resources/read` request was sent (its raw text, shown with the read).
    ReadSent(Arc<str>),
    /// The driver moved everything it could: time to update the loop's view.
    Pumped,
    /// A new connection replaces the old one: nothing of the old one stays.
    NewConnection,
    /// The model script changed: the next loop takes it afresh.
    ScriptChanged,
}

impl Later {
    /// The work, in words (for the log; no `Debug`, which would bring every
    /// command's and event's formatting into the first load).
    pub(crate) fn label(&self) -> &'static str {
        match self {
            Later::Command(c) => c.label(),
            Later::Timer => "the running loop's next action",
            Later::ModelReply { .. } => "a model's reply",
            Later::SampleReply { .. } => "a model's reply to the server's sampling request",
            Later::Event(_) | Later::ReadSent(_) => "a server message",
            Later::Pumped => "the loop's view",
            Later::NewConnection => "clearing the loop for a new connection",
            Later::ScriptChanged => "the new model script",
        }
    }
}

/// Whether `ev` is for the later parts alone: the server's questions, a call's
/// outcome that asks for input, and the panels' events.
pub fn for_later(ev: &Event) -> bool {
    match ev {
        Event::ServerRequest { answered, .. } => !answered,
        Event::CallFinished {
            outcome: CallOutcome::InputRequired(_),
            ..
        } => true,
        Event::CallFinished {
            outcome: CallOutcome::ProtocolError(e),
            ..
        } => e.code == URL_ELICITATION_REQUIRED,
        Event::Notification { method, .. } => method == "notifications/elicitation/complete",
        Event::ListPage { .. }
        | Event::Listed { .. }
        | Event::ListFailed { .. }
        | Event::Answered { .. }
        | Event::ResourceUpdated { .. }
        | Event::ResourcesListChanged
        | Event::PromptsListChanged
        | Event::Log(_) => true,
        _ => false,
    }
}
