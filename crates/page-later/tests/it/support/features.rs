//! The Resources, Prompts and Logs panels' view changes folded into plain fields,
//! the way `web/src/feature_state.rs` folds them into signals.

use mcpg_core::model::{Prompt, Resource, ResourceTemplate};
use mcpg_page::FeatureChange;
use mcpg_page::features::view::{
    CompletionView, LevelView, ListView, LogEntry, PromptView, ReadView, SkillsView, SubView,
};

/// What the three panels would show.
#[derive(Debug, Default)]
pub struct Panels {
    pub resources: ListView<Resource>,
    pub templates: ListView<ResourceTemplate>,
    pub prompts: ListView<Prompt>,
    pub read: Option<ReadView>,
    pub completion: Option<CompletionView>,
    pub prompt: Option<PromptView>,
    pub subs: Vec<SubView>,
    pub level: LevelView,
    pub logs: Vec<LogEntry>,
    /// Times the driver asked to open the Resources panel.
    pub shown: usize,
    pub skills: SkillsView,
}

impl Panels {
    pub fn apply(&mut self, c: FeatureChange) {
        match c {
            FeatureChange::Resources(v) => self.resources = v,
            FeatureChange::Templates(v) => self.templates = v,
            FeatureChange::Prompts(v) => self.prompts = v,
            FeatureChange::Read(v) => self.read = v.map(|b| *b),
            FeatureChange::Completion(v) => self.completion = v.map(|b| *b),
            FeatureChange::Prompt(v) => self.prompt = v.map(|b| *b),
            FeatureChange::Subscriptions(v) => self.subs = v,
            FeatureChange::Level(v) => self.level = v,
            FeatureChange::Logs(v) => self.logs = v,
            FeatureChange::ShowResources => self.shown += 1,
            FeatureChange::Skills(v) => self.skills = *v,
        }
    }
}
