//! Skills in use (MCP Skills): their verified `SKILL.md` added to the system prompt,
//! which is how a host tells the model a skill's instructions, and shown in step 2
//! beside the tools, since the model reads both.

use serde_json::json;

use super::{BlockKind, JsonBlock, Phase, Step, ToolLoop};

/// What the system prompt says before the skills.
const SKILLS_HEADER: &str = "The host gives you these skills from the MCP server. When a request fits one, follow its instructions.";

impl ToolLoop {
    /// The same loop, telling the model these skills (name, `SKILL.md` text) after
    /// the server's instructions.
    #[must_use]
    pub fn with_skills(mut self, skills: Vec<(String, String)>) -> Self {
        self.set_skills(skills);
        self
    }

    /// Changes the skills this loop tells the model, while it has told the model
    /// nothing yet (before step 2); whether it did.
    pub fn set_skills(&mut self, skills: Vec<(String, String)>) -> bool {
        if !matches!(self.phase, Phase::Start | Phase::Listing | Phase::Listed) {
            return false;
        }
        let mut system = self.instructions.clone().unwrap_or_default();
        if !skills.is_empty() {
            if !system.is_empty() {
                system.push_str("\n\n");
            }
            system.push_str(SKILLS_HEADER);
            for (name, text) in &skills {
                system.push_str(&format!("\n\n# Skill: {name}\n\n{}", text.trim_end()));
            }
        }
        self.opts.system = (!system.is_empty()).then_some(system);
        self.skills = skills.into_iter().map(|(name, _)| name).collect();
        true
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
            &json!({ "skills": self.skills, "system": system }),
        ));
    }
}
