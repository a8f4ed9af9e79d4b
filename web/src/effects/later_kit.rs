//! The later parts: `mcpg_page_later::later_kit` and everything only it reaches
//! (the loop, the mock model, the provider formats, the schema checker, the
//! Streamable HTTP machine, the panels' code) sit in the split chunk of
//! `components/later_parts.rs`, so the first tool list shows without them. The
//! driver asks for them when a command needs them (`Output::LoadLater`); the page
//! also fetches them right after the first tool list, so a learner's first Step
//! rarely waits. A chunk that cannot be fetched becomes `Input::LaterFailed`: the
//! driver says so and the rest of the page keeps working.

use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;

use mcpg_page::{Input, LaterKit};

use super::inbox;

/// What fetches the later parts (`None`: their chunk could not be fetched).
pub type LaterLoader = fn() -> Pin<Box<dyn Future<Output = Option<LaterKit>>>>;

thread_local! {
    static LOADER: Cell<Option<LaterLoader>> = const { Cell::new(None) };
}

/// Registers what fetches the later parts (the components' split chunk), at start.
pub fn set_loader(f: LaterLoader) {
    LOADER.with(|l| l.set(Some(f)));
}

/// Loads the later parts and hands them to the driver (or tells it why not).
pub fn load() {
    let Some(loader) = LOADER.with(Cell::get) else {
        inbox::send(Input::LaterFailed(
            "the page registered no loader".to_owned(),
        ));
        super::link_chunk::prefetch_after_later();
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let input = match loader().await {
            Some(kit) => Input::Later(kit),
            None => Input::LaterFailed("its wasm chunk could not be fetched".to_owned()),
        };
        inbox::send(input);
        // The connections' code waited for this pack (see `link_chunk::prefetch`).
        super::link_chunk::prefetch_after_later();
    });
}
