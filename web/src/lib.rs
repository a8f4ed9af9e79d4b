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

/// Room for the wasm split to move read-only data into the chunks.
///
/// `wasm_split_cli_support` moves each piece of `.rodata` into the module whose code
/// uses it (the first load then carries only the first screen's strings and
/// tables), but only when the moved layout fits in the input's `.rodata`: pieces
/// two modules share are copied and alignment adds padding, so the layout comes
/// out longer (722 bytes in early December 2026; 8 KB of room no longer sufficed
/// once the core's model errors became typed, nor 16 KB once the first load
/// opened a bridge's socket itself) and the tool then keeps all of
/// `.rodata` in the main module (`cargo xtask dist` then fails, naming this room).
/// Nothing refers to these bytes, so the linker keeps them only for `#[used]`, the
/// split gives them to no module, and the layout has room again: they cost nothing
/// in any file the page loads (and if the split ever falls back, 32 KB of equal
/// bytes compress to a few bytes).
/// Not zeros: a zeroed static would go to `.bss`, not `.rodata`.
#[used]
static SPLIT_ROOM: [u8; 32768] = [0x5A; 32768];

/// Entry point: mounts the app on `<body>`.
#[wasm_bindgen(start)]
pub fn start() {
    leptos::mount::mount_to_body(components::app::App);
    // The service worker is registered by the later parts' second pack
    // (`components/later_parts.rs`): its code is not in the first load.
}
