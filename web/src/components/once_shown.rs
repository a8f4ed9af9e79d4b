//! Mounting a lazy part of the page the first time it is shown.
//!
//! A split function's code (`wasm_split`, which Leptos' `#[lazy]` also uses) sits
//! in a wasm chunk that the browser fetches the first time the function runs (see
//! `crates/xtask`, `dist/split.rs`), so what the first screen does not show leaves
//! the first load.

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use leptos::prelude::*;
use leptos::wasm_split::SplitLoaderError;
use send_wrapper::SendWrapper;

use crate::state::AppState;

/// What a lazy part's loader gives: its view, or the failure to fetch its chunk
/// (the split functions are `fallible`: without it a failed fetch panics, and a
/// panic aborts the whole page).
pub type Loaded = Result<AnyView, SplitLoaderError>;

/// Mounts what `load` gives the first time `shown` is true, and keeps it. `load`
/// is a split function, or a closure that calls one with arguments.
pub fn once_shown<F, L>(shown: impl Fn() -> bool + Send + Sync + 'static, load: L) -> impl IntoView
where
    F: Future<Output = Loaded> + 'static,
    L: Fn() -> F + Copy + Send + Sync + 'static,
{
    // Boxed here so that the suspense below is one type for every lazy part: a
    // generic one was compiled once per part, some kilobytes in the first load.
    mount(
        Box::new(shown),
        SendWrapper::new(Box::new(move || -> LoadFuture { Box::pin(load()) })),
    )
}

/// A lazy part's loader, started.
type LoadFuture = Pin<Box<dyn Future<Output = Loaded>>>;

/// [`once_shown`] for one type.
fn mount(
    shown: Box<dyn Fn() -> bool + Send + Sync>,
    load: SendWrapper<Box<dyn Fn() -> LoadFuture>>,
) -> AnyView {
    let opened = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || shown());
    // Bumped by "Try again": the loader runs anew (a failed fetch is not kept, so
    // the chunk is asked for again).
    let attempt = RwSignal::new(0u32);
    let load = std::sync::Arc::new(load);
    (move || {
        attempt.track();
        opened.get().then(|| {
            // `Suspend` wants a `Send` future; the lazy loader is not (wasm is
            // single-threaded), hence the wrapper.
            let started = SendWrapper::new(load());
            view! {
                <Suspense fallback=|| ()>
                    {Suspend::new(async move { started.await.unwrap_or_else(|_| unloaded(attempt)) })}
                </Suspense>
            }
        })
    })
    .into_any()
}

/// Shown in place of a part whose chunk could not be fetched (the network dropped
/// before the service worker kept it): the rest of the page goes on working, and
/// the part can be asked for again.
fn unloaded(attempt: RwSignal<u32>) -> AnyView {
    view! {
        <p class="notice" role="alert" data-testid="chunk-failed">
            "This part of the page could not be loaded (the network may have dropped). \
             Everything else keeps working. "
            <button data-testid="chunk-retry" on:click=move |_| attempt.update(|n| *n += 1)>
                "Try again"
            </button>
        </p>
    }
    .into_any()
}

/// Lets the first screen's later parts load ([`later`]) once they no longer
/// delay the first tool list: a moment after the page started, when the embedded
/// demo's list (which needs only the first load) is already shown; but on a page
/// that opened a server of its own (`own_server`), once that server's first
/// listing ended or its connection closed (`effects::apply`). The later parts'
/// code is compiled on the same cores a bridge server starts on: ~240 chunks that
/// nothing in that first listing needs (measured on the 2-core development
/// machine, issue #33: the Python SDK's start took 1.16 s beside them, 0.77–0.95 s
/// without), or after [`OWN_SERVER_WAIT_MS`] at the latest.
pub fn start_later(st: AppState, own_server: bool) {
    let wait_ms = if own_server { OWN_SERVER_WAIT_MS } else { 0 };
    set_timeout(
        move || st.later_may_load.set(true),
        Duration::from_millis(wait_ms),
    );
}

/// How long a page opened on a server of its own holds its later parts back for
/// that server's first listing: a server slower than this (an `npx` that
/// downloads first, a remote that does not answer) must not keep the loop's
/// controls and the lessons away until its handshake times out.
const OWN_SERVER_WAIT_MS: u64 = 3_000;

/// Whether the first screen's later parts may load now (see [`start_later`]).
pub fn later() -> impl Fn() -> bool + Send + Sync + Copy + 'static {
    let later = use_context::<AppState>().map(|st| st.later_may_load);
    move || later.is_none_or(|l| l.get())
}
