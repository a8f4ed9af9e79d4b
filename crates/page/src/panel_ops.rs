//! The driver's side of the Resources, Prompts and Logs panels. Their code sits
//! behind the engine ([`crate::engine`]), so the first load does not hold it: the
//! driver lends it a [`FeatureCtx`] (the panels' state, the client, the clock, the
//! outputs, the log). Their events come only once it is in: the client holds what
//! the server sends unasked until the engine's answer readers come.

use std::sync::Arc;

use mcpg_core::client::Event;
use mcpg_host::provider::Turn;

use crate::driver::PageDriver;
use crate::engine::Engine;
use crate::features::{FeatureCommand, FeatureCtx};

impl PageDriver {
    /// Runs `f` on the panels' code with the driver's parts (nothing without the
    /// engine); returns the prompt's turns it left to seed a new loop.
    fn with_features(
        &mut self,
        f: impl FnOnce(&dyn Engine, &mut FeatureCtx<'_>),
    ) -> Option<Vec<Turn>> {
        let engine = self.engine?;
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
        ctx.seed.take()
    }

    /// A panel's command (it waited for the engine: see `waiting.rs`); "use in
    /// the loop" seeds a new loop with the prompt's turns (only commands do).
    pub(crate) fn feature_command(&mut self, c: FeatureCommand) {
        if let Some(turns) = self.with_features(|e, ctx| e.feature_command(ctx, c)) {
            self.run_seeded(turns);
        }
    }

    /// One event of these panels (the client delivers them only once the engine's
    /// answer readers are in, so the engine is here: see `later.rs`).
    pub(crate) fn on_feature_event(&mut self, ev: Event) {
        self.with_features(|e, ctx| e.feature_event(ctx, ev));
    }

    /// A new connection: the panels show nothing of the old one (without the
    /// engine they never changed).
    pub(crate) fn reset_features(&mut self) {
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
