//! What the panels' code works on: the panels' state and the driver.

use std::sync::Arc;

use mcpg_host::provider::Turn;
use mcpg_page::features::view::{FeatureChange, LevelView, ListView};
use mcpg_page::{Page, ViewChange};

use super::state::Features;

/// The Resources, Prompts and Logs panels' state and the driver, for one input.
pub(crate) struct FeatureCtx<'a> {
    pub(crate) features: &'a mut Features,
    pub(crate) page: &'a mut Page,
    /// **Use in the loop**: the turns a new loop starts from (the loop runs it).
    pub(crate) seed: Option<Vec<Turn>>,
}

impl FeatureCtx<'_> {
    pub(crate) fn emit_feature(&mut self, change: FeatureChange) {
        self.page.emit(ViewChange::Feature(change));
    }

    pub(crate) fn note(&mut self, text: impl Into<String>) {
        self.page.note(text);
    }

    pub(crate) fn notice(&mut self, text: impl Into<String>) {
        self.page.notice(text);
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
