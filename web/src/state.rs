//! The page's state, in one place: plain data in signals, provided to every
//! component by context. Components read it and call functions of
//! [`crate::effects`]. What the driver owns is a projection of it, written only by
//! `effects::apply` from the driver's view changes; the rest is the shell's own
//! (the bridge's offer, keys, which panel is open, the form).

use leptos::prelude::*;
use mcpg_core::model::{JsonObject, Tool};
use mcpg_host::Step;
use mcpg_host::tool_loop::{PageRecord, Progress};
use serde_json::Value;

pub use mcpg_page::{CallView, Conn, LogMeta, LogRow, Notice, Pin, ReplayInfo, ServerInfo, Source};

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
    /// Resources, templates, reads and subscriptions.
    Resources,
    /// Prompts and their messages.
    Prompts,
    /// The server's skills (MCP Skills).
    Skills,
    /// The server's log messages.
    Logs,
}

/// What the bridge offers (from `/api/servers`), when the page came from one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BridgeInfo {
    /// Where a hosted page's bridge is (`http://127.0.0.1:PORT`, from the link's
    /// fragment); `None` when the bridge served this page (same origin) or there is
    /// no bridge.
    pub base: Option<String>,
    /// The per-launch token from the page's link (fragment or query).
    pub token: Option<String>,
    /// stdio server names.
    pub servers: Vec<String>,
    /// Remote names and URLs.
    pub remotes: Vec<(String, String)>,
    /// Why the list could not be read.
    pub error: Option<String>,
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
    /// The wire log's counts (its rows stay in the driver; the view reads the slice
    /// it shows).
    pub log: RwSignal<LogMeta>,
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
    /// The mistakes the host makes on purpose (none: the careful host).
    pub pitfalls: RwSignal<mcpg_loop_data::Pitfalls>,
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
    pub replay: RwSignal<Option<ReplayInfo>>,
    /// The pinned protocol revision (auto by default).
    pub pin: RwSignal<Pin>,
    /// The Resources, Prompts and Logs panels.
    pub features: crate::feature_state::FeatureState,
    /// What the server asked the host on this connection.
    pub asks: RwSignal<Vec<mcpg_page::AskView>>,
    /// The roots the learner lets the server see.
    pub roots: RwSignal<Vec<mcpg_host::asks::Root>>,
    /// The server wants authorization (issue 15): its requests wait for a sign-in.
    pub auth: RwSignal<Option<mcpg_page::AuthNeeded>>,
    /// The MCP Apps views hosted now (issue 29).
    pub apps: RwSignal<Vec<mcpg_page::AppView>>,
    /// Whether the first screen's later parts (the loop's controls, the lessons, the
    /// picture, the share bar) may load: see `components::once_shown::start_later`.
    pub later_may_load: RwSignal<bool>,
}

impl AppState {
    /// Fresh state, connected to nothing yet.
    pub fn new() -> Self {
        AppState {
            source: RwSignal::new(Source::Demo),
            conn: RwSignal::new(Conn::Idle),
            server: RwSignal::new(None),
            pages: RwSignal::new(Vec::new()),
            log: RwSignal::new(LogMeta::default()),
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
            pitfalls: RwSignal::new(mcpg_loop_data::Pitfalls::NONE),
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
            pin: RwSignal::new(Pin::Auto),
            features: crate::feature_state::FeatureState::new(),
            asks: RwSignal::new(Vec::new()),
            roots: RwSignal::new(Vec::new()),
            auth: RwSignal::new(None),
            apps: RwSignal::new(Vec::new()),
            later_may_load: RwSignal::new(false),
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
