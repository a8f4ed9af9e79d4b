//! Commands that wait for the later parts ([`crate::later`]).
//!
//! The first command that needs them before the shell handed them in asks for them
//! ([`Output::LoadLater`]) and waits; every command after it waits too, so they are
//! applied in the order they came once it arrives. If it cannot be loaded, the
//! waiting commands that need it are recorded as not done (a note and a notice) and
//! the others are applied: nothing is dropped silently, and the next Step asks again.

use crate::command::Command;
use crate::driver::PageDriver;
use crate::features::FeatureCommand;
use crate::output::Output;
use crate::page::Page;
use crate::parts::LaterKit;
use crate::view::Source;

/// Said when the loop's code could not be loaded.
const NOT_LOADED: &str = "The tool loop's code could not be loaded (the network may have dropped), so what needed it was not done (the log says what). Everything else keeps working; try again once you are online.";

impl Command {
    /// Whether the command needs the later parts (the loop, the panels, HTTP).
    fn needs_later(&self) -> bool {
        matches!(
            self,
            Command::Step
                | Command::Run
                | Command::PlayCall { .. }
                | Command::PlayAnswer(_)
                // These may open a Streamable HTTP link, whose machine the later parts make.
                | Command::Connect(Source::Url(_) | Source::Relay(_))
                | Command::RunLive
                | Command::Pin(_)
                // The Resources, Prompts and Logs panels' code is later too.
                | Command::Feature(_)
                // Answering the server: its JSON is built by `mcpg_host::asks`.
                | Command::Ask(_)
                // Opening one replays it, in the loop (and the embedded demo
                // regenerates its answers with its code that comes later).
                | Command::OpenShared { .. }
                // A view's dialogue runs in the later parts.
                | Command::App(_)
        )
    }

    /// A command that needs the later parts, in words (for the log).
    pub fn label(&self) -> &'static str {
        match self {
            Command::Step => "Step",
            Command::Run => "Run",
            Command::PlayCall { .. } => "your tool call",
            Command::PlayAnswer(_) => "your answer",
            Command::Connect(_) => "connecting over Streamable HTTP",
            Command::RunLive => "running the session live",
            Command::Pin(_) => "pinning a revision",
            Command::Feature(FeatureCommand::UsePrompt) => "using the prompt in the loop",
            Command::Feature(_) => "the Resources, Prompts, Skills or Logs panel",
            Command::Ask(_) => "your answer to the server",
            Command::OpenShared { .. } => "opening the shared session",
            Command::App(_) => "a message of an app's view",
            _ => "a command",
        }
    }
}

impl Page {
    /// Applies `c` now, or keeps it until the later parts are here.
    pub(crate) fn command_when_ready(&mut self, c: Command) {
        if let Some(waiting) = &mut self.waiting {
            waiting.push(c);
        } else if !self.later_in() && c.needs_later() {
            self.waiting = Some(vec![c]);
            self.output(Output::LoadLater);
        } else {
            self.command(c);
        }
    }

    /// The client holds what the server sent unasked until the later parts bring
    /// their readers (`mcpg_core::client::AnswerReaders`): ask for them, once. (The
    /// embedded demo sends nothing unasked at connect but the listen stream's
    /// acknowledgement, which the client reads at once: its first tool list needs
    /// no chunk.)
    pub(crate) fn ask_later_for_held(&mut self) {
        if !self.later_in()
            && self.waiting.is_none()
            && !self.later_for_held
            && self.client.holds_inbound() > 0
        {
            self.later_for_held = true;
            self.waiting = Some(Vec::new());
            self.output(Output::LoadLater);
        }
    }
}

impl PageDriver {
    /// The shell handed the later parts in: the waiting commands go next, in order.
    pub(crate) fn later_ready(&mut self, kit: LaterKit) {
        if self.later_in() {
            self.page_mut()
                .note("ignored: the tool loop's code was handed in a second time");
        } else {
            self.take_kit(kit);
        }
        let waiting = self.page_mut().waiting.take().unwrap_or_default();
        self.requeue(waiting);
    }

    /// The later parts could not be loaded: what needed them is noted as not done,
    /// the rest goes on.
    pub(crate) fn later_failed(&mut self, why: &str) {
        let kept = self.page_mut().not_loaded(why);
        self.requeue(kept);
    }
}

impl Page {
    /// What waited for the later parts, which could not be loaded: those that need
    /// them are noted as not done; the others are returned, to run now.
    fn not_loaded(&mut self, why: &str) -> Vec<Command> {
        let Some(waiting) = self.waiting.take() else {
            return Vec::new();
        };
        let (lost, kept): (Vec<Command>, Vec<Command>) =
            waiting.into_iter().partition(Command::needs_later);
        let any_lost = !lost.is_empty();
        for c in lost {
            self.note(format!(
                "not done: {} needed the tool loop's code: {why}",
                c.label()
            ));
        }
        let held = self.client.holds_inbound();
        if held > 0 {
            self.note(format!(
                "waiting: {held} requests or notifications of the server need the tool loop's code to be read: {why}"
            ));
        }
        if any_lost || held > 0 {
            self.notice(NOT_LOADED);
        }
        kept
    }
}
