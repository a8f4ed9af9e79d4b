//! What the loop panels show now, kept to emit only what changed.

use mcpg_loop_data::{Progress, Step, Turn};
use mcpg_page::{CallView, ViewChange};

/// What the loop panels show now, to emit only changes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Shown {
    pub(crate) steps: Vec<Step>,
    pub(crate) next_step: Option<u8>,
    pub(crate) loop_active: bool,
    pub(crate) answer: Option<String>,
    pub(crate) running: bool,
    pub(crate) model_busy: bool,
    pub(crate) turns: Vec<Turn>,
    pub(crate) rounds: u32,
    pub(crate) progress: Option<Progress>,
    pub(crate) call: Option<CallView>,
}

impl Default for Shown {
    fn default() -> Self {
        Shown {
            steps: Vec::new(),
            next_step: Some(1),
            loop_active: false,
            answer: None,
            running: false,
            model_busy: false,
            turns: Vec::new(),
            rounds: 0,
            progress: None,
            call: None,
        }
    }
}

impl Shown {
    /// Every field as a change (after a reset, the view is told all of it).
    pub(crate) fn all(self) -> Vec<ViewChange> {
        vec![
            ViewChange::Steps(self.steps),
            ViewChange::NextStep(self.next_step),
            ViewChange::LoopActive(self.loop_active),
            ViewChange::Answer(self.answer),
            ViewChange::Running(self.running),
            ViewChange::ModelBusy(self.model_busy),
            ViewChange::Turns(self.turns),
            ViewChange::Rounds(self.rounds),
            ViewChange::Progress(self.progress),
            ViewChange::Call(self.call.map(Box::new)),
        ]
    }
}

impl Shown {
    /// A new loop starts with no call and no answer shown.
    pub(crate) fn clear_call(&mut self) {
        self.call = None;
        self.progress = None;
        self.answer = None;
    }
}
