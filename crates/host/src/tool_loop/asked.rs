//! "The server asks": while a `tools/call` waits, the server turns around and asks
//! the host (sampling, elicitation, roots; or, under 2026-07-28, an
//! `input_required` result that the host answers by retrying the call). Each
//! question and its answer is recorded in step 4's blocks, so the page, a shared
//! session and the loop's picture all see it nested in the call it interrupted.

use mcpg_core::jsonrpc::Message;
use serde_json::Value;

use super::{Phase, Step, ToolLoop};
use mcpg_loop_data::{BlockKind, JsonBlock, StepStatus, is_asked};

/// The methods a server may send the host while a call waits.
pub const ASK_METHODS: [&str; 3] = ["sampling/createMessage", "elicitation/create", "roots/list"];

/// The label of a block in which the server asks the host something (step 4):
/// always starts with "← " and names `what`.
pub fn asked_label(what: &str) -> String {
    format!("← {what}: the server asks the host (received)")
}

impl ToolLoop {
    /// Whether the call of step 4 is waiting for its result (step 5 is running).
    pub(super) fn waiting_for_result(&self) -> bool {
        self.phase == Phase::Calling
            && self
                .steps
                .last()
                .is_some_and(|s| s.number == 5 && s.status == StepStatus::Running)
    }

    /// A message received while the call waits: a request the server sends the host.
    pub(super) fn on_received(&mut self, msg: &Message, raw: &str) {
        if !self.waiting_for_result() {
            return;
        }
        let Some(method) = msg.method() else {
            return;
        };
        if !ASK_METHODS.contains(&method) || msg.id().is_none() {
            return;
        }
        let label = asked_label(method);
        let why = super::explain::server_asked(method);
        let kind = BlockKind::Asked(method.to_owned());
        self.nest_in_call(JsonBlock::wire(kind, label, raw), &why);
    }

    /// A response the host sent while the call waits: its answer to the server.
    pub(super) fn on_answer_sent(&mut self, raw: &str) {
        if !self.waiting_for_result() {
            return;
        }
        let label = match serde_json::from_str::<Value>(raw) {
            Ok(v) if v.get("error").is_some() => {
                "→ error: the host answers the server (sent)".to_owned()
            }
            _ => "→ result: the host answers the server (sent)".to_owned(),
        };
        self.nest_in_call(JsonBlock::wire(BlockKind::Answer, label, raw), "");
    }

    /// A 2026-07-28 `input_required` answer to the call: the server asks, and the
    /// call stays open until the host retries it (`Client::continue_call`).
    pub(super) fn on_input_required(&mut self, message: Option<&Message>) {
        let block = match message {
            Some(m) => JsonBlock::wire(
                BlockKind::Asked("input_required".to_owned()),
                asked_label("input_required"),
                m.raw(),
            ),
            None => return,
        };
        let what = if self.in_ext_task() {
            "task_input"
        } else {
            "input_required"
        };
        let why = super::explain::server_asked(what);
        self.nest_in_call(block, &why);
    }

    /// Adds `block` to the last step 4 and says why in its explanation (once).
    fn nest_in_call(&mut self, block: JsonBlock, why: &str) {
        let Some(s) = self.last_step_mut(4) else {
            return;
        };
        s.blocks.push(block);
        if !why.is_empty() && !s.explanation.contains(why) {
            s.explanation = format!("{} {why}", s.explanation);
        }
    }

    /// The index in [`ToolLoop::steps`] of the step 4 whose call waits for its
    /// result: a request the server sends now interrupts that call.
    pub fn waiting_call_step(&self) -> Option<usize> {
        if !self.waiting_for_result() {
            return None;
        }
        self.last_step_index(4)
    }

    /// The index in [`ToolLoop::steps`] of the step 4 that sent call `op`, if `op`
    /// is this loop's latest call (an `input_required` result or a `-32042` error
    /// answers it, possibly after the loop moved on).
    pub fn call_step(&self, op: mcpg_core::client::OpId) -> Option<usize> {
        if self.call_op != Some(op) {
            return None;
        }
        self.last_step_index(4)
    }

    fn last_step_index(&self, number: u8) -> Option<usize> {
        self.steps.iter().rposition(|s| s.number == number)
    }

    /// The questions the server asked during the latest call, with their steps.
    pub fn asked(&self) -> Option<&Step> {
        self.steps
            .iter()
            .rev()
            .find(|s| s.number == 4 && s.blocks.iter().any(is_asked))
    }
}
