//! What the panels show, as changes the shell applies in one place.

use mcpg_core::client::CallOutcome;
use mcpg_core::model::JsonObject;
use mcpg_loop_data::{PageRecord, Pitfalls, Progress, Provider, SchemaError, Step, Turn};
use serde_json::Value;

use crate::settings::{ModelChoice, Pin};

/// Where the page gets its MCP server from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// The demo server, running inside the driver.
    #[default]
    Demo,
    /// A stdio server the bridge starts, by config name.
    Bridge(String),
    /// A remote Streamable HTTP server through the bridge's relay, by config name.
    Relay(String),
    /// A Streamable HTTP URL, straight from the browser.
    Url(String),
}

impl Source {
    /// A short description for the header.
    pub fn describe(&self) -> String {
        match self {
            Source::Demo => "embedded demo server (in this page)".to_owned(),
            Source::Bridge(n) => format!("bridge server {n} (stdio)"),
            Source::Relay(n) => format!("remote {n} through the bridge's relay"),
            Source::Url(u) => format!("{u} (Streamable HTTP, direct)"),
        }
    }
}

/// Connection status.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Conn {
    /// Not connected.
    #[default]
    Idle,
    /// Negotiating.
    Connecting,
    /// Requests flow.
    Ready,
    /// Failed or closed, with why.
    Closed(String),
}

/// What the server said about itself (the Server panel).
#[derive(Clone, Debug, PartialEq)]
pub struct ServerInfo {
    /// `serverInfo.name`.
    pub name: String,
    /// `serverInfo.version`.
    pub version: String,
    /// `serverInfo.title`.
    pub title: Option<String>,
    /// The negotiated revision.
    pub protocol: String,
    /// "initialize handshake" or "stateless (server/discover)".
    pub generation: String,
    /// `capabilities`, pretty JSON.
    pub capabilities: String,
    /// `instructions`.
    pub instructions: Option<String>,
    /// How the page reaches it, and for HTTP why that transport (the Server panel).
    pub transport: String,
}

/// The latest `tools/call` and how it ended (the Result panel).
#[derive(Clone, Debug, PartialEq)]
pub struct CallView {
    /// Tool name.
    pub tool: String,
    /// Arguments sent.
    pub arguments: JsonObject,
    /// `None` while it runs.
    pub outcome: Option<CallOutcome>,
    /// `structuredContent` against `outputSchema`, when there was something to check.
    pub check: Option<Result<(), Vec<SchemaError>>>,
}

/// A plain-words notice above the panels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The message.
    pub text: String,
    /// A relay that reaches the same URL, to offer as the fix.
    pub relay: Option<String>,
    /// A URL the browser blocked: the bridge's advice for it is worked out when shown.
    pub blocked_url: Option<String>,
}

impl Notice {
    /// A notice that is only words.
    pub fn text(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            relay: None,
            blocked_url: None,
        }
    }
}

/// The wire log's counts: what the shell needs to lay out its window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogMeta {
    /// Rows kept.
    pub len: usize,
    /// Rows dropped because the log is bounded (oldest first).
    pub dropped: u64,
    /// Rows ever appended (changes on every append, even when `len` stays).
    pub appended: u64,
    /// JSON-RPC messages since the log was cleared (dropped ones included).
    pub frames: u64,
    /// Their bytes.
    pub bytes: u64,
    /// Diagnostics since the log was cleared.
    pub diags: u64,
    /// What the session recording (the export, the share link) left out.
    pub unrecorded: Unrecorded,
}

/// Wire messages the session recording left out because it reached its byte
/// ceiling ([`crate::RECORD_CEILING_BYTES`]; issue 26: a server that floods the page
/// must not grow its memory without end). The page says so where sessions are
/// shared and exported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Unrecorded {
    /// Messages left out (every one after the first that did not fit).
    pub messages: u64,
    /// Their bytes.
    pub bytes: u64,
}

/// A replayed shared session, as the banner describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayInfo {
    /// The kind of server it was recorded on.
    pub source: Source,
    /// Wire messages recorded.
    pub wire: usize,
    /// Steps recorded.
    pub steps: usize,
}

/// One change of what the page shows.
#[derive(Clone, Debug, PartialEq)]
pub enum ViewChange {
    /// The chosen server.
    Source(Source),
    /// Connection status.
    Conn(Conn),
    /// Server panel.
    Server(Option<Box<ServerInfo>>),
    /// Tools panel: every page of the latest listing.
    Pages(Vec<PageRecord>),
    /// The page's first `tools/list` (every page of it) ended, on whatever server:
    /// `listed` when it listed, else it failed. What the page put off so as not to
    /// delay that list may come now; on the embedded demo its time is a metric.
    FirstListing {
        /// The list came whole.
        listed: bool,
    },
    /// The wire log changed (read rows with [`crate::PageDriver::log`]).
    Log(LogMeta),
    /// The loop's steps.
    Steps(Vec<Step>),
    /// The step the next click performs.
    NextStep(Option<u8>),
    /// Whether a loop exists and is not over.
    LoopActive(bool),
    /// The model's final answer.
    Answer(Option<String>),
    /// Run mode is on.
    Running(bool),
    /// Result panel.
    Call(Option<Box<CallView>>),
    /// Progress of the call in flight.
    Progress(Option<Progress>),
    /// Show the Result panel (a call was sent).
    ShowResult,
    /// A request to a real model is in flight.
    ModelBusy(bool),
    /// The conversation so far.
    Turns(Vec<Turn>),
    /// Rounds of tool calls in this loop.
    Rounds(u32),
    /// A notice for the learner (`None`: hide it).
    Notice(Option<Notice>),
    /// The learner's message (set by a replay).
    Prompt(String),
    /// The model script (set by a replay).
    Script(Vec<Value>),
    /// The model API format (set by a replay).
    Provider(Provider),
    /// Who answers for the model.
    Model(ModelChoice),
    /// The host's mistakes as set (none: the careful host).
    Pitfalls(Pitfalls),
    /// A real model's settings for a provider.
    Llm {
        /// The provider.
        provider: Provider,
        /// Base URL and model name.
        settings: crate::settings::LlmSettings,
    },
    /// A real model's name for a provider (set by a replay; never its base URL).
    LlmModel {
        /// The provider.
        provider: Provider,
        /// The model name.
        model: String,
    },
    /// The pinned revision.
    Pin(Pin),
    /// The replay banner (`None`: not replaying).
    Replay(Option<ReplayInfo>),
    /// The Resources, Prompts or Logs panel.
    Feature(crate::features::view::FeatureChange),
    /// What the server asked the host on this connection, each with where it stands.
    Asks(Vec<crate::asks::AskView>),
    /// The roots the learner lets the server see.
    Roots(Vec<mcpg_loop_data::Root>),
    /// The server wants authorization (`None`: nothing waits for it).
    Auth(Option<crate::auth::AuthNeeded>),
    /// The MCP Apps views hosted now.
    Apps(Vec<crate::apps::AppView>),
}
