//! One resource template: a field per variable of its RFC 6570 `uriTemplate` (with
//! the server's completions as the learner types), the URI the values make, and
//! **Read** for it.

use leptos::prelude::*;
use mcpg_core::model::{CompletionReference, ResourceTemplate};
use mcpg_core::validate::{expand_uri_template, template_variables};

use super::completing_input::{CompletingInput, Values};
use crate::effects::features;

/// One template and its form.
#[component]
pub fn TemplateForm(
    /// The template, as listed.
    template: ResourceTemplate,
    /// Its position in the list (unique ids).
    index: usize,
) -> impl IntoView {
    let uri_template = template.uri_template.clone();
    // A template that is not RFC 6570 gets no fields, and its error where the URI goes.
    let vars = template_variables(&uri_template).unwrap_or_default();
    let values: Values = RwSignal::new(vars.iter().map(|v| (v.clone(), String::new())).collect());
    let fields = vars
        .into_iter()
        .map(|v| {
            let reference = CompletionReference::Resource {
                uri: uri_template.clone(),
            };
            let id = format!("template-{index}-{v}");
            view! {
                <CompletingInput reference=reference name=v description=None required=true
                    values=values id=id/>
            }
        })
        .collect_view();
    let t2 = uri_template.clone();
    // An empty field is an undefined variable: its part is left out.
    let uri = Memo::new(move |_| {
        values.with(|v| {
            expand_uri_template(&t2, |name| {
                v.iter()
                    .find(|(n, x)| n == name && !x.is_empty())
                    .map(|(_, x)| x.as_str())
            })
        })
    });
    let ok = move || uri.with(Result::is_ok);
    let heading = template
        .title
        .clone()
        .unwrap_or_else(|| template.name.clone());
    view! {
        <li class="template" data-testid="template">
            <p><strong>{heading}</strong>" "<code data-testid="template-uri">{uri_template}</code></p>
            {template.description.map(|d| view! { <p class="muted">{d}</p> })}
            <form class="fields" on:submit=move |ev| {
                ev.prevent_default();
                if let Ok(u) = uri.get_untracked() {
                    features::read(u, false);
                }
            }>
                {fields}
                <p class="muted">"URI: "<code data-testid="template-expanded">{move || uri.get().unwrap_or_else(|e| format!("not an RFC 6570 template: {e}"))}</code></p>
                <button type="submit" data-testid="template-read" disabled=move || !ok()>"Read"</button>
            </form>
        </li>
    }
}
