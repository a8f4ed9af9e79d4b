//! The tool loop: starting one, step and run mode (never a second loop while one
//! runs), the learner playing the model, and a real model's request and reply.

use mcpg_core::client::CallOptions;
use mcpg_core::model::JsonObject;
use mcpg_host::provider::{ModelTurn, Provider, RequestOptions, ToolCall, Turn};
use mcpg_host::tool_loop::Action;
use mcpg_host::{StepStatus, ToolLoop};

use crate::driver::{Manual, PageDriver};
use crate::input::{LoopId, ModelReply};
use crate::output::{ModelRequest, Output};
use crate::record::{seed_record, seed_turns};
use crate::settings::{LlmSettings, ModelChoice, slot};
use crate::view::ViewChange;

/// Why Run or Step was refused while run mode is on.
const BUSY: &str = "The loop is already running: pause it (or wait for it to end) before stepping or running again.";

impl PageDriver {
    /// Starts a new loop for the current prompt.
    fn new_loop(&mut self) {
        self.begin_loop(None);
    }

    /// Starts a new loop for the current prompt, or from `seed` (a prompt's
    /// messages, `prompts/get`): then the conversation starts with them. Needs the
    /// engine (the commands that lead here wait for it).
    fn begin_loop(&mut self, seed: Option<Vec<Turn>>) {
        let Some(engine) = self.engine.map(|e| e.0) else {
            return;
        };
        // A replay asks what the recorded session asked, loop by loop, from the
        // conversation its prompt seeded the loop with when there was one.
        let index = self.recorder.prompts.len();
        let (recorded, recorded_seed) = self.replay.as_ref().map_or((None, None), |r| {
            let seed = r.seeds.get(index).cloned().flatten();
            (r.messages.get(index).cloned(), seed.map(|t| seed_turns(&t)))
        });
        if let Some(p) = recorded {
            self.prompt.clone_from(&p);
            self.emit(ViewChange::Prompt(p));
        }
        let seed = recorded_seed.or(seed);
        self.catch_up_replay();
        if let Some(run) = &self.run {
            self.recorder.played.extend(engine.played(run));
        }
        // A seeded loop is recorded with its seed, and by its last user message for
        // a reader that shows one message per loop.
        self.recorder
            .seeds
            .push(seed.as_deref().and_then(seed_record));
        let said = seed.as_ref().and_then(|turns| {
            turns.iter().rev().find_map(|t| match t {
                Turn::User(text) => Some(text.clone()),
                _ => None,
            })
        });
        self.recorder
            .prompts
            .push(said.unwrap_or_else(|| self.prompt.clone()));
        if self.script.is_empty() {
            // The script was validated when it was set; a bad one is no script.
            self.script = engine.script(&self.script_values);
        }
        let opts = RequestOptions {
            model: "mock-model".into(),
            system: self
                .client
                .negotiated()
                .and_then(|n| n.instructions.clone()),
            ..Default::default()
        };
        self.run_pages_shown = false;
        self.loop_id += 1;
        self.model_pending = false;
        self.set_model_busy(false);
        self.run = Some(engine.start(&self.prompt, seed, self.provider, opts));
        self.shown.clear_call();
        self.emit(ViewChange::Call(None));
        self.emit(ViewChange::Progress(None));
        self.emit(ViewChange::Answer(None));
        // The previous loop's questions go with its steps.
        if !self.asks.list.is_empty() {
            self.show_asks();
        }
    }

    fn ensure_loop(&mut self) {
        if self.run.as_ref().is_none_or(ToolLoop::is_done) {
            self.new_loop();
        }
    }

    /// Step mode: one command, one step. Refused while run mode is on.
    pub(crate) fn step(&mut self) {
        if self.running {
            self.note(BUSY);
            self.notice(BUSY);
            return;
        }
        self.ensure_loop();
        self.perform();
    }

    /// Run mode: the whole loop, paced. Refused while run mode is already on.
    pub(crate) fn run_all(&mut self) {
        if self.running {
            self.note(BUSY);
            self.notice(BUSY);
            return;
        }
        self.ensure_loop();
        self.set_running(true);
        self.perform();
    }

    /// **Use in the loop**: a new loop from a prompt's messages, run to its end.
    /// Refused while run mode is on, like Run.
    pub(crate) fn run_seeded(&mut self, turns: Vec<Turn>) {
        if self.running {
            self.note(BUSY);
            self.notice(BUSY);
            return;
        }
        if turns.is_empty() {
            self.notice(
                "The prompt returned no messages, so there is nothing to start the loop from.",
            );
            return;
        }
        self.begin_loop(Some(turns));
        self.set_running(true);
        self.perform();
    }

    /// The learner plays the model: this call is step 3.
    pub(crate) fn play_call(&mut self, name: String, arguments: JsonObject) {
        let round = self.run.as_ref().map_or(0, ToolLoop::rounds);
        self.play(Manual::Call(ToolCall {
            id: format!("call_{}", round + 1),
            name,
            arguments,
        }));
    }

    /// Runs the loop up to the model's next turn and gives it `turn`. A loop waiting
    /// for the model (step 3, or step 6 after results) takes it there; otherwise a new
    /// loop starts and the turn becomes its step 3.
    pub(crate) fn play(&mut self, turn: Manual) {
        let keeps = self
            .run
            .as_ref()
            .and_then(ToolLoop::next_step_number)
            .is_some_and(|n| n <= 3 || n == 6);
        if !keeps {
            self.new_loop();
        }
        self.manual = Some(turn);
        self.set_running(true);
        self.perform();
    }

    /// Cancels the call in flight.
    pub(crate) fn cancel(&mut self) {
        if let Some(op) = self.run.as_ref().and_then(ToolLoop::call_in_flight) {
            self.client.cancel(self.now, op, "cancelled by the learner");
        }
    }

    /// A real model's reply (or why there was none) for loop `loop_id`. A reply for
    /// another loop (reset or replaced since) is recorded in the log and not applied.
    pub(crate) fn model_answered(&mut self, loop_id: LoopId, reply: ModelReply) {
        if loop_id != self.loop_id || !self.model_pending {
            self.note(format!(
                "ignored: a model reply for loop #{loop_id} arrived after that loop was reset or replaced"
            ));
            return;
        }
        self.model_pending = false;
        self.set_model_busy(false);
        let head = self.pending_head.take().unwrap_or_default();
        let (Some(run), Some(engine)) = (&mut self.run, self.engine.map(|e| e.0)) else {
            return;
        };
        let before = run.steps().len();
        match reply {
            ModelReply::Http { status, body } => engine.http_reply(run, status, &body, &head),
            ModelReply::Unreachable { detail, origin } => {
                engine.unreachable(run, &detail, &head, &origin);
            }
        }
        let failed = run.steps().len() > before
            && run
                .steps()
                .last()
                .is_some_and(|s| s.status == StepStatus::Failed);
        if failed {
            // Run mode stops on a failed model turn; the learner decides what next.
            self.set_running(false);
        }
    }

    /// The chosen provider and its real model's settings.
    pub(crate) fn llm_settings(&self) -> (Provider, LlmSettings) {
        let provider = self.provider;
        let settings = self
            .llm
            .get(slot(provider))
            .cloned()
            .unwrap_or_else(|| LlmSettings::default_for(provider));
        (provider, settings)
    }

    /// Asks the real model for the loop's next turn: one output, without the key.
    fn ask_llm(&mut self) {
        let (provider, settings) = self.llm_settings();
        let hint = self.key_hints.get(slot(provider)).cloned().flatten();
        let (Some(run), Some(engine)) = (&mut self.run, self.engine.map(|e| e.0)) else {
            return;
        };
        let asked = engine.ask(run, provider, &settings, hint);
        self.pending_head = Some(asked.head);
        self.model_pending = true;
        self.set_model_busy(true);
        self.output(Output::ModelRequest(ModelRequest {
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
    pub(crate) fn perform(&mut self) {
        let now = self.now;
        let (Some(run), Some(engine)) = (&mut self.run, self.engine.map(|e| e.0)) else {
            return;
        };
        match run.next() {
            Action::ListTools => {
                let op = self.client.list_tools(now);
                run.listing_started(op);
            }
            Action::Reshape => engine.reshape(run),
            Action::AskModel if self.model_pending => {}
            Action::AskModel => match self.manual.take() {
                Some(Manual::Call(call)) => {
                    let why = format!(
                        "You played the model: you chose {} and filled its form.",
                        call.name
                    );
                    let turn = ModelTurn::ToolCalls {
                        text: None,
                        calls: vec![call],
                    };
                    engine.replied(run, turn, &why);
                }
                Some(Manual::Answer(text)) => {
                    let why = "You played the model: you answered in words, with no tool call.";
                    engine.replied(run, ModelTurn::Answer { text }, why);
                }
                // A replay never asks a live model: the recorded turns answer, then the mock.
                None if !self.script.is_empty() || self.replay.is_some() => {
                    let scripted = engine.ask_script(run, &mut self.script);
                    if !scripted && !self.script_values.is_empty() {
                        self.note("the model script has no turn left for this loop: the mock model answered");
                    }
                }
                None => match self.model {
                    ModelChoice::Mock => engine.ask_mock(run),
                    // The learner's turn: the play box and the Tools panel's form wait.
                    ModelChoice::Play => self.set_running(false),
                    ModelChoice::Real => self.ask_llm(),
                },
            },
            Action::CallTool(call) => {
                let opts = CallOptions {
                    progress: true,
                    ..Default::default()
                };
                let op = self
                    .client
                    .call_tool(now, &call.name, Some(call.arguments.clone()), opts);
                run.call_started(op);
                self.emit(ViewChange::ShowResult);
            }
            Action::Wait => {}
            Action::Done => self.set_running(false),
        }
    }
}
