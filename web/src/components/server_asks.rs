//! "The server asks": nested in step 4 while the call waits, every question the
//! server sent the host on this connection, newest last, each with its answer.
//! Its code is a split chunk, fetched the first time a server asks.

use leptos::prelude::*;

use super::ask_card::AskCard;
use crate::state::use_app;

/// The questions, under a heading that says the direction has reversed.
#[component]
pub fn ServerAsks() -> impl IntoView {
    let st = use_app();
    view! {
        <section class="server-asks" data-testid="server-asks" aria-labelledby="asks-title">
            <h3 id="asks-title">"The server asks the host (inside step 4 while a call waits)"</h3>
            <p class="reversed" data-testid="asks-reversed">
                "The direction has reversed. Until now the host asked and the server answered; \
                 now the server sends the host a request of its own, usually while a tools/call \
                 waits in step 4. Nothing goes back until you answer."
            </p>
            <ol class="asks">
                <For each=move || st.asks.get() key=|a| (a.id, format!("{:?}{}{}{}{}", a.state, a.opened, a.completed, a.model_busy, a.draft.is_some())) let:ask>
                    <AskCard ask=ask/>
                </For>
            </ol>
        </section>
    }
}
