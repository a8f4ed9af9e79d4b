//! A plain-words notice, e.g. when the browser blocks a direct URL (CORS), with the
//! bridge's relay offered as the fix.

use leptos::prelude::*;

use crate::effects;
use crate::state::{Source, use_app};

/// The notice, when there is one.
#[component]
pub fn NoticeBar() -> impl IntoView {
    let st = use_app();
    view! {
        <Show when=move || st.notice.with(Option::is_some)>
            <div class="notice" role="alert" data-testid="notice">
                <p>{move || st.notice.with(|n| n.as_ref().map(|n| n.text.clone()).unwrap_or_default())}</p>
                <Show when=move || st.notice.with(|n| n.as_ref().is_some_and(|n| n.relay.is_some()))>
                    <button data-testid="use-relay" on:click=move |_| {
                        if let Some(name) = st.notice.with_untracked(|n| n.as_ref().and_then(|n| n.relay.clone())) {
                            effects::connect(st, Source::Relay(name));
                        }
                    }>"Connect through the bridge's relay"</button>
                </Show>
                <button class="quiet" on:click=move |_| st.notice.set(None)>"Dismiss"</button>
            </div>
        </Show>
    }
}
