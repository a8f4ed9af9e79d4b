//! Decline and cancel, the two ways to answer an elicitation (form or URL) without
//! accepting it: each sends the spec's `ElicitResult` action and nothing else.

use leptos::prelude::*;
use mcpg_host::asks::{ElicitAction, Reply};

use crate::effects::asks::answer;

/// The Decline and Cancel buttons of elicitation `id`.
#[component]
pub fn ElicitRefuse(
    /// The question's number.
    id: u64,
) -> impl IntoView {
    view! {
        <button data-testid="elicit-decline"
            on:click=move |_| answer(id, Reply::Elicited(ElicitAction::Decline))>"Decline"</button>
        <button data-testid="elicit-cancel"
            on:click=move |_| answer(id, Reply::Elicited(ElicitAction::Cancel))>"Cancel"</button>
    }
}
