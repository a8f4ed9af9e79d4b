//! The page's state, in one place: plain data in signals, provided to every
//! component by context. Components read it and call functions of
//! [`crate::effects`]; only effects write it.

use std::sync::Arc;

use leptos::prelude::*;
use mcpg_core::client::CallOutcome;
use mcpg_core::model::{JsonObject, Tool};
use mcpg_host::Step;
use mcpg_host::schema::SchemaError;
use mcpg_host::tool_loop::{PageRecord, Progress};
use serde_json::Value;

/// Where the page gets its MCP server from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// The demo server, running inside the page.
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Conn {
    /// Not connected.
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
}

/// One row of the wire log.
#[derive(Clone, Debug, PartialEq)]
pub enum LogRow {
    /// A JSON-RPC frame.
    Wire {
        /// Row number.
        seq: u32,
        /// Sent by the page.
        sent: bool,
        /// Milliseconds since the connection started.
        at_ms: f64,
        /// Bytes.
        size: usize,
        /// "tools/list", "result #3", "error #4"…
        summary: String,
        /// The exact text.
        raw: Arc<str>,
    },
    /// A finding of the core.
    Diag {
        /// Row number.
        seq: u32,
        /// "error", "warning", "info".
        severity: String,
        /// Rule id.
        rule: String,
        /// Words.
        message: String,
    },
    /// A line the server wrote to stderr (bridge servers).
    Stderr {
        /// Row number.
        seq: u32,
        /// The line.
        line: String,
    },
    /// Something about the connection (spawned, exited, closed…).
    Note {
        /// Row number.
        seq: u32,
        /// Words.
        text: String,
    },
}

impl LogRow {
    /// The row number (the list's key).
    pub fn seq(&self) -> u32 {
        match self {
            LogRow::Wire { seq, .. }
            | LogRow::Diag { seq, .. }
            | LogRow::Stderr { seq, .. }
            | LogRow::Note { seq, .. } => *seq,
        }
    }
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

/// The panels on the right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tab {
    /// Tools of every page.
    Tools,
    /// The generated form.
    Form,
    /// The latest result.
    Result,
    /// Server info.
    Server,
    /// Every frame.
    Wire,
}

/// What the bridge offers (from `/api/servers`), when the page came from one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BridgeInfo {
    /// The per-launch token from the page's URL.
    pub token: Option<String>,
    /// stdio server names.
    pub servers: Vec<String>,
    /// Remote names and URLs.
    pub remotes: Vec<(String, String)>,
    /// Why the list could not be read.
    pub error: Option<String>,
}

/// A plain-words notice above the panels (e.g. a CORS block and what to do).
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// The message.
    pub text: String,
    /// A relay that reaches the same URL, to offer as the fix.
    pub relay: Option<String>,
    /// A URL the browser blocked: the bridge's advice for it is worked out when shown.
    pub blocked_url: Option<String>,
}

/// Every signal of the page.
#[derive(Clone, Copy, Debug)]
pub struct AppState {
    /// The chosen server.
    pub source: RwSignal<Source>,
    /// Connection status.
    pub conn: RwSignal<Conn>,
    /// Server panel.
    pub server: RwSignal<Option<ServerInfo>>,
    /// Tools panel: every page of the latest listing.
    pub pages: RwSignal<Vec<PageRecord>>,
    /// Wire log.
    pub log: RwSignal<Vec<LogRow>>,
    /// The loop's steps.
    pub steps: RwSignal<Vec<Step>>,
    /// The step the next click performs (`None`: the loop is over or not started).
    pub next_step: RwSignal<Option<u8>>,
    /// Whether a loop exists and is not over.
    pub loop_active: RwSignal<bool>,
    /// The model's final answer.
    pub answer: RwSignal<Option<String>>,
    /// Run mode is on.
    pub running: RwSignal<bool>,
    /// Result panel.
    pub call: RwSignal<Option<CallView>>,
    /// Progress of the call in flight.
    pub progress: RwSignal<Option<Progress>>,
    /// The learner's message.
    pub prompt: RwSignal<String>,
    /// The tool in the form.
    pub form_tool: RwSignal<Option<Tool>>,
    /// Arguments to start the form from (the model's, when the learner takes over).
    pub form_seed: RwSignal<Option<JsonObject>>,
    /// The panel shown on the right.
    pub tab: RwSignal<Tab>,
    /// The bridge's offer.
    pub bridge: RwSignal<BridgeInfo>,
    /// A notice for the learner.
    pub notice: RwSignal<Option<Notice>>,
    /// The model API format the host speaks (steps 2, 3 and 6).
    pub provider: RwSignal<mcpg_host::provider::Provider>,
    /// Who answers for the model: the mock, the learner, or a real LLM.
    pub model: RwSignal<crate::model_state::ModelChoice>,
    /// A real model's base URL and name, per provider (in `Provider::ALL` order).
    pub llm: RwSignal<Vec<crate::model_state::LlmSettings>>,
    /// API keys, per provider. Read only to build a request's headers: never shown,
    /// logged, put in a step, a link or an export.
    pub api_keys: RwSignal<Vec<String>>,
    /// Where the keys are kept besides memory.
    pub key_keep: RwSignal<crate::model_state::KeyKeep>,
    /// A request to the real model is in flight.
    pub model_busy: RwSignal<bool>,
    /// The conversation so far, as the model is shown it.
    pub turns: RwSignal<Vec<mcpg_host::provider::Turn>>,
    /// Rounds of tool calls in the current loop.
    pub rounds: RwSignal<u32>,
    /// The model script: turns played instead of the mock (see `mcpg_host::script`).
    pub script: RwSignal<Vec<Value>>,
    /// The shared session being replayed (no network), when the page opened a link
    /// or a file.
    pub replay: RwSignal<Option<mcpg_session::Session>>,
}

impl AppState {
    /// Fresh state, connected to nothing yet.
    pub fn new() -> Self {
        AppState {
            source: RwSignal::new(Source::Demo),
            conn: RwSignal::new(Conn::Idle),
            server: RwSignal::new(None),
            pages: RwSignal::new(Vec::new()),
            log: RwSignal::new(Vec::new()),
            steps: RwSignal::new(Vec::new()),
            next_step: RwSignal::new(Some(1)),
            loop_active: RwSignal::new(false),
            answer: RwSignal::new(None),
            running: RwSignal::new(false),
            call: RwSignal::new(None),
            progress: RwSignal::new(None),
            prompt: RwSignal::new("What's the weather in Austin?".to_owned()),
            form_tool: RwSignal::new(None),
            form_seed: RwSignal::new(None),
            tab: RwSignal::new(Tab::Tools),
            bridge: RwSignal::new(BridgeInfo::default()),
            notice: RwSignal::new(None),
            provider: RwSignal::new(mcpg_host::provider::Provider::Anthropic),
            model: RwSignal::new(crate::model_state::ModelChoice::Mock),
            llm: RwSignal::new(
                mcpg_host::provider::Provider::ALL
                    .into_iter()
                    .map(crate::model_state::LlmSettings::default_for)
                    .collect(),
            ),
            api_keys: RwSignal::new(vec![String::new(); 5]),
            key_keep: RwSignal::new(crate::model_state::KeyKeep::Nowhere),
            model_busy: RwSignal::new(false),
            turns: RwSignal::new(Vec::new()),
            rounds: RwSignal::new(0),
            script: RwSignal::new(Vec::new()),
            replay: RwSignal::new(None),
        }
    }

    /// Every tool of every page, in order.
    pub fn all_tools(&self) -> Vec<Tool> {
        self.pages
            .with(|p| p.iter().flat_map(|p| p.tools.iter().cloned()).collect())
    }
}

impl Default for AppState {
    fn default() -> Self {
        Self::new()
    }
}

/// The page's state, from context.
pub fn use_app() -> AppState {
    use_context::<AppState>().unwrap_or_default()
}

/// Pretty JSON for display (member order kept).
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}
