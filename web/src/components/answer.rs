//! The model's final answer, once the loop is over.

use leptos::prelude::*;

use super::long_text::LongText;
use crate::state::use_app;

/// The answer box.
#[component]
pub fn Answer() -> impl IntoView {
    let st = use_app();
    view! {
        <Show when=move || st.answer.with(Option::is_some)>
            <div class="answer" data-testid="answer" role="status">
                <h3>"The model's answer"</h3>
                <p>{move || view! { <LongText text=st.answer.get().unwrap_or_default() inline=true/> }}</p>
            </div>
        </Show>
    }
}
