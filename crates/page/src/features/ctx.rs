//! What the panels' code may touch, handed to it by the driver: the panels' state,
//! the client, the clock, the outputs and the log. The code lives behind the engine
//! ([`crate::engine`]), so it must not name the driver (which holds the engine).

use std::collections::VecDeque;
use std::sync::Arc;

use mcpg_core::Timestamp;
use mcpg_core::client::Client;
use mcpg_host::provider::Turn;

use super::state::Features;
use super::view::{FeatureChange, LevelView, ListView};
use crate::log::WireLog;
use crate::output::Output;
use crate::view::{Notice, ViewChange};

/// The driver's parts the Resources, Prompts and Logs panels work on, for one input.
pub struct FeatureCtx<'a> {
    pub(crate) features: &'a mut Features,
    pub(crate) client: &'a mut Client,
    pub(crate) now: Timestamp,
    /// When the connection started (log and update times count from it).
    pub(crate) started: Timestamp,
    pub(crate) outputs: &'a mut VecDeque<Output>,
    pub(crate) log: &'a mut WireLog,
    /// **Use in the loop**: the turns a new loop starts from (the driver runs it).
    pub(crate) seed: Option<Vec<Turn>>,
}

impl FeatureCtx<'_> {
    pub(crate) fn emit_feature(&mut self, change: FeatureChange) {
        self.outputs
            .push_back(Output::View(ViewChange::Feature(change)));
    }

    pub(crate) fn note(&mut self, text: impl Into<String>) {
        self.log.note(text.into());
    }

    pub(crate) fn notice(&mut self, text: impl Into<String>) {
        let n = ViewChange::Notice(Some(Notice::text(text)));
        self.outputs.push_back(Output::View(n));
    }

    /// A new connection: nothing of the old one stays (its operations are gone with
    /// its client); what the learner listed is listed again once it is ready.
    pub(crate) fn reset(&mut self) {
        let wanted = (self.features.resources.wanted, self.features.prompts.wanted);
        *self.features = Features::default();
        self.features.resources.wanted = wanted.0;
        self.features.templates.wanted = wanted.0;
        self.features.prompts.wanted = wanted.1;
        for change in [
            FeatureChange::Resources(ListView::default()),
            FeatureChange::Templates(ListView::default()),
            FeatureChange::Prompts(ListView::default()),
            FeatureChange::Read(None),
            FeatureChange::Completion(None),
            FeatureChange::Prompt(None),
            FeatureChange::Subscriptions(Vec::new()),
            FeatureChange::Level(LevelView::default()),
            FeatureChange::Logs(Vec::new()),
        ] {
            self.emit_feature(change);
        }
    }

    pub(crate) fn show_read(&mut self) {
        let v = self.features.read.clone().map(Box::new);
        self.emit_feature(FeatureChange::Read(v));
    }

    pub(crate) fn show_prompt(&mut self) {
        let v = self.features.prompt.clone().map(Box::new);
        self.emit_feature(FeatureChange::Prompt(v));
    }

    pub(crate) fn show_completion(&mut self) {
        let v = self.features.completion.clone().map(Box::new);
        self.emit_feature(FeatureChange::Completion(v));
    }

    pub(crate) fn show_subs(&mut self) {
        let v = self.features.subs.clone();
        self.emit_feature(FeatureChange::Subscriptions(v));
    }

    pub(crate) fn show_logs(&mut self) {
        let v = self.features.logs.iter().cloned().collect();
        self.emit_feature(FeatureChange::Logs(v));
    }

    pub(crate) fn show_level(&mut self) {
        let v = self.features.level.clone();
        self.emit_feature(FeatureChange::Level(v));
    }

    /// The `resources/read` request just sent belongs to the read shown.
    pub(crate) fn read_sent(&mut self, raw: &Arc<str>) {
        if let Some(r) = &mut self.features.read
            && self.features.read_op.is_some()
            && r.request.is_none()
        {
            r.request = Some(raw.clone());
            self.show_read();
        }
    }

    /// A new connection is ready: list again what the learner listed before.
    pub(crate) fn relist(&mut self) {
        if self.features.resources.wanted {
            self.list_resources();
        }
        if self.features.prompts.wanted {
            self.list_prompts();
        }
    }
}
