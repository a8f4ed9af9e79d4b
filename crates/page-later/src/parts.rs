//! The later parts' state ([`LoopParts`]) and the one way the driver reaches it
//! ([`LaterParts::handle`]).

use mcpg_core::Timestamp;
use mcpg_core::client::{CallOutcome, Event};
use mcpg_host::ToolLoop;
use mcpg_host::provider::ToolCall;
use mcpg_host::script::Script;
use mcpg_page::{Command, Later, LaterParts, LoopId, Page, for_later};
use serde_json::Value;

use crate::apps::Apps;
use crate::asks::Asks;
use crate::features::state::Features;
use crate::shown::Shown;

/// A turn the learner wrote as the model, waiting for step 3 or 6.
#[derive(Clone, Debug)]
pub(crate) enum Manual {
    /// A tool call, from the generated form.
    Call(ToolCall),
    /// A final answer in words.
    Answer(String),
}

/// What loads after the first tool list, with its state: the loop, run mode, a
/// real model's request in flight, the server's questions and the Resources,
/// Prompts and Logs panels.
#[derive(Debug, Default)]
pub struct LoopParts {
    pub(crate) run: Option<ToolLoop>,
    /// Whether the loop's listing has been shown in the Tools panel (once: a later
    /// listing, e.g. after list_changed, must not be overwritten by it).
    pub(crate) run_pages_shown: bool,
    pub(crate) manual: Option<Manual>,
    pub(crate) loop_id: LoopId,
    pub(crate) model_pending: bool,
    /// The request line and headers of the model request in flight, as shown.
    pub(crate) pending_head: Option<Value>,
    pub(crate) running: bool,
    pub(crate) pace_due: Option<Timestamp>,
    /// Model turns still to play (reloaded from the page's script when played
    /// through).
    pub(crate) script: Script,
    /// The Resources, Prompts and Logs panels.
    pub(crate) features: Features,
    /// What the server asked the host, and the learner's roots.
    pub(crate) asks: Asks,
    /// What the loop panels show now.
    pub(crate) shown: Shown,
    /// The MCP Apps views hosted, and the calls waiting for theirs.
    pub(crate) apps: Apps,
    /// The Skills panel, and the skills the next loops tell the model.
    pub(crate) skills: crate::skills::Skills,
}

impl LaterParts for LoopParts {
    fn handle(&mut self, page: &mut Page, work: Later) {
        match work {
            Later::Command(c) => self.command(page, c),
            Later::Timer => self.timer(page),
            Later::ModelReply { loop_id, reply } => self.model_answered(page, loop_id, reply),
            Later::SampleReply { ask, reply } => self.model_sampled(page, ask, &reply),
            Later::Event(ev) => self.event(page, ev),
            Later::ReadSent(raw) => {
                self.with_features(page, |ctx| ctx.read_sent(&raw));
            }
            Later::Pumped => self.pumped(page),
            Later::NewConnection => self.new_connection(page),
            Later::ScriptChanged => self.script = Script::default(),
        }
    }

    fn app_lifelines(&self) -> Vec<mcpg_page::AppLifeline> {
        self.apps.lifelines()
    }

    fn poll_timeout(&self) -> Option<Timestamp> {
        match (self.pace_due, self.apps.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }
}

impl LoopParts {
    fn command(&mut self, page: &mut Page, c: Command) {
        match c {
            Command::Step => self.step(page),
            Command::Run => self.run_all(page),
            Command::PlayCall { name, arguments } => self.play_call(page, name, arguments),
            Command::PlayAnswer(text) => self.play(page, Manual::Answer(text)),
            Command::Pin(pin) => page.set_pin(pin),
            Command::OpenShared { session, from } => self.open_shared(page, *session, &from),
            Command::RunLive => page.run_live(),
            Command::Feature(c) => self.feature_command(page, c),
            Command::Ask(c) => self.ask_command(page, c),
            Command::App(c) => self.apps.command(page, c),
            Command::Pause => self.set_running(page, false),
            Command::Reset => self.reset(page),
            Command::Cancel => self.cancel(page),
            // The driver hands over only the commands above (see `session_ops.rs`).
            other => page.note(format!("ignored: {} is not the tool loop's", other.label())),
        }
    }

    fn timer(&mut self, page: &mut Page) {
        self.expire_asks(page);
        self.apps.timer(page);
        if self.pace_due.is_some_and(|t| t <= page.now) {
            self.pace_due = None;
            if self.running {
                self.perform(page);
            }
        }
    }

    /// The driver moved everything: the loop's view, and run mode's next pace.
    fn pumped(&mut self, page: &mut Page) {
        self.take_view_message(page);
        if self.run.is_some() {
            self.sync_loop(page);
        }
        if self.running && self.actionable() && self.pace_due.is_none() {
            self.pace_due = Some(page.now.after(mcpg_page::RUN_PACE));
        }
    }

    /// A view's `ui/message` joins the conversation once the loop has answered:
    /// the loop goes on from step 3, as a host's chat does when the user writes
    /// again (the learner steps it, or run mode goes on).
    fn take_view_message(&mut self, page: &mut Page) {
        let Some(run) = self.run.as_mut().filter(|r| r.is_done()) else {
            return;
        };
        let Some((tool, text)) = self.apps.take_message() else {
            return;
        };
        if run.follow_up(&text) {
            page.loop_pitfalls = Some(run.pitfalls());
            page.note(format!(
                "the view of {tool} added a user message to the conversation: the loop goes on from step 3"
            ));
        } else {
            page.note(format!(
                "the view of {tool} sent a user message, but this loop never reached the model: it is dropped"
            ));
        }
    }

    fn event(&mut self, page: &mut Page, ev: Event) {
        // The host's own requests for its views are not the loop's.
        if let Event::Response { op, outcome } = &ev
            && (self.apps.on_response(page, *op, outcome)
                || self.skills.on_response(page, *op, outcome))
        {
            return;
        }
        if let Some(run) = &mut self.run {
            run.on_event(&ev);
        }
        if let Event::CallFinished {
            op,
            outcome,
            message,
        } = &ev
        {
            // The run saw this end first: the call's step 5 is its last.
            let step = self
                .run
                .as_ref()
                .and_then(|r| r.steps().iter().rposition(|s| s.number == 5));
            self.apps
                .call_finished(page, *op, outcome, message.as_ref(), step);
        }
        if !for_later(&ev) {
            match ev {
                Event::Connected(_) => {
                    self.with_features(page, |ctx| ctx.relist());
                }
                Event::Closed(_) => {
                    self.forget_asks(page);
                    self.set_running(page, false);
                }
                _ => {}
            }
            return;
        }
        match ev {
            Event::ServerRequest {
                id,
                method,
                params,
                deadline,
                ..
            } => self.server_asked(page, id, method, params, deadline),
            Event::CallFinished {
                op,
                outcome: CallOutcome::InputRequired(result),
                ..
            } => self.input_required(page, op, &result),
            Event::CallFinished {
                op,
                outcome: CallOutcome::ProtocolError(e),
                ..
            } => self.url_required(page, op, &e),
            Event::Notification { params, .. } => self.elicitation_complete(page, params.as_ref()),
            ev => {
                self.with_features(page, |ctx| ctx.on_feature_event(ev));
            }
        }
    }

    /// A new connection replaces the old one: its questions can no longer be
    /// answered, the loop and the panels start over.
    fn new_connection(&mut self, page: &mut Page) {
        self.apps
            .teardown(page, "the page connected to another server");
        self.forget_asks(page);
        self.asks.list.clear();
        self.script = Script::default();
        self.reset(page);
        self.with_features(page, |ctx| ctx.reset());
        self.skills.reset(page);
    }

    /// Forgets the loop and what the loop panels show (a reply for it arriving later
    /// is recognised by its loop id).
    pub(crate) fn reset(&mut self, page: &mut Page) {
        self.apps.teardown(page, "the loop was reset");
        self.run = None;
        page.loop_pitfalls = None;
        page.recorder.loop_played.clear();
        page.recorder.loop_steps.clear();
        self.manual = None;
        self.loop_id += 1;
        if !self.asks.list.is_empty() {
            self.show_asks(page);
        }
        self.model_pending = false;
        self.pending_head = None;
        self.pace_due = None;
        self.running = false;
        self.shown = Shown::default();
        for change in Shown::default().all() {
            page.emit(change);
        }
    }
}
