//! The driver's side of [`Later`]: handing work to the engine, and running it when
//! the engine hands it back (see `later.rs`).

use mcpg_core::client::{CallOutcome, Event};

use crate::command::Command;
use crate::driver::PageDriver;
use crate::later::Later;

impl PageDriver {
    /// Hands `work` to the engine; without it, the log says what was not done.
    pub(crate) fn through_engine(&mut self, work: Later) {
        match self.engine {
            // As `dyn Any`: the engine's interface cannot name the driver, which
            // holds the engine (`HostEngine::later` takes it back).
            Some(engine) => engine.0.later(self, work),
            None => self.note(format!(
                "not done: {} needed the tool loop's code, which is not loaded",
                work.label()
            )),
        }
    }

    /// Runs `work` (only the engine calls this: [`crate::Engine::later`]).
    pub(crate) fn later(&mut self, work: Later) {
        match work {
            Later::Command(c) => self.later_command(c),
            Later::Pace => {
                if self.running {
                    self.perform();
                }
            }
            Later::ModelReply { loop_id, reply } => self.model_answered(loop_id, reply),
            Later::SampleReply { ask, reply } => self.model_sampled(ask, &reply),
            Later::Event(ev) => self.later_event(ev),
            Later::SyncLoop => self.sync_loop(),
        }
    }

    fn later_command(&mut self, c: Command) {
        match c {
            Command::Step => self.step(),
            Command::Run => self.run_all(),
            Command::PlayCall { name, arguments } => self.play_call(name, arguments),
            Command::PlayAnswer(text) => self.play(crate::driver::Manual::Answer(text)),
            Command::Pin(pin) => self.set_pin(pin),
            Command::OpenShared { session, from } => self.open_shared(*session, &from),
            Command::RunLive => self.run_live(),
            Command::Feature(c) => self.feature_command(c),
            Command::Ask(c) => self.ask_command(c),
            // The driver hands over only the commands above (see `session_ops.rs`).
            other => self.note(format!("ignored: {} is not the engine's", other.label())),
        }
    }

    fn later_event(&mut self, ev: Event) {
        match ev {
            Event::ServerRequest {
                id,
                method,
                params,
                deadline,
                ..
            } => self.server_asked(id, method, params, deadline),
            Event::CallFinished {
                op,
                outcome: CallOutcome::InputRequired(result),
                ..
            } => self.input_required(op, &result),
            Event::CallFinished {
                op,
                outcome: CallOutcome::ProtocolError(e),
                ..
            } => self.url_required(op, &e),
            Event::Notification { params, .. } => self.elicitation_complete(params.as_ref()),
            ev => self.on_feature_event(ev),
        }
    }
}
