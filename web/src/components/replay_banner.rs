//! The banner of a replayed session: it says nothing touches the network, and offers
//! "Run it live", which names where it will connect and asks before connecting.
//! Its code is a split function ([`replay_banner`]), fetched the first time a
//! session is replayed: the first tool list never needs it.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use super::once_shown::Loaded;
use crate::effects;
use crate::state::use_app;

/// The banner (lazy).
#[wasm_split(mcpg_replay_banner, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn replay_banner() -> Loaded {
    Ok(view! { <ReplayBanner/> }.into_any())
}

/// Shown while a shared session is replayed.
#[component]
pub fn ReplayBanner() -> impl IntoView {
    let st = use_app();
    let confirming = RwSignal::new(false);
    let target = move || {
        st.replay
            .with(|r| r.as_ref().map(|r| r.source.describe()).unwrap_or_default())
    };
    let summary = move || {
        st.replay.with(|r| {
            r.as_ref().map_or(String::new(), |r| {
                format!(
                    "Replay of a shared session recorded on the {}: {} wire messages, {} recorded step(s). Step through it as usual: the recording answers for the server and the model, and nothing touches the network.",
                    r.source.describe(),
                    r.wire,
                    r.steps
                )
            })
        })
    };
    view! {
        <Show when=move || st.replay.with(Option::is_some)>
            <div class="notice replay" role="status" data-testid="replay-banner">
                <p>{summary}</p>
                <Show when=move || !confirming.get()
                    fallback=move || view! {
                        <p data-testid="run-live-target">
                            "Run it live: this connects to the " {target} ", and runs the same message with the same model script. Connect?"
                        </p>
                        <button class="primary" data-testid="run-live-confirm" on:click=move |_| {
                            confirming.set(false);
                            effects::share::run_live(st);
                        }>"Connect"</button>
                        <button class="quiet" data-testid="run-live-cancel"
                            on:click=move |_| confirming.set(false)>"Cancel"</button>
                    }>
                    <button data-testid="run-live" on:click=move |_| confirming.set(true)>"Run it live"</button>
                </Show>
            </div>
        </Show>
    }
}
