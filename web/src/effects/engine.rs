//! The tool loop's code: `mcpg_page::host_engine` and everything only it reaches
//! (the loop, the mock model, the provider formats, the schema checker) sit in a
//! split wasm chunk (`wasm_split`, `fallible`), so the first tool list shows
//! without them. The driver asks for it when a command needs it
//! (`Output::LoadEngine`); the page also fetches it right after the first tool list,
//! so a learner's first Step rarely waits. A chunk that cannot be fetched becomes
//! `Input::EngineFailed`: the driver says so and the rest of the page keeps working.

use leptos::wasm_split::{SplitLoaderError, wasm_split};
use mcpg_page::{EngineRef, Input};

use super::inbox;

/// Loads the engine and hands it to the driver (or tells it why not).
pub fn load() {
    wasm_bindgen_futures::spawn_local(async {
        let input = match engine().await {
            Ok(engine) => Input::Engine(engine),
            Err(_) => Input::EngineFailed("its wasm chunk could not be fetched".to_owned()),
        };
        inbox::send(input);
    });
}

#[wasm_split(mcpg_engine, wasm_split_path = ::leptos::wasm_split, fallible)]
fn engine() -> Result<EngineRef, SplitLoaderError> {
    Ok(mcpg_page::host_engine())
}
