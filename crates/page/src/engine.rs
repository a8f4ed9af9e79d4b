//! The host's work that the first screen does not need, behind one trait object.
//!
//! Listing the tools needs only the core's `Client` and the demo server. Running the
//! loop needs much more: the reshaping into five provider formats and its schema
//! adaptation, the mock model, the model script, a real model's request and reply,
//! the structured-output check; and a server over Streamable HTTP needs the HTTP
//! machine ([`crate::HttpPort`]); the Resources, Prompts and Logs panels' code
//! ([`crate::features`]) and the embedded demo's answers to tool calls, reads,
//! prompts and completions are asked for only after the first tool list too. The
//! driver reaches all of it through [`Engine`], and the only value of that trait,
//! [`crate::host_engine`] (`host_engine.rs`), is handed in by the shell
//! ([`crate::Input::Engine`]) when the driver asks ([`crate::Output::LoadEngine`]).
//! In the browser the shell gets it from a split wasm chunk, so that code is not
//! part of the first load; natively a test shell hands it in at once.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use mcpg_core::client::Event;
use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::JsonObject;
use mcpg_core::model::{CallToolResult, Tool};
use mcpg_host::ToolLoop;
use mcpg_host::asks::{Reply, Sampled};
use mcpg_host::provider::{ModelTurn, Provider, RequestOptions, Turn};
use mcpg_host::schema::SchemaError;
use mcpg_host::script::Script;
use serde_json::Value;

use crate::features::{FeatureCommand, FeatureCtx};
use crate::http_port::HttpPort;
use crate::later::Later;
use crate::settings::LlmSettings;

/// A real model's request as the driver sends it (body and URL) and shows it in
/// step 3 (`head`: the request line and headers, the key as its masked hint only).
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// Request line and headers as shown.
    pub head: Value,
    /// URL to POST to.
    pub url: String,
    /// Headers without the key.
    pub headers: Vec<(&'static str, String)>,
    /// The header that carries the key, if the provider uses one.
    pub key_header: Option<&'static str>,
    /// The JSON body.
    pub body: String,
}

/// The host's loop work, as the driver calls it (one method per use).
pub trait Engine {
    /// A new loop for `prompt` in `provider`'s format, or one whose conversation
    /// starts with `seed` (a prompt's messages) when it is a valid one.
    fn start(
        &self,
        prompt: &str,
        seed: Option<Vec<Turn>>,
        provider: Provider,
        opts: RequestOptions,
    ) -> ToolLoop;
    /// The script `values` describe (validated when set; a bad one is no script).
    fn script(&self, values: &[Value]) -> Script;
    /// The loop's played model turns, as a script's JSON.
    fn played(&self, run: &ToolLoop) -> Vec<Value>;
    /// Feeds one core event to the loop.
    fn on_event(&self, run: &mut ToolLoop, ev: &Event);
    /// Step 2.
    fn reshape(&self, run: &mut ToolLoop);
    /// A model turn the learner wrote (`why` explains it).
    fn replied(&self, run: &mut ToolLoop, turn: ModelTurn, why: &str);
    /// The mock model's turn.
    fn ask_mock(&self, run: &mut ToolLoop);
    /// The script's next turn, else the mock's; whether the script answered.
    fn ask_script(&self, run: &mut ToolLoop, script: &mut Script) -> bool;
    /// A real model's request in `provider`'s format for the loop's next turn.
    fn ask(
        &self,
        run: &mut ToolLoop,
        provider: Provider,
        settings: &LlmSettings,
        hint: Option<String>,
    ) -> Asked;
    /// A real model's HTTP answer.
    fn http_reply(&self, run: &mut ToolLoop, status: u16, body: &str, head: &Value);
    /// A real model out of reach.
    fn unreachable(&self, run: &mut ToolLoop, detail: &str, head: &Value, origin: &str);
    /// A Streamable HTTP machine for `url` (32 MiB bodies and events).
    fn http(&self, url: &str) -> Box<dyn HttpPort>;
    /// The result's `structuredContent` checked against the tool's `outputSchema`.
    fn check(&self, tool: &Tool, result: &CallToolResult) -> Option<Result<(), Vec<SchemaError>>>;
    /// The JSON-RPC result (or the spec's error) for the learner's answer.
    fn answer_result(&self, reply: &Reply) -> Result<Value, RpcError>;
    /// `inputResponses` for a 2026-07-28 retry (a rejection left out).
    fn input_responses(&self, replies: &[(String, Reply)]) -> JsonObject;
    /// Whether a URL may be offered and opened (http(s) with a host).
    fn url_ok(&self, url: &str) -> bool;
    /// The URL elicitations of a `-32042` error: each one's params, or why it is
    /// not offered.
    fn url_elicitations(&self, error: &RpcError) -> Vec<Result<Value, String>>;
    /// A real model's request for a sampling request's `params`, or why not.
    fn sample(
        &self,
        provider: Provider,
        settings: &LlmSettings,
        params: &Value,
    ) -> Result<Asked, String>;
    /// A real model's HTTP answer to that request, as the message to approve.
    fn sampled(
        &self,
        provider: Provider,
        params: &Value,
        status: u16,
        body: &str,
    ) -> Result<Sampled, String>;
    /// The embedded demo's answers to tool calls, reads, prompts and completions
    /// (none is asked before the engine is in: calls go through the loop, and the
    /// panels' commands wait for the engine).
    fn demo_handlers(&self) -> &'static dyn mcpg_demo::Handlers;
    /// The client's readers of tool call, resource, prompt and completion answers
    /// (the driver's clients are made without them; only the loop, which the engine
    /// runs, calls tools, and only the panels' commands, which wait for the engine,
    /// ask for the rest).
    fn answer_readers(&self) -> mcpg_core::client::AnswerReaders;
    /// A command of the Resources, Prompts and Logs panels.
    fn feature_command(&self, ctx: &mut FeatureCtx<'_>, c: FeatureCommand);
    /// One core event of those panels.
    fn feature_event(&self, ctx: &mut FeatureCtx<'_>, ev: Event);
    /// A new connection: those panels show nothing of the old one.
    fn reset_features(&self, ctx: &mut FeatureCtx<'_>);
    /// A `resources/read` request was sent (`raw`, shown with the read).
    fn read_sent(&self, ctx: &mut FeatureCtx<'_>, raw: &Arc<str>);
    /// A new connection is ready: list again what the learner listed.
    fn relist_features(&self, ctx: &mut FeatureCtx<'_>);
    /// The driver's own work that needs the engine, run on `driver` (the
    /// [`crate::PageDriver`], given as `dyn Any` because this module cannot name it:
    /// the driver holds an [`EngineRef`]). Its code is called only from here, so in
    /// the page it comes with the engine's chunk; see `later.rs`.
    fn later(&self, driver: &mut dyn Any, work: Later);
}

/// The one [`Engine`], as the shell hands it in (compared by address).
#[derive(Clone, Copy)]
pub struct EngineRef(pub &'static dyn Engine);

impl fmt::Debug for EngineRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EngineRef")
    }
}

impl PartialEq for EngineRef {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::addr_eq(self.0, other.0)
    }
}
