//! The MCP Playground page: a Leptos (client-side rendering) app that walks the
//! learner through the MCP tool loop, step by step, against the embedded demo
//! server, a bridge server, or a Streamable HTTP URL.
//!
//! - [`state`]: every signal, in one place, provided by context.
//! - [`effects`]: side effects as named functions (connections, timers, the loop).
//! - [`components`]: one component per file; they render state and call effects.
//! - [`model_state`]: who answers for the model, and a real model's settings.
//! - [`presenter`]: presenter mode's state (on, which step it shows, the diagram).
//!
//! Nothing a server sends is ever parsed as HTML: every piece of untrusted text
//! becomes a text node (no `inner_html` anywhere).

pub mod components;
pub mod effects;
pub mod feature_state;
pub mod model_state;
pub mod presenter;
pub mod state;

use wasm_bindgen::prelude::wasm_bindgen;

/// Entry point: mounts the app on `<body>`.
#[wasm_bindgen(start)]
pub fn start() {
    leptos::mount::mount_to_body(components::app::App);
    effects::offline::register_service_worker();
}
