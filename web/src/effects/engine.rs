//! The tool loop's code: `mcpg_page::host_engine` and everything only it reaches
//! (the loop, the mock model, the provider formats, the schema checker, the
//! Streamable HTTP machine) sit in the
//! split chunk of `components/later_parts.rs`, so the first tool list shows without them.
//! The driver asks for it when a command needs it (`Output::LoadEngine`); the page
//! also fetches it right after the first tool list, so a learner's first Step
//! rarely waits. A chunk that cannot be fetched becomes `Input::EngineFailed`: the
//! driver says so and the rest of the page keeps working.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

use mcpg_page::{EngineRef, Input};

use super::inbox;

/// What fetches the engine (`None`: its chunk could not be fetched).
pub type EngineLoader = fn() -> Pin<Box<dyn Future<Output = Option<EngineRef>>>>;

thread_local! {
    static LOADER: Cell<Option<EngineLoader>> = const { Cell::new(None) };
}

/// Registers what fetches the engine (the components' split chunk), at start.
pub fn set_loader(f: EngineLoader) {
    LOADER.with(|l| l.set(Some(f)));
}

/// Loads the engine and hands it to the driver (or tells it why not).
pub fn load() {
    let Some(loader) = LOADER.with(Cell::get) else {
        inbox::send(Input::EngineFailed(
            "the page registered no loader".to_owned(),
        ));
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let input = match loader().await {
            Some(engine) => Input::Engine(engine),
            None => Input::EngineFailed("its wasm chunk could not be fetched".to_owned()),
        };
        inbox::send(input);
    });
}
