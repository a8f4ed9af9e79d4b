//! Who answers for the model (the mock, the learner, a real LLM). A real LLM's
//! settings are `llm_settings.rs`, split off the first load.

use leptos::prelude::*;

use crate::effects;
use crate::model_state::ModelChoice;
use crate::state::use_app;

/// `<option>`s from (value, label) pairs: one function for every selector of the
/// loop's controls, so the page carries one copy of this view code.
pub fn options(items: Vec<(&'static str, &'static str)>) -> impl IntoView {
    items
        .into_iter()
        .map(|(id, label)| view! { <option value=id>{label}</option> })
        .collect_view()
}

/// The model chooser.
#[component]
pub fn ModelBar() -> impl IntoView {
    let st = use_app();
    view! {
        <div class="provider-row">
            <label for="model-choice">"Who answers for the model"</label>
            <select id="model-choice" data-testid="model-select"
                prop:value=move || st.model.get().id()
                on:change=move |ev| effects::set_model(ModelChoice::from_id(&event_target_value(&ev)))>
                {options(ModelChoice::ALL.map(|c| (c.id(), c.label())).to_vec())}
            </select>
        </div>
    }
}
