//! The signals of the Resources, Prompts and Logs panels (a part of [`AppState`]):
//! plain data the driver's [`FeatureChange`]s write in `effects::apply`, and
//! nothing else.
//!
//! [`AppState`]: crate::state::AppState

use leptos::prelude::*;
use mcpg_core::model::{Prompt, Resource, ResourceTemplate};
use mcpg_page::FeatureChange;
use mcpg_page::features::view::{
    CompletionView, LevelView, ListView, LogEntry, PromptView, ReadView, SkillsView, SubView,
};

/// Every signal of the three panels.
#[derive(Clone, Copy, Debug)]
pub struct FeatureState {
    /// `resources/list`, every page.
    pub resources: RwSignal<ListView<Resource>>,
    /// `resources/templates/list`, every page.
    pub templates: RwSignal<ListView<ResourceTemplate>>,
    /// `prompts/list`, every page.
    pub prompts: RwSignal<ListView<Prompt>>,
    /// The latest `resources/read` and its exchange.
    pub read: RwSignal<Option<ReadView>>,
    /// The latest completion.
    pub completion: RwSignal<Option<CompletionView>>,
    /// The latest `prompts/get`.
    pub prompt: RwSignal<Option<PromptView>>,
    /// Subscriptions and their updates.
    pub subs: RwSignal<Vec<SubView>>,
    /// The log level asked for.
    pub level: RwSignal<LevelView>,
    /// The newest log messages.
    pub logs: RwSignal<Vec<LogEntry>>,
    /// The Skills panel.
    pub skills: RwSignal<SkillsView>,
}

impl FeatureState {
    /// Nothing listed, read or logged yet.
    pub fn new() -> Self {
        FeatureState {
            resources: RwSignal::new(ListView::default()),
            templates: RwSignal::new(ListView::default()),
            prompts: RwSignal::new(ListView::default()),
            read: RwSignal::new(None),
            completion: RwSignal::new(None),
            prompt: RwSignal::new(None),
            subs: RwSignal::new(Vec::new()),
            level: RwSignal::new(LevelView::default()),
            logs: RwSignal::new(Vec::new()),
            skills: RwSignal::new(SkillsView::default()),
        }
    }

    /// Writes one change; `false` for [`FeatureChange::ShowResources`], which is the
    /// tab's business (the caller opens it).
    pub fn apply(&self, change: FeatureChange) -> bool {
        match change {
            FeatureChange::Resources(v) => self.resources.set(v),
            FeatureChange::Templates(v) => self.templates.set(v),
            FeatureChange::Prompts(v) => self.prompts.set(v),
            FeatureChange::Read(v) => self.read.set(v.map(|b| *b)),
            FeatureChange::Completion(v) => self.completion.set(v.map(|b| *b)),
            FeatureChange::Prompt(v) => self.prompt.set(v.map(|b| *b)),
            FeatureChange::Subscriptions(v) => self.subs.set(v),
            FeatureChange::Level(v) => self.level.set(v),
            FeatureChange::Logs(v) => self.logs.set(v),
            FeatureChange::Skills(v) => self.skills.set(*v),
            FeatureChange::ShowResources => return false,
        }
        true
    }
}

impl Default for FeatureState {
    fn default() -> Self {
        Self::new()
    }
}
