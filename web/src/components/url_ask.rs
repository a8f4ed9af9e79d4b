//! A URL elicitation: the full URL and, apart from it, the domain the learner is
//! sent to, in Unicode and beside it in punycode when the two differ (issue 26: a
//! look-alike such as `аррle.com` in Cyrillic shows its `xn--` form). It opens only
//! when the learner clicks, in a new tab without a way back (`noopener`); then the
//! learner says it is done, declines or cancels. A URL that breaks the shared rule
//! (`mcpg_safe_url`) is shown as refused, with no button to open it.

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
    /// Its host, shown apart.
    domain: String,
    /// Still waiting for an answer.
    waiting: bool,
    /// The learner opened it.
    opened: bool,
    /// The server said it is complete.
    completed: bool,
) -> impl IntoView {
    let checked = mcpg_safe_url::check(&url);
    let (domain, ascii) = match &checked {
        Ok(c) => {
            let (unicode, ascii) = (c.host_unicode(), c.host_ascii());
            let shown = (unicode != ascii).then_some(ascii);
            (unicode, shown)
        }
        Err(_) => (domain, None),
    };
    let refusal = checked
        .err()
        .map(|r| format!("Refused: {r} ({}). The page will not open it.", r.rule()));
    let openable = refusal.is_none();
    let open_label = format!("Open {domain} in a new tab");
    view! {
        <div class="url-ask" data-testid="url-ask">
            <p class="ask-message" data-testid="ask-message">{message}</p>
            <p>"Domain: "<strong data-testid="url-domain">{domain}</strong>
                {ascii.map(|a| view! { " (punycode: "<code data-testid="url-domain-ascii">{a}</code>")" })}
            </p>
            {refusal.map(|r| view! { <p class="bad" data-testid="url-refused">{r}</p> })}
            <p>"Full URL: "<code data-testid="url-full">{url}</code></p>
            {opened.then(|| view! { <p data-testid="url-opened">"You opened it."</p> })}
            {completed.then(|| view! {
                <p data-testid="url-completed">"The server says it is complete (notifications/elicitation/complete)."</p>
            })}
            <Show when=move || waiting>
                <div class="buttons">
                    {openable.then(|| view! {
                        <button class="primary" data-testid="url-open" on:click=move |_| open_url(id)>{open_label.clone()}</button>
                    })}
                    <button data-testid="elicit-accept"
                        on:click=move |_| answer(id, Reply::Elicited(ElicitAction::Accept(JsonObject::new())))>"Done"</button>
                    <ElicitRefuse id=id/>
                </div>
            </Show>
        </div>
    }
}
