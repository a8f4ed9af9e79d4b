//! Resources, prompts, completions and logs: the other half of MCP, beside the
//! tool loop. The driver keeps what the Resources, Prompts and Logs panels show
//! ([`view`]), turns their commands ([`FeatureCommand`]) into the core's requests
//! (`ops`) and the core's events into view changes (`events`).
//!
//! As a host should, the page asks only for what the server declared: a listing,
//! a completion, a subscription or a log level the server's capabilities do not
//! offer is not sent, and the panel says why.

pub(crate) mod command;
mod events;
mod ops;
pub(crate) mod state;
pub mod view;

pub use command::FeatureCommand;
pub(crate) use state::{Features, Tracked};
use view::{FeatureChange, LevelView, ListView};

use crate::driver::PageDriver;
use crate::view::ViewChange;

/// The Logs panel keeps this many of the newest log messages.
pub const LOG_MESSAGES: usize = 500;

impl PageDriver {
    pub(crate) fn emit_feature(&mut self, change: FeatureChange) {
        self.emit(ViewChange::Feature(change));
    }

    /// A new connection: nothing of the old one stays (its operations are gone with
    /// its client); what the learner listed is listed again once it is ready.
    pub(crate) fn reset_features(&mut self) {
        let wanted = (self.features.resources.wanted, self.features.prompts.wanted);
        self.features = Features::default();
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
}

impl PageDriver {
    /// The `resources/read` request just sent belongs to the read shown.
    pub(crate) fn read_sent(&mut self, raw: &std::sync::Arc<str>) {
        if let Some(r) = &mut self.features.read
            && self.features.read_op.is_some()
            && r.request.is_none()
        {
            r.request = Some(raw.clone());
            self.show_read();
        }
    }

    /// A new connection is ready: list again what the learner listed before.
    pub(crate) fn relist_features(&mut self) {
        if self.features.resources.wanted {
            self.list_resources();
        }
        if self.features.prompts.wanted {
            self.list_prompts();
        }
    }
}
