//! The six-step tool loop as a sans-IO state machine the page drives.
//!
//! The loop never talks to the server or the model itself. [`ToolLoop::next`] says
//! what the driver should do; the driver does it (with the core's `Client`, or the
//! model) and reports back: core events through [`ToolLoop::on_event`], the model's
//! turns through [`ToolLoop::model_replied`] (or [`ToolLoop::mock_turn`]). Every step is recorded as a [`Step`]
//! with the exact JSON and an explanation, which is what the page renders.
//!
//! ```text
//!  1 tools/list (MCP) → 2 reshape (host) → 3 model picks (host)
//!    → 4 tools/call (MCP) → 5 CallToolResult (MCP) → 6 feed back, answer (host)
//! ```

mod asked;
mod explain;
mod follow_up;
mod pitfalls;
mod seed;
mod skills;
mod task;

pub use asked::{ASK_METHODS, asked_label};
pub use explain::{PROTOCOL_ERROR_LINE, TOOL_ERROR_LINE};
pub use mcpg_loop_data::{BlockKind, JsonBlock, PageRecord, Progress, Step, StepStatus, TITLES};
pub use mcpg_loop_data::{HostChoice, Pitfall, Pitfalls};
pub use mcpg_loop_data::{TITLE_NO_RESULT, TITLE_RPC_ERROR, is_answer, is_asked};
pub use pitfalls::error_marker;
pub use seed::{SeedError, prompt_turns};

use mcpg_apps::Visibility;
use mcpg_core::client::{CallOutcome, Direction, Event, Failure, OpId};
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_core::model::Tool;
use serde_json::{Value, json};

use crate::mock::MockModel;
use crate::provider::{
    self, HostError, ModelTurn, Provider, RequestOptions, ResultView, ShapedTools, ToolCall,
    ToolOutput, Turn,
};
use crate::schema;
use crate::script::{Script, ScriptTurn};

/// What the driver should do next.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Call `Client::list_tools`, then [`ToolLoop::listing_started`] with its op.
    ListTools,
    /// The naive host's step 1 ([`Pitfall::FirstPageOnly`]): send one plain
    /// `tools/list` request (`Client::request`, no cursor followed), then
    /// [`ToolLoop::listing_started`] with its op.
    ListFirstPage,
    /// Call [`ToolLoop::reshape`] (host work, instant).
    Reshape,
    /// Ask the model with [`ToolLoop::model_request`], then report with
    /// [`ToolLoop::model_replied`]; the mock answers at once through [`ToolLoop::mock_turn`].
    ModelTurn,
    /// Call `Client::call_tool` with this call (progress on), then
    /// [`ToolLoop::call_started`] with its op.
    CallTool(ToolCall),
    /// The careful host refuses this call (its tool was never listed): call
    /// [`ToolLoop::refuse_call`] (host work, instant; nothing is sent).
    RefuseCall(ToolCall),
    /// Nothing until the core reports (a listing or a call is in flight).
    Wait,
    /// The loop is over.
    Done,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Start,
    Listing,
    Listed,
    Reshaped,
    ToCall,
    Calling,
    Returned,
    Done,
}

/// A model may chain calls; past this many rounds the host stops the loop (real
/// hosts cap it too, against a model that never stops calling).
pub const MAX_ROUNDS: u32 = 5;

/// One run of the loop for one user message.
#[derive(Clone, Debug)]
pub struct ToolLoop {
    provider: Provider,
    opts: RequestOptions,
    phase: Phase,
    steps: Vec<Step>,
    turns: Vec<Turn>,
    tools: Vec<Tool>,
    pages: Vec<PageRecord>,
    shaped: Option<ShapedTools>,
    list_op: Option<OpId>,
    call_op: Option<OpId>,
    /// Calls of the model's latest turn not yet sent.
    queue: Vec<ToolCall>,
    /// The call in flight (or the last one).
    current: Option<ToolCall>,
    /// Results of this round, fed back together in step 6.
    outputs: Vec<ToolOutput>,
    outcome: Option<CallOutcome>,
    progress: Option<Progress>,
    answer: Option<String>,
    rounds: u32,
    /// Every model turn of this loop, as a script that replays it.
    played: Vec<ScriptTurn>,
    /// Started from a given conversation (a prompt's messages), not one message.
    seeded: bool,
    /// The mistakes this loop's host makes (none: the careful host).
    pitfalls: Pitfalls,
    /// The id of step 1's `tools/list` request, to find its response (naive listing).
    list_request: Option<RequestId>,
    /// The naive listing's response text, until its result arrives.
    first_page_raw: Option<String>,
    /// What the host chose when it fed this round's results back, for step 6.
    fed_choices: Vec<HostChoice>,
    /// The task behind the current call, when it was asked as one.
    task: Option<task::TaskTrack>,
    /// The skills whose instructions the system prompt carries.
    skills: Vec<String>,
    /// The system prompt as given (the server's instructions), before any skill.
    instructions: Option<String>,
}

impl ToolLoop {
    /// A loop for `prompt`, speaking to the model in `provider`'s format.
    pub fn new(prompt: &str, provider: Provider, opts: RequestOptions) -> Self {
        let instructions = opts.system.clone();
        ToolLoop {
            provider,
            opts,
            phase: Phase::Start,
            steps: Vec::new(),
            turns: vec![Turn::User(prompt.to_owned())],
            tools: Vec::new(),
            pages: Vec::new(),
            shaped: None,
            list_op: None,
            call_op: None,
            queue: Vec::new(),
            current: None,
            outputs: Vec::new(),
            outcome: None,
            progress: None,
            answer: None,
            rounds: 0,
            played: Vec::new(),
            seeded: false,
            pitfalls: Pitfalls::NONE,
            list_request: None,
            first_page_raw: None,
            fed_choices: Vec::new(),
            task: None,
            skills: Vec::new(),
            instructions,
        }
    }

    /// What the driver should do now.
    pub fn next(&self) -> Action {
        match self.phase {
            Phase::Start if self.naive(Pitfall::FirstPageOnly) => Action::ListFirstPage,
            Phase::Start => Action::ListTools,
            Phase::Listing | Phase::Calling => Action::Wait,
            Phase::Listed => Action::Reshape,
            Phase::Reshaped | Phase::Returned => Action::ModelTurn,
            Phase::ToCall => match self.queue.first() {
                Some(c) if !self.naive(Pitfall::AcceptInventedTool) && !self.listed(&c.name) => {
                    Action::RefuseCall(c.clone())
                }
                Some(c) => Action::CallTool(c.clone()),
                None => Action::Done,
            },
            Phase::Done => Action::Done,
        }
    }

    /// The number of the step [`ToolLoop::next`] leads to (for the button's label).
    pub fn next_step_number(&self) -> Option<u8> {
        match self.phase {
            Phase::Start | Phase::Listing => Some(1),
            Phase::Listed => Some(2),
            Phase::Reshaped => Some(3),
            Phase::ToCall => Some(4),
            Phase::Calling => Some(5),
            Phase::Returned => Some(6),
            Phase::Done => None,
        }
    }

    /// Whether the loop is over.
    pub fn is_done(&self) -> bool {
        self.phase == Phase::Done
    }

    /// Rounds of tool calls so far (the loop stops after [`MAX_ROUNDS`]).
    pub fn rounds(&self) -> u32 {
        self.rounds
    }

    /// Sets the model name the requests carry (the learner may switch from the mock
    /// to a real model in the middle of a loop).
    pub fn set_model_name(&mut self, model: &str) {
        model.clone_into(&mut self.opts.model);
    }

    /// The model API format in use.
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// Steps so far, in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// The conversation so far (what the model is shown).
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// Every tool of every page received.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// The tools the model is offered: every tool listed but those whose MCP Apps
    /// visibility leaves the model out (`_meta.ui.visibility` without `"model"`: a
    /// host must not put them in the model's list). Borrowed when none is withheld.
    pub fn for_model(&self) -> std::borrow::Cow<'_, [Tool]> {
        if self.tools.iter().all(|t| Visibility::of(t).model) {
            std::borrow::Cow::Borrowed(&self.tools)
        } else {
            std::borrow::Cow::Owned(
                self.tools
                    .iter()
                    .filter(|t| Visibility::of(t).model)
                    .cloned()
                    .collect(),
            )
        }
    }

    /// The names of the tools withheld from the model (app-only, MCP Apps).
    pub fn withheld(&self) -> Vec<&str> {
        self.tools
            .iter()
            .filter(|t| !Visibility::of(t).model)
            .map(|t| t.name.as_str())
            .collect()
    }

    /// The pages of `tools/list`.
    pub fn pages(&self) -> &[PageRecord] {
        &self.pages
    }

    /// The op of the call in flight, for a cancel button.
    pub fn call_in_flight(&self) -> Option<OpId> {
        (self.phase == Phase::Calling)
            .then_some(self.call_op)
            .flatten()
    }

    /// The latest progress of the call in flight.
    pub fn progress(&self) -> Option<&Progress> {
        self.progress.as_ref()
    }

    /// How the latest call ended.
    pub fn outcome(&self) -> Option<&CallOutcome> {
        self.outcome.as_ref()
    }

    /// The call in flight, or the latest one.
    pub fn call(&self) -> Option<&ToolCall> {
        self.current.as_ref()
    }

    /// The model's final answer, once the loop is done.
    pub fn answer(&self) -> Option<&str> {
        self.answer.as_deref()
    }

    /// The tool the latest call named, when the server listed it.
    pub fn called_tool(&self) -> Option<&Tool> {
        let name = &self.current.as_ref()?.name;
        self.tools.iter().find(|t| &t.name == name)
    }

    /// The driver started the listing of step 1.
    pub fn listing_started(&mut self, op: OpId) {
        if self.phase != Phase::Start {
            return;
        }
        self.phase = Phase::Listing;
        self.list_op = Some(op);
        self.steps
            .push(Step::new(1, StepStatus::Running, explain::listing(0, 0)));
    }

    /// Step 2: reshapes the tools into the model API's format.
    pub fn reshape(&mut self) {
        if self.phase != Phase::Listed {
            return;
        }
        let offered = self.for_model();
        let shaped = if self.naive(Pitfall::RawNames) {
            provider::shape_tools_unrenamed(self.provider, &offered, self.opts.strict)
        } else {
            provider::shape_tools(self.provider, &offered, self.opts.strict)
        };
        let renamed = shaped.names.changes().len();
        let mut explanation = explain::reshaped(offered.len(), self.provider.label(), renamed);
        let withheld = self.withheld();
        if !withheld.is_empty() {
            explanation.push(' ');
            explanation.push_str(&explain::withheld(&withheld));
        }
        let mut s = Step::new(2, StepStatus::Done, explanation);
        s.choices.extend(self.names_choice(&shaped.names));
        s.blocks.push(JsonBlock::value(
            BlockKind::Built,
            format!("tools, as the {} API receives them", self.provider.label()),
            &shaped.tools,
        ));
        self.skills_block(&mut s);
        if self.seeded {
            // The prompt's messages are the conversation the model will be shown:
            // step 3's request body before the model says anything, without the
            // tools (the block above shows them).
            let mut request =
                provider::build_request(self.provider, &self.opts, &self.turns, &shaped);
            if let Some(body) = request.as_object_mut() {
                body.remove("tools");
            }
            s.blocks.push(JsonBlock::value(
                BlockKind::Built,
                format!(
                    "the prompt's messages, as the {} API will receive them (tools above)",
                    self.provider.label()
                ),
                &request,
            ));
        }
        self.steps.push(s);
        self.shaped = Some(shaped);
        self.phase = Phase::Reshaped;
    }

    /// The exact request body the host sends the model API now (steps 3 and 6).
    pub fn model_request(&self) -> Value {
        match &self.shaped {
            Some(shaped) => provider::build_request(self.provider, &self.opts, &self.turns, shaped),
            None => Value::Null,
        }
    }

    /// Asks the mock model and records its turn, in the provider's exact reply shape.
    /// A naive host's request with names the provider refuses gets the provider's
    /// HTTP 400 instead (the mock stands in for the model, not for the API).
    pub fn mock_turn(&mut self, mock: &MockModel) {
        if !matches!(self.phase, Phase::Reshaped | Phase::Returned) {
            return;
        }
        if let Some(r) = self.provider_refusal() {
            self.provider_refused(&r);
            return;
        }
        let m = mock.respond(&self.turns, &self.for_model());
        let why = match &m.turn {
            ModelTurn::ToolCalls { .. } => format!(
                "{} In the reply below the host reads the call(s) out of {}.",
                m.why,
                provider::where_calls(self.provider)
            ),
            ModelTurn::Answer { .. } => m.why,
        };
        self.model_replied(m.turn, None, &why);
    }

    /// Plays the script's next turn, or asks the mock when the script has none left.
    /// Returns whether the turn came from the script.
    pub fn script_turn(&mut self, script: &mut Script, mock: &MockModel) -> bool {
        match script.next_turn() {
            Some(t) => {
                self.model_replied(t.turn, t.reply, &t.why);
                true
            }
            None => {
                self.mock_turn(mock);
                false
            }
        }
    }

    /// Every model turn so far, as a script that makes a new loop say the same.
    pub fn played(&self) -> &[ScriptTurn] {
        &self.played
    }

    /// The model's turn (step 3, or step 6 after results). `reply` is the API's raw
    /// reply body; `None` renders `turn` in the provider's reply shape (the mock).
    pub fn model_replied(&mut self, turn: ModelTurn, reply: Option<Value>, why: &str) {
        self.record_turn(turn, reply, why, None);
    }

    /// A real model's HTTP answer: `status` and the body text. A usable reply becomes
    /// the model's turn; anything else (an HTTP error, a body that is not the
    /// provider's shape, an unknown tool, arguments that are not JSON) becomes a failed
    /// step 3 or 6 that says why, and the loop stays where it was so the learner can
    /// ask again. `head` is the request line and headers as shown (key masked).
    pub fn model_http_reply(&mut self, status: u16, body: &str, head: &Value) {
        if !matches!(self.phase, Phase::Reshaped | Phase::Returned) {
            return;
        }
        let label = self.provider.label();
        let parsed: Option<Value> = serde_json::from_str(body).ok();
        let block = JsonBlock::wire(
            BlockKind::Received,
            format!("← the model's reply (HTTP {status})"),
            body,
        );
        if !(200..300).contains(&status) {
            let said = parsed
                .as_ref()
                .and_then(HostError::from_error_body)
                .map_or_else(|| short(body), |e| e.to_string());
            let why = explain::http_failed(label, status, &said);
            self.model_failed(why, head, Some(block));
            return;
        }
        let Some(reply) = parsed else {
            let why = explain::reply_unusable(&format!("the body is not JSON: {}", short(body)));
            self.model_failed(why, head, Some(block));
            return;
        };
        let names = self
            .shaped
            .as_ref()
            .map(|s| s.names.clone())
            .unwrap_or_default();
        match provider::parse_reply(self.provider, &reply, &names) {
            Ok(turn) => {
                let why =
                    explain::real_reply(label, status, &turn, provider::where_calls(self.provider));
                self.record_turn(turn, Some(reply), &why, Some(head));
            }
            Err(e) => {
                let why = explain::reply_unusable(&e.to_string());
                self.model_failed(why, head, Some(block));
            }
        }
    }

    /// The model API could not be reached at all (network failure, CORS refusal: a
    /// browser cannot tell them apart). `origin` is the page's origin, for the advice.
    pub fn model_unreachable(&mut self, detail: &str, head: &Value, origin: &str) {
        if !matches!(self.phase, Phase::Reshaped | Phase::Returned) {
            return;
        }
        let url = head.get("url").and_then(Value::as_str).unwrap_or_default();
        let why = explain::unreachable(self.provider, url, detail, origin);
        self.model_failed(why, head, None);
    }

    /// Records a failed model turn as a failed step 3 or 6, keeping the loop where it was.
    fn model_failed(&mut self, explanation: String, head: &Value, reply: Option<JsonBlock>) {
        let number = if self.phase == Phase::Reshaped { 3 } else { 6 };
        let mut s = Step::new(number, StepStatus::Failed, explanation);
        s.blocks.push(JsonBlock::value(
            BlockKind::Sent,
            "→ HTTP request (key masked)",
            head,
        ));
        s.blocks.push(JsonBlock::value(
            BlockKind::Sent,
            format!("→ request body ({})", self.provider.label()),
            &self.model_request(),
        ));
        if let Some(b) = reply {
            s.blocks.push(b);
        }
        self.steps.push(s);
    }

    fn record_turn(
        &mut self,
        turn: ModelTurn,
        reply: Option<Value>,
        why: &str,
        head: Option<&Value>,
    ) {
        if !matches!(self.phase, Phase::Reshaped | Phase::Returned) {
            return;
        }
        self.played.push(ScriptTurn {
            turn: turn.clone(),
            reply: reply.clone(),
            why: why.to_owned(),
        });
        let names = self
            .shaped
            .as_ref()
            .map(|s| s.names.clone())
            .unwrap_or_default();
        let reply =
            reply.unwrap_or_else(|| provider::reply_for(self.provider, &self.opts, &turn, &names));
        let mut s = if self.phase == Phase::Reshaped {
            let mut s = Step::new(3, StepStatus::Done, String::new());
            if let Some(h) = head {
                s.blocks.push(JsonBlock::value(
                    BlockKind::Sent,
                    "→ HTTP request (key masked)",
                    h,
                ));
            }
            // Built here only: step 6 shows the result's messages, not the whole
            // request, and with a 10 MB result each build copies it (issue #33).
            s.blocks.push(JsonBlock::value(
                BlockKind::Sent,
                format!("→ request to the model ({})", self.provider.label()),
                &self.model_request(),
            ));
            s
        } else {
            let explanation = match self.fed_how() {
                Some(how) => format!("{how} {why}"),
                None => explain::fed_back(self.outcome.as_ref(), why),
            };
            let mut s = Step::new(6, StepStatus::Done, explanation);
            s.choices = std::mem::take(&mut self.fed_choices);
            if let Some(Turn::Results(outputs)) = self.turns.last() {
                for m in provider::result_messages(self.provider, outputs, &names) {
                    s.blocks.push(JsonBlock::value(
                        BlockKind::Sent,
                        "→ the tool result, appended to the conversation",
                        &m,
                    ));
                }
            }
            if let Some(h) = head {
                s.blocks.push(JsonBlock::value(
                    BlockKind::Sent,
                    "→ HTTP request (key masked)",
                    h,
                ));
            }
            s
        };
        s.blocks.push(JsonBlock::value(
            BlockKind::Received,
            "← the model's reply",
            &reply,
        ));
        let first = s.number == 3;
        self.turns.push(Turn::Model(turn.clone()));
        match turn {
            ModelTurn::ToolCalls { calls, .. } if !calls.is_empty() && self.rounds < MAX_ROUNDS => {
                if first {
                    let problems: Vec<String> = calls
                        .iter()
                        .flat_map(|c| self.argument_problems(c))
                        .collect();
                    let refused: Vec<&str> = calls
                        .iter()
                        .filter(|c| {
                            !self.naive(Pitfall::AcceptInventedTool) && !self.listed(&c.name)
                        })
                        .map(|c| c.name.as_str())
                        .collect();
                    s.explanation = explain::chose(why, &problems, &refused);
                }
                self.queue = calls;
                self.outputs.clear();
                self.rounds += 1;
                self.phase = Phase::ToCall;
            }
            ModelTurn::ToolCalls { .. } => {
                self.answer = Some(format!(
                    "(The host stopped the loop after {MAX_ROUNDS} rounds of tool calls.)"
                ));
                self.phase = Phase::Done;
            }
            ModelTurn::Answer { text } => {
                if first {
                    s.explanation = explain::answered_without_tool(why);
                }
                self.answer = Some(text);
                self.phase = Phase::Done;
            }
        }
        self.steps.push(s);
    }

    /// The driver sent the first queued call (step 4).
    pub fn call_started(&mut self, op: OpId) {
        if self.phase != Phase::ToCall || self.queue.is_empty() {
            return;
        }
        self.current = Some(self.queue.remove(0));
        self.phase = Phase::Calling;
        self.call_op = Some(op);
        self.progress = None;
        self.outcome = None;
        self.task = None;
    }

    /// Feeds one event from the core; events of other operations are ignored.
    pub fn on_event(&mut self, event: &Event) {
        if self.on_pitfall_event(event) {
            return;
        }
        match event {
            Event::Wire(w) => {
                // The core decoded it; text that holds no one message matters
                // to none of these.
                let Some(msg) = &w.message else { return };
                if w.direction == Direction::Sent {
                    self.on_sent(msg, &w.raw);
                    return;
                }
                self.keep_first_page(msg, &w.raw);
                self.on_received(msg, &w.raw);
                if self.task.is_some() {
                    self.task_received(msg, &w.raw);
                }
            }
            Event::Task { op, event } if Some(*op) == self.call_op => self.on_task_event(event),
            Event::ToolsPage {
                op,
                page,
                tools,
                next_cursor,
                message,
            } if Some(*op) == self.list_op && self.phase == Phase::Listing => {
                self.on_page(*page, tools, next_cursor.clone(), message);
            }
            Event::ToolsListed { op, pages, tools } if Some(*op) == self.list_op => {
                if let Some(s) = self.step_mut(1) {
                    s.status = StepStatus::Done;
                    s.explanation = explain::listed(*pages, *tools);
                }
                self.listed_choice(*pages, *tools);
                self.phase = Phase::Listed;
            }
            Event::ToolsListFailed { op, pages, error } if Some(*op) == self.list_op => {
                if let Some(s) = self.step_mut(1) {
                    s.status = StepStatus::Failed;
                    s.explanation = explain::list_failed(*pages, error);
                }
                self.phase = Phase::Done;
            }
            Event::Progress {
                op,
                progress,
                total,
                message,
            } if Some(*op) == self.call_op && self.phase == Phase::Calling => {
                let p = Progress {
                    progress: *progress,
                    total: *total,
                    message: message.clone(),
                };
                let text = explain::call_running(Some((p.progress, p.total, p.message.as_deref())));
                if let Some(s) = self.last_step_mut(5) {
                    s.explanation = text;
                }
                self.progress = Some(p);
            }
            Event::CallFinished {
                op,
                outcome,
                message,
            } if Some(*op) == self.call_op && self.phase == Phase::Calling => {
                if matches!(outcome, CallOutcome::InputRequired(_)) {
                    // The call stays open: the host answers and retries it.
                    self.on_input_required(message.as_ref());
                } else {
                    self.on_call_finished(outcome, message.as_ref());
                }
            }
            _ => {}
        }
    }

    fn step_mut(&mut self, number: u8) -> Option<&mut Step> {
        self.steps.iter_mut().find(|s| s.number == number)
    }

    fn last_step_mut(&mut self, number: u8) -> Option<&mut Step> {
        self.steps.iter_mut().rev().find(|s| s.number == number)
    }

    fn call_name(&self) -> String {
        self.current
            .as_ref()
            .map_or_else(String::new, |c| c.name.clone())
    }

    fn on_sent(&mut self, msg: &Message, raw: &str) {
        match (self.phase, msg.method()) {
            (Phase::Listing, Some("tools/list")) => {
                if self.pages.is_empty() {
                    self.list_request = msg.id().cloned();
                }
                let n = self.pages.len() + 1;
                if let Some(s) = self.step_mut(1) {
                    s.blocks.push(JsonBlock::wire(
                        BlockKind::Sent,
                        format!("→ tools/list, page {n} (sent)"),
                        raw,
                    ));
                }
            }
            (Phase::Calling, Some("tools/call")) => {
                let running = self
                    .steps
                    .last()
                    .is_some_and(|s| s.number == 5 && s.status == StepStatus::Running);
                if running {
                    // The core re-sent it (new id, or a new session; or the host
                    // retried it with answers, 2026-07-28): show it under step 4.
                    let (kind, label) = if msg.params().is_some_and(|p| {
                        p.get("inputResponses").is_some() || p.get("requestState").is_some()
                    }) {
                        (
                            BlockKind::Answer,
                            "→ tools/call, retried with inputResponses and requestState: the host answers the server (sent)",
                        )
                    } else {
                        (BlockKind::Sent, "→ tools/call, sent again by the core")
                    };
                    if let Some(s) = self.last_step_mut(4) {
                        s.blocks.push(JsonBlock::wire(kind, label, raw));
                    }
                    return;
                }
                let name = self.call_name();
                let mut s4 = Step::new(4, StepStatus::Done, explain::call_sent(&name));
                s4.blocks
                    .push(JsonBlock::wire(BlockKind::Sent, "→ tools/call (sent)", raw));
                s4.choices.extend(self.invented_choice(&name));
                self.steps.push(s4);
                self.steps.push(Step::new(
                    5,
                    StepStatus::Running,
                    explain::call_running(None),
                ));
                self.task_call_sent(msg);
            }
            (
                Phase::Calling,
                Some(m @ ("tasks/get" | "tasks/result" | "tasks/cancel" | "tasks/update")),
            ) => {
                self.task_request_sent(m, msg, raw);
            }
            (Phase::Calling, None) => self.on_answer_sent(raw),
            (Phase::Calling, Some("notifications/cancelled")) => {
                if let Some(s) = self.last_step_mut(5) {
                    s.blocks.push(JsonBlock::wire(
                        BlockKind::Sent,
                        "→ notifications/cancelled (sent)",
                        raw,
                    ));
                }
            }
            _ => {}
        }
    }

    fn on_page(
        &mut self,
        page: u32,
        tools: &[Tool],
        next_cursor: Option<String>,
        message: &Message,
    ) {
        self.tools.extend(tools.iter().cloned());
        let cursor = next_cursor.as_deref().map_or_else(
            || "no nextCursor: last page".to_owned(),
            |c| format!("nextCursor {c:?}"),
        );
        self.pages.push(PageRecord {
            page,
            tools: tools.into(),
            next_cursor,
        });
        let (pages, count) = (self.pages.len(), self.tools.len());
        if let Some(s) = self.step_mut(1) {
            s.blocks.push(JsonBlock::wire(
                BlockKind::Received,
                format!("← page {page}: {} tools, {cursor} (received)", tools.len()),
                message.raw(),
            ));
            s.explanation = explain::listing(pages, count);
        }
    }

    fn argument_problems(&self, call: &ToolCall) -> Vec<String> {
        let Some(tool) = self.tools.iter().find(|t| t.name == call.name) else {
            if !self.naive(Pitfall::AcceptInventedTool) {
                // The careful host refuses it (see `explain::chose`).
                return Vec::new();
            }
            return vec![format!(
                "the server never listed a tool named {:?}",
                call.name
            )];
        };
        schema::validate(&tool.input_schema, &Value::Object(call.arguments.clone()))
            .iter()
            .map(|e| format!("{}: {e}", call.name))
            .collect()
    }

    fn on_call_finished(&mut self, outcome: &CallOutcome, message: Option<&Message>) {
        let sent = self
            .steps
            .last()
            .is_some_and(|s| s.number == 5 && s.status == StepStatus::Running);
        if !sent {
            // The call ended before it was ever sent (e.g. the connection was gone).
            let name = self.call_name();
            self.steps
                .push(Step::new(4, StepStatus::Failed, explain::call_sent(&name)));
            self.steps
                .push(Step::new(5, StepStatus::Running, String::new()));
        }
        let check = self.structured_check(outcome);
        let failed = !matches!(outcome, CallOutcome::Success(_));
        let in_task = self.in_task();
        let end_label = message.and_then(|m| self.ext_task_end_label(m));
        if let Some(s) = self.last_step_mut(5) {
            s.status = if failed {
                StepStatus::Failed
            } else {
                StepStatus::Done
            };
            s.explanation = match outcome {
                CallOutcome::Failed(f @ Failure::Cancelled(_)) if in_task => {
                    explain::task_cancelled(f)
                }
                _ => explain::call_finished(outcome, check.as_deref()),
            };
            match outcome {
                CallOutcome::ProtocolError(_) => s.title = TITLE_RPC_ERROR.to_owned(),
                CallOutcome::Failed(_) => s.title = TITLE_NO_RESULT.to_owned(),
                CallOutcome::Success(_)
                | CallOutcome::ToolError(_)
                | CallOutcome::InputRequired(_) => {}
            }
            match message {
                Some(m) => s.blocks.push(JsonBlock::wire(
                    BlockKind::Received,
                    end_label.unwrap_or("← response (received)"),
                    m.raw(),
                )),
                None => s.blocks.push(JsonBlock::value(
                    BlockKind::Built,
                    "no response: what the host knows",
                    &json!({"outcome": failure_text(outcome)}),
                )),
            }
        }
        if let Some(call) = self.current.clone() {
            self.outputs.push(ToolOutput {
                call,
                result: result_view(outcome),
            });
        }
        self.outcome = Some(outcome.clone());
        self.end_call();
    }

    fn structured_check(&self, outcome: &CallOutcome) -> Option<String> {
        let (CallOutcome::Success(r) | CallOutcome::ToolError(r)) = outcome else {
            return None;
        };
        let tool = self.called_tool()?;
        match schema::check_structured(tool, r)? {
            Ok(()) => Some("Its structuredContent fits the tool's outputSchema.".to_owned()),
            Err(errors) => {
                let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
                Some(format!(
                    "Its structuredContent does not fit the tool's outputSchema: {}.",
                    list.join("; ")
                ))
            }
        }
    }
}

/// A body cut to a readable length for an explanation (on a char boundary).
fn short(body: &str) -> String {
    let body = body.trim();
    match body.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &body[..i]),
        None if body.is_empty() => "(an empty body)".to_owned(),
        None => body.to_owned(),
    }
}

/// What the core said when no result arrived.
fn failure_text(outcome: &CallOutcome) -> String {
    match outcome {
        CallOutcome::Failed(f) => f.to_string(),
        CallOutcome::ProtocolError(e) => format!("JSON-RPC error {}: {}", e.code, e.message),
        CallOutcome::InputRequired(_) => "input required".to_owned(),
        CallOutcome::Success(_) | CallOutcome::ToolError(_) => "result".to_owned(),
    }
}

/// The outcome as the host reports it to the model. A protocol failure has no
/// `CallToolResult`, which is exactly what [`ResultView`] keeps apart.
pub fn result_view(outcome: &CallOutcome) -> ResultView {
    match outcome {
        CallOutcome::Success(r) | CallOutcome::ToolError(r) => ResultView::Result(r.clone()),
        CallOutcome::ProtocolError(e) => ResultView::ProtocolError {
            code: e.code,
            message: e.message.clone(),
        },
        CallOutcome::InputRequired(_) => ResultView::Failed(
            "the server asked for more input, which this host cannot give".to_owned(),
        ),
        CallOutcome::Failed(f) => ResultView::Failed(f.to_string()),
    }
}
