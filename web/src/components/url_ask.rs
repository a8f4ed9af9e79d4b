//! A URL elicitation: the full URL and, apart from it, the domain the learner is
//! sent to, in Unicode and beside it in punycode when the two differ (issue 26: a
//! look-alike such as `аррle.com` in Cyrillic shows its `xn--` form). The host read
//! both with the one URL rule (`mcpg_safe_url`) and refused a URL that breaks it, so
//! every URL shown here may be opened. It opens only when the learner clicks, in a
//! new tab without a way back (`noopener`); then the learner says it is done,
//! declines or cancels.

use leptos::prelude::*;
use mcpg_core::model::JsonObject;
use mcpg_host::asks::{ElicitAction, Reply};

use super::elicit_refuse::ElicitRefuse;
use crate::effects::asks::{answer, open_url};

/// One URL elicitation.
#[component]
pub fn UrlAsk(
    /// The question's number.
    id: u64,
    /// The server's message.
    message: String,
    /// The URL exactly as sent.
    url: String,
    /// Its host as it goes on the wire (punycode for an international name).
    domain: String,
    /// The same host in Unicode.
    domain_unicode: String,
    /// Still waiting for an answer.
    waiting: bool,
    /// The learner opened it.
    opened: bool,
    /// The server said it is complete.
    completed: bool,
) -> impl IntoView {
    let open_label = format!("Open {domain_unicode} in a new tab");
    let ascii = (domain != domain_unicode).then_some(domain);
    view! {
        <div class="url-ask" data-testid="url-ask">
            <p class="ask-message" data-testid="ask-message">{message}</p>
            <p>"Domain: "<strong data-testid="url-domain">{domain_unicode}</strong>
                {ascii.map(|a| view! { " (punycode: "<code data-testid="url-domain-ascii">{a}</code>")" })}
            </p>
            <p>"Full URL: "<code data-testid="url-full">{url}</code></p>
            {opened.then(|| view! { <p data-testid="url-opened">"You opened it."</p> })}
            {completed.then(|| view! {
                <p data-testid="url-completed">"The server says it is complete (notifications/elicitation/complete)."</p>
            })}
            <Show when=move || waiting>
                <div class="buttons">
                    <button class="primary" data-testid="url-open" on:click=move |_| open_url(id)>{open_label.clone()}</button>
                    <button data-testid="elicit-accept"
                        on:click=move |_| answer(id, Reply::Elicited(ElicitAction::Accept(JsonObject::new())))>"Done"</button>
                    <ElicitRefuse id=id/>
                </div>
            </Show>
        </div>
    }
}
