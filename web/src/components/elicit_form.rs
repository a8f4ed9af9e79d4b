//! A form-mode elicitation: the server's message and a form built from
//! `requestedSchema` with the tool form's field components (formats, titled enums,
//! multi-select, defaults), then accept (the form's values, checked), decline or
//! cancel, each the spec's `ElicitResult`.

use leptos::prelude::*;
use mcpg_host::asks::{ElicitAction, Reply, elicit_content, elicit_defaults, elicit_fields};
use mcpg_host::form::{self, FieldError};
use serde_json::Value;

use super::elicit_refuse::ElicitRefuse;
use super::form_field::FormField;
use crate::effects::asks::answer;

/// One elicitation form.
#[component]
pub fn ElicitForm(
    /// The question's number.
    id: u64,
    /// The server's message.
    message: String,
    /// `requestedSchema`.
    schema: Value,
    /// Still waiting for an answer.
    waiting: bool,
) -> impl IntoView {
    let fields = elicit_fields(&schema);
    let values = RwSignal::new(form::initial_values(
        &fields,
        Some(&elicit_defaults(&schema)),
    ));
    let errors = RwSignal::new(Vec::<FieldError>::new());
    let inputs = fields
        .iter()
        .cloned()
        .map(|f| view! { <FormField field=f values=values errors=errors/> })
        .collect_view();
    // Kept in the reactive arena so the click handler is `Copy`, as `Show` needs.
    let stored = StoredValue::new((schema, fields));
    let accept = move |_| {
        let (content, problems) = stored.with_value(|(schema, fields)| {
            values.with_untracked(|v| elicit_content(schema, fields, v))
        });
        if problems.is_empty() {
            answer(id, Reply::Elicited(ElicitAction::Accept(content)));
        } else {
            errors.set(problems);
        }
    };
    view! {
        <div class="elicit-form" data-testid="elicit-form">
            <p class="ask-message" data-testid="ask-message">{message}</p>
            <fieldset class="form" disabled=move || !waiting>
                {inputs}
            </fieldset>
            <Show when=move || waiting>
                <div class="buttons">
                    <button class="primary" data-testid="elicit-accept" on:click=accept>"Accept and send"</button>
                    <ElicitRefuse id=id/>
                </div>
            </Show>
        </div>
    }
}
