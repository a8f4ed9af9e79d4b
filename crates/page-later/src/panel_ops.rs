//! The later parts' side of the Resources, Prompts and Logs panels: their code
//! works on a [`FeatureCtx`] (the panels' state and the driver). Their events come
//! only once the later parts are in: the client holds what the server sends
//! unasked until their answer readers come.

use mcpg_host::provider::Turn;
use mcpg_page::{FeatureCommand, Page};

use crate::features::FeatureCtx;
use crate::parts::LoopParts;

impl LoopParts {
    /// Runs `f` on the panels' code with the driver; returns the prompt's turns it
    /// left to seed a new loop.
    pub(crate) fn with_features(
        &mut self,
        page: &mut Page,
        f: impl FnOnce(&mut FeatureCtx<'_>),
    ) -> Option<Vec<Turn>> {
        let mut ctx = FeatureCtx {
            features: &mut self.features,
            page,
            seed: None,
        };
        f(&mut ctx);
        ctx.seed.take()
    }

    /// A panel's command (it waited for the later parts: see `waiting.rs` in
    /// mcpg-page); "use in the loop" seeds a new loop with the prompt's turns (only
    /// commands do).
    pub(crate) fn feature_command(&mut self, page: &mut Page, c: FeatureCommand) {
        match c {
            FeatureCommand::ListSkills => return self.skills.list(page),
            FeatureCommand::ReadSkill(name) => return self.skills.read(page, &name),
            FeatureCommand::UseSkill { name, on } => {
                self.skills.use_skill(page, &name, on);
                // A loop that has told the model nothing yet takes it at once.
                if let Some(run) = self.run.as_mut()
                    && run.set_skills(self.skills.in_use())
                {
                    self.sync_loop(page);
                }
                return;
            }
            _ => {}
        }
        if let Some(turns) = self.with_features(page, |ctx| ctx.feature_command(c)) {
            self.run_seeded(page, turns);
        }
    }
}
