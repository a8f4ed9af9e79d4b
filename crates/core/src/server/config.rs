//! Server configuration: who the server is, what it declares, how it pages.

use crate::model::{Implementation, JsonObject};
use crate::version::ProtocolVersion;

/// What a [`crate::server::Server`] announces and how it pages.
///
/// The capabilities the server declares follow from these fields (`tools` always;
/// `resources`, `prompts`, `completions`, `logging`, `tasks` only when set), so it never
/// declares a feature it does not answer, nor answers one it did not declare.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// `serverInfo`.
    pub info: Implementation,
    /// Instructions for the model.
    pub instructions: Option<String>,
    /// Capabilities besides the ones the server fills in itself (e.g. `experimental`).
    pub capabilities: JsonObject,
    /// Whether to declare `tools.listChanged` and send the notification.
    pub tools_list_changed: bool,
    /// The `resources` capability: `None` when the server offers no resources.
    pub resources: Option<ResourceFeatures>,
    /// The `prompts` capability: `None` when the server offers no prompts.
    pub prompts: Option<PromptFeatures>,
    /// Whether to declare `completions` (answers `completion/complete`).
    pub completions: bool,
    /// Whether to declare `logging` (answers `logging/setLevel`, sends `notifications/message`).
    pub logging: bool,
    /// Revisions spoken (both generations by default).
    pub versions: Vec<ProtocolVersion>,
    /// Items per page of every `*/list` answer (tools, resources, templates, prompts).
    pub page_size: usize,
    /// Whether to declare the Skills extension ([`SKILLS_EXTENSION`], SEP-2640)
    /// under 2026-07-28 and answer `skills/list` and `skills/get` from
    /// [`super::Server::set_skills`] (the skills' files are resources).
    pub skills: bool,
    /// With [`ServerConfig::skills`], whether to declare `directoryRead: true` in
    /// the extension's settings and answer `resources/directory/read` for every
    /// directory of the skills' files (the skill roots and the folders below them).
    pub skills_directory_read: bool,
    /// Whether to declare `tasks` (`list`, `cancel` and task-augmented
    /// `tools/call`) under 2025-11-25, the one revision with tasks in its core,
    /// and hand `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` to the
    /// application ([`super::ServerEvent::TaskRequest`]). The application runs the
    /// tasks; the server checks each call against its tool's
    /// `execution.taskSupport`. Under 2026-07-28 the same switch declares the
    /// Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) in
    /// `server/discover`, lists a tool that runs only as a task to the requests
    /// that declare it and hands on `tasks/get`, `tasks/update` and `tasks/cancel`.
    pub tasks: bool,
}

/// The Skills extension's identifier, under `capabilities.extensions`.
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// The optional parts of the `resources` capability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResourceFeatures {
    /// `resources.subscribe`: `resources/subscribe` (or, under 2026-07-28,
    /// `resourceSubscriptions` on `subscriptions/listen`) and `notifications/resources/updated`.
    pub subscribe: bool,
    /// `resources.listChanged`: `notifications/resources/list_changed`.
    pub list_changed: bool,
}

/// The optional part of the `prompts` capability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PromptFeatures {
    /// `prompts.listChanged`: `notifications/prompts/list_changed`.
    pub list_changed: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            info: Implementation::new("mcpg-server", env!("CARGO_PKG_VERSION")),
            instructions: None,
            capabilities: JsonObject::new(),
            tools_list_changed: true,
            resources: None,
            prompts: None,
            completions: false,
            logging: false,
            versions: ProtocolVersion::ALL.to_vec(),
            page_size: 50,
            skills: false,
            skills_directory_read: false,
            tasks: false,
        }
    }
}
