//! Mounting a lazy part of the page the first time it is shown.
//!
//! A Leptos `#[lazy]` function's code sits in a wasm chunk that the browser
//! fetches the first time the function runs (see `crates/xtask`, `dist/split.rs`),
//! so what the first screen does not show leaves the first load.

use std::future::Future;

use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// Mounts what `load` gives the first time `shown` is true, and keeps it.
pub fn once_shown<F>(
    shown: impl Fn() -> bool + Send + Sync + 'static,
    load: fn() -> F,
) -> impl IntoView
where
    F: Future<Output = AnyView> + 'static,
{
    let opened = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || shown());
    move || {
        opened.get().then(|| {
            // `Suspend` wants a `Send` future; the lazy loader is not (wasm is
            // single-threaded), hence the wrapper.
            view! { <Suspense fallback=|| ()>{Suspend::new(SendWrapper::new(load()))}</Suspense> }
        })
    }
}
