//! Skills in use (MCP Skills): their verified `SKILL.md` added to the system prompt,
//! which is how a host tells the model a skill's instructions, and shown in step 2
//! beside the tools, since the model reads both.

use serde_json::Value;

use super::{BlockKind, JsonBlock, Step, ToolLoop};

impl ToolLoop {
    /// The same loop, telling the model these skills (name, `SKILL.md` text) after
    /// the server's instructions.
    #[must_use]
    pub fn with_skills(mut self, skills: Vec<(String, String)>) -> Self {
        if skills.is_empty() {
            return self;
        }
        let mut system = self.opts.system.take().unwrap_or_default();
        if !system.is_empty() {
            system.push_str("\n\n");
        }
        system.push_str(
            "The host gives you these skills from the MCP server. When a request fits one, follow its instructions.",
        );
        for (name, text) in &skills {
            system.push_str(&format!("\n\n# Skill: {name}\n\n{}", text.trim_end()));
        }
        self.opts.system = Some(system);
        self.skills = skills.into_iter().map(|(name, _)| name).collect();
        self
    }

    /// The skills this loop tells the model.
    pub fn skills(&self) -> &[String] {
        &self.skills
    }

    /// Step 2's block for the system prompt, when skills are in use.
    pub(super) fn skills_block(&self, step: &mut Step) {
        let Some(system) = self
            .opts
            .system
            .as_ref()
            .filter(|_| !self.skills.is_empty())
        else {
            return;
        };
        step.blocks.push(JsonBlock::value(
            BlockKind::Built,
            format!(
                "the system prompt, with the skill(s) in use ({}): the model reads it beside the tools",
                self.skills.join(", ")
            ),
            &Value::String(system.clone()),
        ));
    }
}
