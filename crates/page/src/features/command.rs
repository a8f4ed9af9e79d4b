//! What the learner can ask of the Resources, Prompts and Logs panels.

use mcpg_core::model::{CompletionReference, JsonObject, LoggingLevel};

/// A command of the Resources, Prompts or Logs panel
/// ([`crate::Command::Feature`]).
#[derive(Clone, Debug, PartialEq)]
pub enum FeatureCommand {
    /// `resources/list` and `resources/templates/list`, every page (again).
    ListResources,
    /// `prompts/list`, every page (again).
    ListPrompts,
    /// `resources/read` of `uri`; `from_link` when asked from a `resource_link` in a
    /// tool result (the panel then opens to show the exchange).
    Read {
        /// The resource.
        uri: String,
        /// Asked with **Read it** on a tool result's link.
        from_link: bool,
    },
    /// `completion/complete` for one argument of a prompt or a template, with the
    /// other arguments filled so far as its context.
    Complete {
        /// The prompt or the template.
        reference: CompletionReference,
        /// The argument's name.
        argument: String,
        /// What the learner typed so far.
        value: String,
        /// The other arguments' values.
        context: JsonObject,
    },
    /// Subscribe to (`on`) or unsubscribe from updates of `uri`.
    Subscribe {
        /// The resource.
        uri: String,
        /// Subscribe or unsubscribe.
        on: bool,
    },
    /// `prompts/get` with these arguments.
    GetPrompt {
        /// The prompt.
        name: String,
        /// Its arguments (strings).
        arguments: JsonObject,
    },
    /// Start the tool loop from the messages of the latest `prompts/get`.
    UsePrompt,
    /// Set the server's log level.
    SetLogLevel(LoggingLevel),
    /// Empty the Logs panel.
    ClearLogs,
    /// `skills/list`, every page (MCP Skills, 2026-07-28's extension).
    ListSkills,
    /// `resources/read` of every file the skill `name` lists, each checked against
    /// its size and SHA-256 digest.
    ReadSkill(String),
    /// Tell the model the skill's instructions (its verified `SKILL.md`) in the
    /// next loops (`on`), or stop.
    UseSkill {
        /// The skill.
        name: String,
        /// Use it, or not.
        on: bool,
    },
}
