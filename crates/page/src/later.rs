//! The driver's work that happens only once the engine is in, run through it.
//!
//! Running the loop, its view, a real model's replies, the server's questions and
//! the Resources, Prompts and Logs panels all need the engine ([`crate::engine`]).
//! Their code is the driver's (`later_ops.rs`), but the driver reaches it only
//! through [`crate::Engine::later`], whose one implementation calls it: in the page,
//! code reached only from the engine's vtable comes with the engine's split chunk,
//! so none of this weighs on the first load. This module holds only the work's
//! type, which the engine's interface names.
//!
//! The driver hands over only what cannot come before the engine: the commands
//! that wait for it (`waiting.rs`), the pace timer of a running loop, replies to
//! the model requests the loop sent, and the core events the client delivers only
//! once the engine's answer readers are in (the server's requests and
//! notifications, the panels' answers, a tool call's outcome). Should one come
//! without it all the same, the log says what was not done.

use mcpg_core::client::{CallOutcome, Event};
use mcpg_core::jsonrpc::code::URL_ELICITATION_REQUIRED;

use crate::command::{Command, LoopId, ModelReply};

/// Driver work that needs the engine (see the module's doc).
#[derive(Debug)]
pub enum Later {
    /// A command that waited for the engine.
    Command(Command),
    /// The pace timer of a running loop: its next action.
    Pace,
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
    /// A core event for the loop's asks or the panels ([`for_engine`]).
    Event(Event),
    /// The loop's state turned into view changes.
    SyncLoop,
}

impl Later {
    /// The work, in words (for the log; no `Debug`, which would bring every
    /// command's and event's formatting into the first load).
    pub(crate) fn label(&self) -> &'static str {
        match self {
            Later::Command(c) => c.label(),
            Later::Pace => "the running loop's next action",
            Later::ModelReply { .. } => "a model's reply",
            Later::SampleReply { .. } => "a model's reply to the server's sampling request",
            Later::Event(_) => "a server message",
            Later::SyncLoop => "the loop's view",
        }
    }
}

/// Whether the driver hands `ev` to the engine: the server's questions, a call's
/// outcome that asks for input, and the panels' events.
pub(crate) fn for_engine(ev: &Event) -> bool {
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
