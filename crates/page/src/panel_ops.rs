//! The driver's side of the Resources, Prompts and Logs panels. Their code sits
//! behind the engine ([`crate::engine`]), so the first load does not hold it: the
//! driver lends it a [`FeatureCtx`] (the panels' state, the client, the clock, the
//! outputs, the log), and keeps the panels' events that come before it does.

use std::sync::Arc;

use mcpg_core::client::Event;

use crate::driver::PageDriver;
use crate::engine::Engine;
use crate::features::{FeatureCommand, FeatureCtx};
use crate::output::Output;

impl PageDriver {
    /// Runs `f` on the panels' code with the driver's parts (nothing without the
    /// engine); a prompt's turns it leaves seed a new loop.
    fn with_features(&mut self, f: impl FnOnce(&dyn Engine, &mut FeatureCtx<'_>)) {
        let Some(engine) = self.engine else {
            return;
        };
        let mut ctx = FeatureCtx {
            features: &mut self.features,
            client: &mut self.client,
            now: self.now,
            started: self.started,
            outputs: &mut self.outputs,
            log: &mut self.log,
            seed: None,
        };
        f(engine.0, &mut ctx);
        if let Some(turns) = ctx.seed.take() {
            self.run_seeded(turns);
        }
    }

    /// A panel's command (it waited for the engine: see `waiting.rs`).
    pub(crate) fn feature_command(&mut self, c: FeatureCommand) {
        self.with_features(|e, ctx| e.feature_command(ctx, c));
    }

    /// One event of these panels. Before their code is here it is kept, and the
    /// engine asked for, so a server's early log message is shown once it arrives.
    pub(crate) fn on_feature_event(&mut self, ev: Event) {
        if self.engine.is_some() {
            self.with_features(|e, ctx| e.feature_event(ctx, ev));
            return;
        }
        self.features.early.push(ev);
        if self.waiting.is_none() {
            self.waiting = Some(Vec::new());
            self.output(Output::LoadEngine);
        }
    }

    /// The engine is here: the events kept for the panels go first.
    pub(crate) fn feature_events_ready(&mut self) {
        for ev in std::mem::take(&mut self.features.early) {
            self.on_feature_event(ev);
        }
    }

    /// The engine could not be loaded: the events kept are not shown; how many.
    pub(crate) fn feature_events_lost(&mut self) -> usize {
        std::mem::take(&mut self.features.early).len()
    }

    /// A new connection: the panels show nothing of the old one. Without the
    /// engine they never changed, so only the kept events go.
    pub(crate) fn reset_features(&mut self) {
        self.features.early.clear();
        self.with_features(|e, ctx| e.reset_features(ctx));
    }

    /// The `resources/read` request just sent belongs to the read shown.
    pub(crate) fn read_sent(&mut self, raw: &Arc<str>) {
        self.with_features(|e, ctx| e.read_sent(ctx, raw));
    }

    /// A new connection is ready: list again what the learner listed before.
    pub(crate) fn relist_features(&mut self) {
        self.with_features(|e, ctx| e.relist_features(ctx));
    }
}
