//! Side effects, as named functions the components call. Everything that talks to a
//! server, a timer, the clipboard or the URL lives here; components only render
//! [`crate::state::AppState`] and call these.

mod bridge;
mod clock;
mod http;
pub mod llm;
mod memory;
pub mod replay;
pub mod session;
pub mod share;
pub mod sse;
mod ws;

pub use bridge::{load_bridge, source_from_url};

use leptos::prelude::*;
use mcpg_core::model::JsonObject;

use crate::state::{AppState, Source};

/// Connects to `source`, replacing any current connection.
pub fn connect(st: AppState, source: Source) {
    session::open(st, source);
}

/// Step mode: performs the loop's next step (starting a loop if none is running).
pub fn step() {
    session::with_session(None, session::Session::step);
}

/// Run mode: runs the whole loop.
pub fn run_all() {
    session::with_session(None, session::Session::run_all);
}

/// Stops run mode after the current step.
pub fn pause(st: AppState) {
    st.running.set(false);
}

/// Clears the loop.
pub fn reset() {
    session::with_session(None, session::Session::reset);
}

/// Cancels the call in flight.
pub fn cancel() {
    session::with_session(None, session::Session::cancel);
}

/// Lists the tools again (Tools panel).
pub fn list_tools() {
    session::with_session(None, session::Session::list_tools);
}

/// The learner plays the model: `name` with `arguments` becomes step 3.
pub fn play_model(name: String, arguments: JsonObject) {
    session::with_session(None, |s| s.play_model(name, arguments));
}

/// The learner plays the model: `text` is its answer (step 3 or 6).
pub fn play_answer(text: String) {
    session::with_session(None, |s| s.play_answer(text));
}

/// Copies `text` to the clipboard.
pub fn copy(text: &str) {
    if let Some(w) = web_sys::window() {
        // The promise settles later; nothing useful to do if it fails.
        let _ = w.navigator().clipboard().write_text(text);
    }
}
