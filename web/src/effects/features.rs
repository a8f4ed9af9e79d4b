//! The Resources, Prompts and Logs panels' commands: each a
//! [`mcpg_page::FeatureCommand`] for the driver, which decides what goes on the wire.

use mcpg_core::model::{CompletionReference, JsonObject, LoggingLevel};
use mcpg_page::{Command, FeatureCommand};

use super::inbox;

fn send(c: FeatureCommand) {
    inbox::command(Command::Feature(c));
}

/// Lists resources and templates (every page).
pub fn list_resources() {
    send(FeatureCommand::ListResources);
}

/// Lists skills (every page).
pub fn list_skills() {
    send(FeatureCommand::ListSkills);
}

/// Reads and verifies every file of skill `name`.
pub fn read_skill(name: String) {
    send(FeatureCommand::ReadSkill(name));
}

/// Uses skill `name` in the next loops, or stops.
pub fn use_skill(name: String, on: bool) {
    send(FeatureCommand::UseSkill { name, on });
}

/// Lists prompts (every page).
pub fn list_prompts() {
    send(FeatureCommand::ListPrompts);
}

/// Reads `uri`; `from_link` for **Read it** on a tool result's `resource_link`.
pub fn read(uri: String, from_link: bool) {
    send(FeatureCommand::Read { uri, from_link });
}

/// Asks for completions of `argument` of `reference`, typed so far as `value`.
pub fn complete(
    reference: CompletionReference,
    argument: String,
    value: String,
    context: JsonObject,
) {
    send(FeatureCommand::Complete {
        reference,
        argument,
        value,
        context,
    });
}

/// Subscribes to `uri` (or unsubscribes).
pub fn subscribe(uri: String, on: bool) {
    send(FeatureCommand::Subscribe { uri, on });
}

/// `prompts/get`.
pub fn get_prompt(name: String, arguments: JsonObject) {
    send(FeatureCommand::GetPrompt { name, arguments });
}

/// Starts the loop from the latest prompt's messages.
pub fn use_prompt() {
    send(FeatureCommand::UsePrompt);
}

/// Sets the server's log level.
pub fn set_log_level(level: LoggingLevel) {
    send(FeatureCommand::SetLogLevel(level));
}

/// Empties the Logs panel.
pub fn clear_logs() {
    send(FeatureCommand::ClearLogs);
}
