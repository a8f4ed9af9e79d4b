//! The consent screen of the demo's authorization server, which runs inside the
//! page (`mcpg_demo_auth`): what a sign-in window would show, here in the panel,
//! because the server has no address a window could open. Approving or denying
//! hands the flow the redirect the browser would have followed.

use leptos::prelude::*;

use crate::effects::demo_oauth;
use crate::effects::oauth::{self, OAuthView};

/// The consent screen for the authorization URL `url`.
#[component]
pub fn DemoConsent(
    /// The authorization URL the flow built.
    url: String,
    /// The sign-in's signals.
    view: OAuthView,
) -> impl IntoView {
    let screen = demo_oauth::screen(&url);
    view! {
        <p data-testid="oauth-status">"The authorization server is the demo's, played inside this page: its sign-in page is below, not in a new window. A real server's opens in your browser and comes back to this page's oauth-callback.html."</p>
        <p class="explain">"Authorization URL: "<code data-testid="oauth-authorize-url">{url}</code></p>
        {match screen {
            Ok(s) => view! {
                <div class="consent" data-testid="demo-consent" role="group" aria-labelledby="demo-consent-title">
                    <h3 id="demo-consent-title">"auth.demo-oauth.invalid: sign in and consent"</h3>
                    <p>"You are signed in as the learner. "<strong data-testid="demo-consent-client">{s.client_name}</strong>" asks for:"</p>
                    <ul>
                        <li>"scope "<code data-testid="demo-consent-scope">{s.scope}</code></li>
                        <li>"on the resource "<code>{s.resource}</code></li>
                    </ul>
                    <p class="explain">"After your answer the browser goes back to "<code>{s.redirect_uri}</code>"."</p>
                    <div class="controls">
                        <button type="button" data-testid="demo-consent-approve" on:click=move |_| oauth::consent_in_page(view, true)>"Approve"</button>
                        <button type="button" class="quiet" data-testid="demo-consent-deny" on:click=move |_| oauth::consent_in_page(view, false)>"Deny"</button>
                    </div>
                </div>
            }.into_any(),
            Err(e) => view! {
                <p class="bad" role="alert" data-testid="demo-consent-refused">{format!("The authorization server refuses this request: {e}.")}</p>
            }.into_any(),
        }}
    }
}
