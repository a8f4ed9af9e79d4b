//! "The server asks": every question the server sent the host on this connection,
//! newest last, each with its answer. A question asked while a loop's call waited
//! is shown nested in that call's step 4 ([`StepAsks`]), and stays there in the
//! record after the call ends; one asked outside any call (`roots/list` right
//! after connecting) is shown under the steps ([`ServerAsks`]). Their code is a
//! split chunk, fetched the first time a server asks.

use leptos::prelude::*;
use mcpg_page::{AskPlace, AskView};

use super::ask_card::AskCard;
use crate::state::use_app;

/// Said above the questions, wherever they are (one string: a chunk's strings stay
/// in the first load).
const REVERSED: &str = "The direction has reversed: the server sends the host a request of its \
     own, and nothing goes back until you answer.";

/// The sections' heading.
const TITLE: &str = "The server asks the host";

/// What changes a card's look, so `For` redraws it (the id alone does not).
fn card_key(a: &AskView) -> (u64, String) {
    let look = format!(
        "{:?}{}{}{}{}",
        a.state,
        a.opened,
        a.completed,
        a.model_busy,
        a.draft.is_some()
    );
    (a.id, look)
}

/// The questions shown at `place`, as cards.
fn cards(place: AskPlace) -> impl IntoView {
    let st = use_app();
    let each = move || {
        st.asks
            .get()
            .into_iter()
            .filter(|a| a.place == place)
            .collect::<Vec<_>>()
    };
    view! {
        <ol class="asks">
            <For each=each key=card_key let:ask>
                <AskCard ask=ask/>
            </For>
        </ol>
    }
}

/// The questions asked outside any call, under a heading that says the direction
/// has reversed.
#[component]
pub fn ServerAsks() -> impl IntoView {
    let st = use_app();
    let any = move || {
        st.asks
            .with(|a| a.iter().any(|a| a.place == AskPlace::Connection))
    };
    view! {
        <Show when=any fallback=|| ()>
        <section class="server-asks" aria-label=TITLE data-testid="server-asks">
            <h3>{TITLE}</h3>
            <p class="reversed" data-testid="asks-reversed">{REVERSED}</p>
            {cards(AskPlace::Connection)}
        </section>
        </Show>
    }
}

/// The questions asked while the call of the step 4 at `index` (in the loop's
/// steps) waited, nested in that step's card.
#[component]
pub fn StepAsks(
    /// The step's index in the loop's steps.
    index: usize,
) -> impl IntoView {
    view! {
        <section class="server-asks nested" data-testid="step-asks" aria-label=TITLE>
            <h4>{TITLE}</h4>
            <p class="reversed" data-testid="asks-reversed">{REVERSED}</p>
            {cards(AskPlace::Step(index))}
        </section>
    }
}
