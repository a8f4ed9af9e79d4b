//! Side effects, as named functions the components call. Everything that talks to a
//! server, a timer, storage, the clipboard or the URL lives here. The page's logic is
//! the sans-IO driver ([`mcpg_page::PageDriver`], behind `inbox`): these functions
//! turn clicks into its commands, and `shell` executes what it asks for.

pub mod app_frames;
mod app_post;
mod apply;
pub mod asks;
mod bridge;
mod bridge_addr;
mod bridge_list;
mod chunk_queue;
mod clock;
pub mod conn_headers;
pub mod demo_oauth;
mod demo_sse;
pub mod doctor;
mod download;
mod early_ws;
mod feature_sink;
pub mod features;
mod here;
mod http;
pub mod in_view;
mod inbox;
mod later_kit;
pub mod lessons;
mod link_chunk;
pub mod llm;
mod no_bridge;
pub mod oauth;
pub mod offline;
pub mod picture;
pub mod session_diff;
pub mod share;
mod shell;
pub mod stylesheet;
mod transports;
mod ws;

pub use bridge::{cors_advice, load_bridge, source_from_url};
pub use bridge_addr::take as take_bridge_address;
pub use early_ws::close_unclaimed as close_boot_socket;
pub use later_kit::set_loader as set_later_loader;

use mcpg_core::model::JsonObject;
use mcpg_host::provider::Provider;
use mcpg_page::{Command, LlmSettings, ModelChoice, Pin};
use serde_json::Value;

use crate::state::{AppState, Source};

/// Starts the shell (before anything is sent to the driver).
pub fn start(st: AppState) {
    shell::start(st);
}

/// Installs the writer of the Resources, Prompts and Logs panels' signals (from the
/// later chunk, see `feature_sink`); the changes that waited for it are written now.
pub fn set_feature_writer(write: feature_sink::FeatureApply) {
    if let Some(st) = shell::state() {
        feature_sink::set(st, write);
    }
}

/// Records on `<body data-loop-ready-ms>` when the loop's controls showed (printed
/// by the e2e run beside the first tool list).
pub fn mark_loop_ready() {
    clock::mark_body("data-loop-ready-ms");
}

/// Connects to `source`, replacing any current connection.
pub fn connect(source: Source) {
    inbox::command(Command::Connect(source));
}

/// Step mode: performs the loop's next step (starting a loop if none is running).
pub fn step() {
    inbox::command(Command::Step);
}

/// Run mode: runs the whole loop.
pub fn run_all() {
    inbox::command(Command::Run);
}

/// Stops run mode after the current step.
pub fn pause() {
    inbox::command(Command::Pause);
}

/// Clears the loop.
pub fn reset() {
    inbox::command(Command::Reset);
}

/// Cancels the call in flight.
pub fn cancel() {
    inbox::command(Command::Cancel);
}

/// Lists the tools again (Tools panel).
pub fn list_tools() {
    inbox::command(Command::ListTools);
}

/// The learner plays the model: `name` with `arguments` becomes step 3.
pub fn play_model(name: String, arguments: JsonObject) {
    inbox::command(Command::PlayCall { name, arguments });
}

/// The learner plays the model: `text` is its answer (step 3 or 6).
pub fn play_answer(text: String) {
    inbox::command(Command::PlayAnswer(text));
}

/// The learner's message changed.
pub fn set_prompt(text: String) {
    inbox::command(Command::SetPrompt(text));
}

/// The model API format changed.
pub fn set_provider(p: Provider) {
    inbox::command(Command::SetProvider(p));
}

/// The mistakes the host makes on purpose changed (a lesson's host switch).
pub fn set_pitfalls(p: mcpg_loop_data::Pitfalls) {
    inbox::command(Command::SetPitfalls(p));
}

/// Who answers for the model changed.
pub fn set_model(m: ModelChoice) {
    inbox::command(Command::SetModel(m));
}

/// A real model's base URL or name changed.
pub fn set_llm(provider: Provider, settings: LlmSettings) {
    inbox::command(Command::SetLlm { provider, settings });
}

/// Sets the model script (already validated); new loops play it before the mock.
pub fn set_script(turns: Vec<Value>) {
    inbox::command(Command::SetScript(turns));
}

/// Pins a protocol revision (or auto); a live connection reconnects.
pub fn set_pin(pin: Pin) {
    inbox::command(Command::Pin(pin));
}

/// Shows a notice the page worked out itself.
pub fn show_notice(text: String) {
    inbox::command(Command::ShowNotice(text));
}

/// Hides the notice.
pub fn dismiss_notice() {
    inbox::command(Command::DismissNotice);
}

/// Rows `from..to` of the wire log as kept (oldest is 0).
pub fn log_rows(from: usize, to: usize) -> Vec<mcpg_page::LogRow> {
    inbox::read(|d| d.log().rows(from, to)).unwrap_or_default()
}

/// Downloads the whole kept wire log as `mcp-wire-log.json` (with the dropped count).
pub fn export_log() -> Result<(), String> {
    let json = inbox::read(|d| d.log().to_json()).unwrap_or_default();
    let text = serde_json::to_string_pretty(&json).unwrap_or_default();
    download::download("mcp-wire-log.json", &text)
}

/// Lists the tools `times` times in a row: the e2e scale test fills the wire log this
/// way (reached as `window.wasmBindings.mcpg_list_tools_times`).
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn mcpg_list_tools_times(times: u32) {
    inbox::command(Command::ListToolsTimes(times));
}

/// Copies `text` to the clipboard.
pub fn copy(text: &str) {
    if let Some(w) = web_sys::window() {
        // The promise settles later; nothing useful to do if it fails.
        let _ = w.navigator().clipboard().write_text(text);
    }
}
