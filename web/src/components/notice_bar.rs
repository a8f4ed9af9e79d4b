//! A plain-words notice, e.g. when the browser blocks a direct URL (CORS), with the
//! bridge's relay offered as the fix.

use leptos::prelude::*;

use crate::effects;
use crate::state::{Source, use_app};

/// The notice, when there is one.
#[component]
pub fn NoticeBar() -> impl IntoView {
    let st = use_app();
    // Reactive on the bridge info too, so advice about a blocked URL appears as soon
    // as the bridge's list of remotes has loaded.
    let advice = move || {
        let url = st
            .notice
            .with(|n| n.as_ref().and_then(|n| n.blocked_url.clone()))?;
        Some(st.bridge.with(|b| effects::cors_advice(&url, b)))
    };
    let relay = move || {
        st.notice
            .with(|n| n.as_ref().and_then(|n| n.relay.clone()))
            .or_else(|| advice().and_then(|(_, r)| r))
    };
    let text = move || {
        let base = st
            .notice
            .with(|n| n.as_ref().map(|n| n.text.clone()).unwrap_or_default());
        match advice() {
            Some((a, _)) => format!("{base} {a}"),
            None => base,
        }
    };
    // Memos, not `<Show>`: each `<Show>` is its own generic code in the first load,
    // and a memo re-renders its part only when the answer changes, as `<Show>` does.
    let shown = Memo::new(move |_| st.notice.with(Option::is_some));
    let relayable = Memo::new(move |_| relay().is_some());
    move || {
        shown.get().then(|| {
            view! {
                <div class="notice" role="alert" data-testid="notice">
                    <p>{text}</p>
                    {move || relayable.get().then(|| view! {
                        <button data-testid="use-relay" on:click=move |_| {
                            if let Some(name) = relay() {
                                effects::connect(Source::Relay(name));
                            }
                        }>"Connect through the bridge's relay"</button>
                    })}
                    <button class="quiet" on:click=move |_| effects::dismiss_notice()>"Dismiss"</button>
                </div>
            }
        })
    }
}
