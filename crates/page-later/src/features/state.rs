//! What the three panels show, and the operations in flight for them: plain state,
//! kept apart from the driver's code so the driver can hold it without a circle.

use std::collections::VecDeque;

use mcpg_core::client::OpId;
use mcpg_core::model::{Prompt, Resource, ResourceTemplate};

use super::view::{CompletionView, LevelView, ListView, LogEntry, PromptView, ReadView, SubView};

/// A listing and the operation filling it.
#[derive(Debug)]
pub(crate) struct Tracked<T> {
    pub(crate) op: Option<OpId>,
    pub(crate) view: ListView<T>,
    /// The learner asked for it on this page: list again after a reconnect or a
    /// `list_changed`.
    pub(crate) wanted: bool,
}

impl<T> Default for Tracked<T> {
    fn default() -> Self {
        Tracked {
            op: None,
            view: ListView::default(),
            wanted: false,
        }
    }
}

/// What the three panels show, and the operations in flight for them.
#[derive(Debug, Default)]
pub(crate) struct Features {
    pub(crate) resources: Tracked<Resource>,
    pub(crate) templates: Tracked<ResourceTemplate>,
    pub(crate) prompts: Tracked<Prompt>,
    pub(crate) read: Option<ReadView>,
    pub(crate) read_op: Option<OpId>,
    pub(crate) completion: Option<CompletionView>,
    pub(crate) completion_op: Option<OpId>,
    pub(crate) prompt: Option<PromptView>,
    pub(crate) prompt_op: Option<OpId>,
    /// Subscriptions as shown.
    pub(crate) subs: Vec<SubView>,
    /// (Un)subscribe requests in flight: op, URI, subscribe or not.
    pub(crate) sub_ops: Vec<(OpId, String, bool)>,
    pub(crate) level: LevelView,
    pub(crate) level_op: Option<OpId>,
    pub(crate) logs: VecDeque<LogEntry>,
    pub(crate) log_seq: u64,
}
