//! The conversation goes on after the answer. A user message added to a loop that
//! is done takes it back to step 3 with the same tools, and the model answers it
//! with the whole conversation in view. MCP Apps' `ui/message` is the page's use: a
//! tool's view speaks for the user, and the host adds its words to the
//! conversation.

use super::{Phase, ToolLoop};
use crate::provider::Turn;

impl ToolLoop {
    /// Adds `text` as the user's next message and goes back to step 3: the tools
    /// are those step 1 listed and step 2 shaped, and the round cap counts afresh
    /// (it bounds the calls of one user message). Returns `false`, changing
    /// nothing, while the loop still runs (the caller holds the message until it is
    /// done) or when it never reached step 3 (there is nothing to go on from).
    pub fn follow_up(&mut self, text: &str) -> bool {
        if self.phase != Phase::Done || self.shaped.is_none() {
            return false;
        }
        self.turns.push(Turn::User(text.to_owned()));
        self.answer = None;
        self.rounds = 0;
        self.queue.clear();
        self.outputs.clear();
        self.phase = Phase::Reshaped;
        true
    }
}
