//! A text field for one argument of a prompt or a template that asks the server
//! for completions (`completion/complete`) as the learner types, with the other
//! fields' values as context, and offers them as buttons.

use leptos::prelude::*;
use mcpg_core::model::{CompletionReference, JsonObject};
use serde_json::Value;

use crate::effects::features;
use crate::state::use_app;

/// The fields' values by name (one form's).
pub type Values = RwSignal<Vec<(String, String)>>;

/// `name`'s value in `values`.
pub fn value_of(values: Values, name: &str) -> String {
    values.with(|v| {
        v.iter()
            .find(|(n, _)| n == name)
            .map(|(_, x)| x.clone())
            .unwrap_or_default()
    })
}

/// Sets `name`'s value in `values`.
pub fn set_value(values: Values, name: &str, value: String) {
    values.update(|v| match v.iter_mut().find(|(n, _)| n == name) {
        Some((_, x)) => *x = value,
        None => v.push((name.to_owned(), value)),
    });
}

/// The other filled fields, as `completion/complete`'s `context.arguments`.
fn context(values: Values, name: &str) -> JsonObject {
    values.with(|v| {
        v.iter()
            .filter(|(n, x)| n != name && !x.is_empty())
            .map(|(n, x)| (n.clone(), Value::from(x.clone())))
            .collect()
    })
}

/// One argument's field with the server's suggestions.
#[component]
pub fn CompletingInput(
    /// The prompt or template the argument belongs to.
    reference: CompletionReference,
    /// The argument's name.
    name: String,
    /// Its description, if any.
    description: Option<String>,
    /// Whether the prompt requires it.
    required: bool,
    /// The form's values.
    values: Values,
    /// A unique id for the field.
    id: String,
) -> impl IntoView {
    let fs = use_app().features;
    let (r1, n1) = (reference.clone(), name.clone());
    let ask = move || {
        let value = value_of(values, &n1);
        features::complete(r1.clone(), n1.clone(), value, context(values, &n1));
    };
    let ask2 = ask.clone();
    let (r2, n2) = (reference, name.clone());
    let n3 = name.clone();
    let suggestions = move || {
        let c = fs
            .completion
            .get()
            .filter(|c| c.reference == r2 && c.argument == n2)?;
        let n = n2.clone();
        Some(match c.outcome {
            None => view! { <p class="muted">"Asking the server…"</p> }.into_any(),
            Some(Err(e)) => {
                view! { <p class="hint bad" data-testid="completion-error">{e}</p> }.into_any()
            }
            Some(Ok(r)) => {
                let more = match (r.total, r.has_more) {
                    (Some(t), _) => format!("{} of {t} suggestion(s)", r.values.len()),
                    (None, Some(true)) => format!("{} suggestion(s), and more", r.values.len()),
                    _ => format!("{} suggestion(s)", r.values.len()),
                };
                let buttons = r
                    .values
                    .into_iter()
                    .take(20)
                    .map(|v| {
                        let (n, pick) = (n.clone(), v.clone());
                        view! {
                            <li><button type="button" class="quiet" data-testid="completion-option"
                                on:click=move |_| set_value(values, &n, pick.clone())>{v}</button></li>
                        }
                    })
                    .collect_view();
                view! {
                    <p class="muted" data-testid="completion-count">{more}</p>
                    <ul class="chips" aria-label=format!("Suggestions for {n}")>{buttons}</ul>
                }
                .into_any()
            }
        })
    };
    let label = if required {
        format!("{name} (required)")
    } else {
        name.clone()
    };
    view! {
        <div class="field">
            <label for=id.clone()>{label}</label>
            <input id=id type="text" autocomplete="off" data-testid="argument-input" data-name=name.clone()
                prop:value=move || value_of(values, &n3)
                on:focus=move |_| ask()
                on:input=move |ev| {
                    set_value(values, &name, event_target_value(&ev));
                    ask2();
                }/>
            {description.map(|d| view! { <p class="field-desc">{d}</p> })}
            {suggestions}
        </div>
    }
}
