//! Commands that wait for the loop's code ([`crate::engine`]).
//!
//! The first command that needs the engine before the shell handed it in asks for it
//! ([`Output::LoadEngine`]) and waits; every command after it waits too, so they are
//! applied in the order they came once it arrives. If it cannot be loaded, the
//! waiting commands that need it are recorded as not done (a note and a notice) and
//! the others are applied: nothing is dropped silently, and the next Step asks again.

use crate::driver::PageDriver;
use crate::engine::EngineRef;
use crate::features::FeatureCommand;
use crate::input::{Command, Input};
use crate::links::Link;
use crate::output::Output;
use crate::view::Source;

/// Said when the loop's code could not be loaded.
const NOT_LOADED: &str = "The tool loop's code could not be loaded (the network may have dropped), so what needed it was not done (the log says what). Everything else keeps working; try again once you are online.";

impl Command {
    /// Whether the command runs the loop (and so needs the engine).
    fn needs_engine(&self) -> bool {
        matches!(
            self,
            Command::Step
                | Command::Run
                | Command::PlayCall { .. }
                | Command::PlayAnswer(_)
                // These may open a Streamable HTTP link, whose machine the engine makes.
                | Command::Connect(Source::Url(_) | Source::Relay(_))
                | Command::RunLive
                | Command::Pin(_)
                // The Resources, Prompts and Logs panels' code is in the engine too.
                | Command::Feature(_)
                // Answering the server: its JSON is built by `mcpg_host::asks`.
                | Command::Ask(_)
                // Opening one replays it, in the loop (and the embedded demo
                // regenerates its answers with its code that comes with the engine).
                | Command::OpenShared { .. }
        )
    }

    /// A command that needs the engine, in words (for the log).
    pub(crate) fn label(&self) -> &'static str {
        match self {
            Command::Step => "Step",
            Command::Run => "Run",
            Command::PlayCall { .. } => "your tool call",
            Command::PlayAnswer(_) => "your answer",
            Command::Connect(_) => "connecting over Streamable HTTP",
            Command::RunLive => "running the session live",
            Command::Pin(_) => "pinning a revision",
            Command::Feature(FeatureCommand::UsePrompt) => "using the prompt in the loop",
            Command::Feature(_) => "the Resources, Prompts or Logs panel",
            Command::Ask(_) => "your answer to the server",
            Command::OpenShared { .. } => "opening the shared session",
            _ => "a command",
        }
    }
}

impl PageDriver {
    /// Applies `c` now, or keeps it until the engine is here.
    pub(crate) fn command_when_ready(&mut self, c: Command) {
        if let Some(waiting) = &mut self.waiting {
            waiting.push(c);
        } else if self.engine.is_none() && c.needs_engine() {
            self.waiting = Some(vec![c]);
            self.output(Output::LoadEngine);
        } else {
            self.command(c);
        }
    }

    /// The shell handed the engine in: the waiting commands go next, in order.
    pub(crate) fn engine_ready(&mut self, engine: EngineRef) {
        self.engine = Some(engine);
        self.client.set_answer_readers(engine.0.answer_readers());
        if let Link::Memory(m) = &mut self.link {
            m.set_handlers(engine.0.demo_handlers());
        }
        let waiting = self.waiting.take().unwrap_or_default();
        self.requeue(waiting);
    }

    /// The engine could not be loaded: what needed it is noted as not done, the rest
    /// goes on.
    pub(crate) fn engine_failed(&mut self, why: &str) {
        let Some(waiting) = self.waiting.take() else {
            return;
        };
        let (lost, kept): (Vec<Command>, Vec<Command>) =
            waiting.into_iter().partition(Command::needs_engine);
        let any_lost = !lost.is_empty();
        for c in lost {
            self.note(format!(
                "not done: {} needed the tool loop's code: {why}",
                c.label()
            ));
        }
        let held = self.client.holds_unasked();
        if held > 0 {
            self.note(format!(
                "waiting: {held} requests or notifications of the server need the tool loop's code to be read: {why}"
            ));
        }
        if any_lost || held > 0 {
            self.notice(NOT_LOADED);
        }
        self.requeue(kept);
    }

    /// The client holds what the server sent unasked until the engine brings its
    /// readers (`mcpg_core::client::AnswerReaders`): ask for the engine, once. (The
    /// embedded demo sends nothing unasked at connect but the listen stream's
    /// acknowledgement, which the client reads at once: its first tool list needs
    /// no chunk.)
    pub(crate) fn ask_engine_for_held(&mut self) {
        if self.engine.is_none()
            && self.waiting.is_none()
            && !self.engine_for_held
            && self.client.holds_unasked() > 0
        {
            self.engine_for_held = true;
            self.waiting = Some(Vec::new());
            self.output(Output::LoadEngine);
        }
    }

    /// Puts `commands` at the head of the inbox, in order.
    fn requeue(&mut self, commands: Vec<Command>) {
        for c in commands.into_iter().rev() {
            self.inbox.push_front(Input::Command(c));
        }
    }
}
