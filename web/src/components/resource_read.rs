//! The latest `resources/read`: the exchange, how it ended, and each item of its
//! contents; updates of a subscribed resource are marked as they arrive.

use leptos::prelude::*;

use super::exchange::Exchange;
use super::resource_contents::ResourceContentsView;
use crate::state::use_app;

/// The read shown in the Resources panel.
#[component]
pub fn ResourceRead() -> impl IntoView {
    let fs = use_app().features;
    move || {
        fs.read.get().map(|r| {
            let origin = if r.from_link {
                "Read it: the learner clicked a resource_link in a tool result, so the application (not the model) read it"
            } else {
                "Read by the learner's choice: the application decides which resources to read"
            };
            let updated = (r.updates > 0).then(|| {
                view! {
                    <span class="chip updated" data-testid="read-updated" role="status">
                        {format!("updated ×{}: read again after notifications/resources/updated", r.updates)}
                    </span>
                }
            });
            let body = match r.outcome {
                None => view! { <p class="muted" data-testid="read-status">"Reading…"</p> }.into_any(),
                Some(Err(e)) => view! {
                    <p class="hint bad" role="alert" data-testid="read-error">{e}</p>
                }
                .into_any(),
                Some(Ok(result)) => {
                    let n = result.contents.len();
                    let items = result
                        .contents
                        .into_iter()
                        .map(|c| view! { <ResourceContentsView contents=c/> })
                        .collect_view();
                    view! {
                        <p class="muted" data-testid="read-status">{format!("{n} item(s) in contents")}</p>
                        {items}
                    }
                    .into_any()
                }
            };
            view! {
                <section class="read" data-testid="resource-read" aria-label="The resource read">
                    <h3>"Read "<code data-testid="read-uri">{r.uri}</code>" "{updated}</h3>
                    <p class="hint">{origin}</p>
                    {body}
                    <Exchange method="resources/read" request=r.request response=r.response/>
                </section>
            }
        })
    }
}
