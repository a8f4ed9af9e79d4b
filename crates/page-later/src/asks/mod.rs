//! The server's questions as the later parts keep them, and their answers: see
//! `mcpg_page::asks` for the types the view and the commands name.

mod ops;
mod replayed;
mod sampling;

use mcpg_core::client::OpId;
use mcpg_loop_data::{Reply, Root};
use mcpg_page::AskView;

/// The questions of this connection and the learner's roots.
#[derive(Clone, Debug, Default)]
pub(crate) struct Asks {
    pub(crate) list: Vec<AskView>,
    pub(crate) roots: Vec<Root>,
    /// Answers to MRTR questions kept until the call is retried, by op.
    pub(crate) responses: Vec<(OpId, String, Reply)>,
    next: u64,
}

impl Asks {
    pub(crate) fn push(&mut self, mut view: AskView) -> u64 {
        self.next += 1;
        view.id = self.next;
        self.list.push(view);
        self.next
    }
}
