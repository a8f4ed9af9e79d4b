//! The tool loop: starting one, step and run mode (never a second loop while one
//! runs), the learner playing the model, and a real model's request and reply.

use mcpg_core::client::CallOptions;
use mcpg_core::model::JsonObject;
use mcpg_host::provider::{ModelTurn, Provider, RequestOptions, ToolCall, Turn};
use mcpg_host::script::Script;
use mcpg_host::tool_loop::Action;
use mcpg_host::{MockModel, StepStatus, ToolLoop};

use mcpg_page::{
    LlmSettings, LoopId, ModelChoice, ModelReply, ModelRequest, Output, Page, ViewChange,
    seed_record, seed_turns, slot,
};

use crate::model_http::loop_request;
use crate::parts::{LoopParts, Manual};

/// Why Run or Step was refused while run mode is on.
const BUSY: &str = "The loop is already running: pause it (or wait for it to end) before stepping or running again.";

impl LoopParts {
    /// Starts a new loop for the current prompt.
    fn new_loop(&mut self, page: &mut Page) {
        self.begin_loop(page, None);
    }

    /// Starts a new loop for the current prompt, or from `seed` (a prompt's
    /// messages, `prompts/get`): then the conversation starts with them.
    fn begin_loop(&mut self, page: &mut Page, seed: Option<Vec<Turn>>) {
        // A replay asks what the recorded session asked, loop by loop, from the
        // conversation its prompt seeded the loop with when there was one.
        let index = page.recorder.prompts.len();
        let (recorded, recorded_seed) = page.replay.as_ref().map_or((None, None), |r| {
            let seed = r.seeds.get(index).cloned().flatten();
            (r.messages.get(index).cloned(), seed.map(|t| seed_turns(&t)))
        });
        if let Some(p) = recorded {
            page.prompt.clone_from(&p);
            page.emit(ViewChange::Prompt(p));
        }
        let seed = recorded_seed.or(seed);
        page.catch_up_replay();
        if let Some(run) = &self.run {
            page.recorder
                .played
                .extend(run.played().iter().map(|t| t.to_value()));
        }
        page.recorder.loop_played.clear();
        page.recorder.loop_steps.clear();
        // A seeded loop is recorded with its seed, and by its last user message for
        // a reader that shows one message per loop.
        page.recorder
            .seeds
            .push(seed.as_deref().and_then(seed_record));
        let said = seed.as_ref().and_then(|turns| {
            turns.iter().rev().find_map(|t| match t {
                Turn::User(text) => Some(text.clone()),
                _ => None,
            })
        });
        page.recorder
            .prompts
            .push(said.unwrap_or_else(|| page.prompt.clone()));
        if self.script.is_empty() {
            // The script was validated when it was set; a bad one is no script.
            self.script = Script::from_values(&page.script_values).unwrap_or_default();
        }
        let opts = RequestOptions {
            model: "mock-model".into(),
            system: page
                .client
                .negotiated()
                .and_then(|n| n.instructions.clone()),
            ..Default::default()
        };
        self.run_pages_shown = false;
        self.loop_id += 1;
        self.model_pending = false;
        self.set_model_busy(page, false);
        let seeded =
            seed.and_then(|turns| ToolLoop::from_turns(turns, page.provider, opts.clone()).ok());
        let run = seeded.unwrap_or_else(|| ToolLoop::new(&page.prompt, page.provider, opts));
        // The loop keeps the host it started with (see `Page::loop_pitfalls`).
        self.run = Some(
            run.with_pitfalls(page.pitfalls)
                .with_skills(self.skills.in_use()),
        );
        page.loop_pitfalls = Some(page.pitfalls);
        self.shown.clear_call();
        page.emit(ViewChange::Call(None));
        page.emit(ViewChange::Progress(None));
        page.emit(ViewChange::Answer(None));
        // The previous loop's questions go with its steps.
        if !self.asks.list.is_empty() {
            self.show_asks(page);
        }
    }

    fn ensure_loop(&mut self, page: &mut Page) {
        if self.run.as_ref().is_none_or(ToolLoop::is_done) {
            self.new_loop(page);
        }
    }

    /// Step mode: one command, one step. Refused while run mode is on.
    pub(crate) fn step(&mut self, page: &mut Page) {
        if self.running {
            page.note(BUSY);
            page.notice(BUSY);
            return;
        }
        self.ensure_loop(page);
        self.perform(page);
    }

    /// Run mode: the whole loop, paced. Refused while run mode is already on.
    pub(crate) fn run_all(&mut self, page: &mut Page) {
        if self.running {
            page.note(BUSY);
            page.notice(BUSY);
            return;
        }
        self.ensure_loop(page);
        self.set_running(page, true);
        self.perform(page);
    }

    /// **Use in the loop**: a new loop from a prompt's messages, run to its end.
    /// Refused while run mode is on, like Run.
    pub(crate) fn run_seeded(&mut self, page: &mut Page, turns: Vec<Turn>) {
        if self.running {
            page.note(BUSY);
            page.notice(BUSY);
            return;
        }
        if turns.is_empty() {
            page.notice(
                "The prompt returned no messages, so there is nothing to start the loop from.",
            );
            return;
        }
        self.begin_loop(page, Some(turns));
        self.set_running(page, true);
        self.perform(page);
    }

    /// The learner plays the model: this call is step 3.
    pub(crate) fn play_call(&mut self, page: &mut Page, name: String, arguments: JsonObject) {
        let round = self.run.as_ref().map_or(0, ToolLoop::rounds);
        self.play(
            page,
            Manual::Call(ToolCall {
                id: format!("call_{}", round + 1),
                name,
                arguments,
            }),
        );
    }

    /// Runs the loop up to the model's next turn and gives it `turn`. A loop waiting
    /// for the model (step 3, or step 6 after results) takes it there; otherwise a new
    /// loop starts and the turn becomes its step 3.
    pub(crate) fn play(&mut self, page: &mut Page, turn: Manual) {
        let keeps = self
            .run
            .as_ref()
            .and_then(ToolLoop::next_step_number)
            .is_some_and(|n| n <= 3 || n == 6);
        if !keeps {
            self.new_loop(page);
        }
        self.manual = Some(turn);
        self.set_running(page, true);
        self.perform(page);
    }

    /// Cancels the call in flight.
    pub(crate) fn cancel(&mut self, page: &mut Page) {
        if let Some(op) = self.run.as_ref().and_then(ToolLoop::call_in_flight) {
            page.client.cancel(page.now, op, "cancelled by the learner");
        }
    }

    /// A real model's reply (or why there was none) for loop `loop_id`. A reply for
    /// another loop (reset or replaced since) is recorded in the log and not applied.
    pub(crate) fn model_answered(&mut self, page: &mut Page, loop_id: LoopId, reply: ModelReply) {
        if loop_id != self.loop_id || !self.model_pending {
            page.note(format!(
                "ignored: a model reply for loop #{loop_id} arrived after that loop was reset or replaced"
            ));
            return;
        }
        self.model_pending = false;
        self.set_model_busy(page, false);
        let head = self.pending_head.take().unwrap_or_default();
        let Some(run) = &mut self.run else {
            return;
        };
        let before = run.steps().len();
        match reply {
            ModelReply::Http { status, body } => run.model_http_reply(status, &body, &head),
            ModelReply::Unreachable { detail, origin } => {
                run.model_unreachable(&detail, &head, &origin);
            }
        }
        let failed = run.steps().len() > before
            && run
                .steps()
                .last()
                .is_some_and(|s| s.status == StepStatus::Failed);
        if failed {
            // Run mode stops on a failed model turn; the learner decides what next.
            self.set_running(page, false);
        }
    }

    /// The chosen provider and its real model's settings.
    pub(crate) fn llm_settings(&self, page: &Page) -> (Provider, LlmSettings) {
        let provider = page.provider;
        let settings = page
            .llm
            .get(slot(provider))
            .cloned()
            .unwrap_or_else(|| LlmSettings::default_for(provider));
        (provider, settings)
    }

    /// Asks the real model for the loop's next turn: one output, without the key.
    fn request_model(&mut self, page: &mut Page) {
        let (provider, settings) = self.llm_settings(page);
        let hint = page.key_hints.get(slot(provider)).cloned().flatten();
        let Some(run) = &mut self.run else {
            return;
        };
        let asked = loop_request(run, provider, &settings, hint);
        self.pending_head = Some(asked.head);
        self.model_pending = true;
        self.set_model_busy(page, true);
        page.output(Output::ModelRequest(ModelRequest {
            loop_id: self.loop_id,
            ask: None,
            provider,
            url: asked.url,
            headers: asked.headers,
            key_header: asked.key_header,
            body: asked.body,
        }));
    }

    /// Performs the loop's next action, if it has one.
    pub(crate) fn perform(&mut self, page: &mut Page) {
        let now = page.now;
        let Some(run) = &mut self.run else {
            return;
        };
        match run.next() {
            Action::ListTools => {
                let op = page.client.list_tools(now);
                run.listing_started(op);
            }
            Action::ListFirstPage => {
                // One plain request: the core's list_tools would follow nextCursor.
                let op = page.client.request(now, "tools/list", None);
                run.listing_started(op);
            }
            Action::RefuseCall(_) => run.refuse_call(),
            Action::Reshape => run.reshape(),
            Action::ModelTurn if self.model_pending => {}
            Action::ModelTurn => match self.manual.take() {
                Some(Manual::Call(call)) => {
                    let why = format!(
                        "You played the model: you chose {} and filled its form.",
                        call.name
                    );
                    let turn = ModelTurn::ToolCalls {
                        text: None,
                        calls: vec![call],
                    };
                    run.model_replied(turn, None, &why);
                }
                Some(Manual::Answer(text)) => {
                    let why = "You played the model: you answered in words, with no tool call.";
                    run.model_replied(ModelTurn::Answer { text }, None, why);
                }
                // A replay never asks a live model: the recorded turns answer, then the mock.
                None if !self.script.is_empty() || page.replay.is_some() => {
                    let scripted = run.script_turn(&mut self.script, &MockModel);
                    if !scripted && !page.script_values.is_empty() {
                        page.note("the model script has no turn left for this loop: the mock model answered");
                    }
                }
                None => match page.model {
                    ModelChoice::Mock => run.mock_turn(&MockModel),
                    // The learner's turn: the play box and the Tools panel's form wait.
                    ModelChoice::Play => self.set_running(page, false),
                    ModelChoice::Real => self.request_model(page),
                },
            },
            Action::CallTool(call) => {
                // A tool that runs as a task (2025-11-25) is asked as one.
                let task = page
                    .client
                    .negotiated()
                    .and_then(|n| run.task_for(&call.name, n.version, &n.capabilities));
                let opts = CallOptions {
                    progress: true,
                    task,
                    ..Default::default()
                };
                let op = page
                    .client
                    .call_tool(now, &call.name, Some(call.arguments.clone()), opts);
                run.call_started(op);
                if let Some(tool) = run.called_tool() {
                    self.apps
                        .call_sent(page, op, tool, &call.arguments, run.tools());
                }
                page.emit(ViewChange::ShowResult);
            }
            Action::Wait => {}
            Action::Done => self.set_running(page, false),
        }
    }
}
