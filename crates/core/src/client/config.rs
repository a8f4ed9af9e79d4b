//! Client configuration.

use std::time::Duration;

use crate::model::{Implementation, JsonObject};
use crate::version::ProtocolVersion;

/// Which generation the client may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenerationMode {
    /// Probe with `server/discover`; fall back to `initialize` when the server does not
    /// speak 2026-07-28 (the spec's advice for clients that reach both generations).
    Auto,
    /// Only the `initialize` handshake (2024-11-05 … 2025-11-25).
    Initialize,
    /// Only the stateless revision (2026-07-28).
    Stateless,
}

/// Everything a [`crate::client::Client`] needs to know up front.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// Sent as `clientInfo`.
    pub client_info: Implementation,
    /// `ClientCapabilities`, sent as JSON (e.g. `{"roots":{}}`). Server requests for
    /// capabilities not declared here are refused by the core.
    pub capabilities: JsonObject,
    /// Generation policy.
    pub mode: GenerationMode,
    /// Revisions the client speaks; the newest shared one is used.
    pub versions: Vec<ProtocolVersion>,
    /// Default timeout for a request (reset by progress notifications).
    pub request_timeout: Duration,
    /// How long the `server/discover` probe may take before falling back.
    pub probe_timeout: Duration,
    /// How long the host may take to answer a server-to-client request before the
    /// core answers it with an error.
    pub server_request_timeout: Duration,
    /// Upper bound on `tools/list` pages, against endless lists.
    pub max_list_pages: u32,
    /// Under 2026-07-28, open a `subscriptions/listen` stream once connected for the
    /// list changes the server declares (`tools`, `resources`, `prompts`
    /// `listChanged`): the only way that revision delivers those notifications.
    /// Resource subscriptions ride the same stream whatever this says.
    pub listen_for_list_changes: bool,
    /// How task-augmented calls are polled.
    pub task_timing: TaskTiming,
    /// Under 2026-07-28, speak the Tasks extension (`io.modelcontextprotocol/tasks`,
    /// SEP-2663): declare it in every request's capabilities and follow a
    /// `tools/call` the server answers with a task handle (`resultType: "task"`)
    /// until it ends, polling `tasks/get`. Off by default. Declared whether or not
    /// the answer readers (which carry the code that follows a task) are in yet:
    /// a handle that comes before them fails its call, saying so.
    pub tasks_extension: bool,
}

/// How the client polls a task (`tasks/get`, 2025-11-25 and the 2026-07-28 Tasks
/// extension alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskTiming {
    /// The interval when the server suggests none.
    pub default_poll: Duration,
    /// The shortest interval honoured: a server asking for 0 ms must not make the
    /// client spin.
    pub min_poll: Duration,
    /// The longest interval honoured, so a status change is seen in good time.
    pub max_poll: Duration,
    /// How long past the task's `ttl` the client keeps polling before giving up
    /// (the server's clock and ours differ; its cleanup is not instant).
    pub ttl_slack: Duration,
}

impl Default for TaskTiming {
    fn default() -> Self {
        TaskTiming {
            default_poll: Duration::from_secs(1),
            min_poll: Duration::from_millis(100),
            max_poll: Duration::from_secs(30),
            ttl_slack: Duration::from_secs(5),
        }
    }
}

impl TaskTiming {
    /// The interval to wait before the next `tasks/get`, from the server's hint.
    pub fn interval(&self, hint: Option<Duration>) -> Duration {
        hint.unwrap_or(self.default_poll)
            .clamp(self.min_poll, self.max_poll.max(self.min_poll))
    }
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            client_info: Implementation::new("mcp-playground", env!("CARGO_PKG_VERSION")),
            capabilities: JsonObject::new(),
            mode: GenerationMode::Auto,
            versions: ProtocolVersion::ALL.to_vec(),
            request_timeout: Duration::from_secs(60),
            probe_timeout: Duration::from_secs(5),
            server_request_timeout: Duration::from_secs(60),
            max_list_pages: 1000,
            listen_for_list_changes: false,
            task_timing: TaskTiming::default(),
            tasks_extension: false,
        }
    }
}

impl ClientConfig {
    /// Speaks `version` and nothing else: its generation's mode and only that
    /// revision (what `--protocol-version` and the page's revision chooser pin).
    pub fn pin_version(&mut self, version: ProtocolVersion) {
        self.mode = match version.generation() {
            crate::Generation::Initialize => GenerationMode::Initialize,
            crate::Generation::Stateless => GenerationMode::Stateless,
        };
        self.versions = vec![version];
    }

    /// The newest revision offered in the `initialize` handshake, if any.
    pub fn newest_initialize_version(&self) -> Option<ProtocolVersion> {
        self.versions
            .iter()
            .copied()
            .filter(|v| v.generation() == crate::Generation::Initialize)
            .max()
    }

    /// The newest stateless revision offered, if any.
    pub fn newest_stateless_version(&self) -> Option<ProtocolVersion> {
        self.versions
            .iter()
            .copied()
            .filter(|v| v.generation() == crate::Generation::Stateless)
            .max()
    }

    /// Whether the client declared capability `name` (e.g. `"sampling"`).
    pub fn declares(&self, name: &str) -> bool {
        self.capabilities.get(name).is_some_and(|v| !v.is_null())
    }
}
