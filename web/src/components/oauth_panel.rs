//! "The server wants authorization": the sign-in and the OAuth flow as a lesson
//! (issue 15). A split chunk, mounted the first time a server answers 401: the
//! first load carries none of `mcpg_auth`'s code. Nothing is fetched or opened
//! before the learner's click ("Sign in", then "Open the sign-in page"); a
//! refused token with a refresh token is refreshed without one.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use mcpg_auth::ClientIdentity;
use mcpg_page::{AuthNeeded, HttpTarget, Pin};

use super::demo_consent::DemoConsent;
use super::oauth_card::OAuthCard;
use super::once_shown::Loaded;
use crate::effects::conn_headers::key_of;
use crate::effects::demo_oauth;
use crate::effects::oauth::{self, OAuthView, Start, Status};
use crate::state::{AppState, use_app};

/// The panel (lazy).
#[wasm_split(mcpg_oauth, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn oauth_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <OAuthPanel/> }.into_any())
}

/// The page's own name when it registers itself.
const CLIENT_NAME: &str = "MCP Playground";

fn start_of(st: AppState, n: &AuthNeeded, via_bridge: bool) -> Start {
    let resource_url = match &n.target {
        HttpTarget::Url(u) => u.clone(),
        HttpTarget::Relay(name) => st.bridge.with_untracked(|b| {
            b.remotes
                .iter()
                .find(|(r, _)| r == name)
                .map(|(_, u)| u.clone())
                .unwrap_or_default()
        }),
    };
    let revision = match st.pin.get_untracked() {
        Pin::Revision(v) => v.as_str(),
        Pin::Auto => "2025-11-25",
    };
    Start {
        key: key_of(&n.target),
        resource_url,
        revision: revision.to_owned(),
        status: n.status,
        www_authenticate: n.www_authenticate.clone(),
        via_bridge: via_bridge.then(|| oauth::bridge_fetch(st)).flatten(),
    }
}

fn auto() -> ClientIdentity {
    ClientIdentity::Auto {
        metadata_url: None,
        client_name: CLIENT_NAME.to_owned(),
    }
}

#[component]
fn OAuthPanel() -> impl IntoView {
    let st = use_app();
    let view = OAuthView::new();
    // Whether the flow's requests go through the bridge (chosen after a CORS failure).
    let via = RwSignal::new(false);
    // An expired token is refreshed as soon as the server refuses it: no click,
    // nothing opened (the refresh goes to the token endpoint only).
    Effect::new(move |_| {
        if let Some(n) = st.auth.get()
            && n.status == 401
            && oauth::can_refresh(&key_of(&n.target))
        {
            oauth::begin(view, start_of(st, &n, via.get_untracked()), auto());
        }
    });
    let sign_in = move |identity: ClientIdentity| {
        if let Some(n) = st.auth.get_untracked() {
            oauth::begin(view, start_of(st, &n, via.get_untracked()), identity);
        }
    };
    let needed = move || {
        st.auth.get().map(|n| {
            let what = if n.status == 403 {
                "The server refused the call for want of a scope (HTTP 403 insufficient_scope): signing in again asks for more (a step-up)."
            } else {
                "The server answered HTTP 401: it wants authorization. Its requests wait until you sign in."
            };
            let www = n.www_authenticate.unwrap_or_else(|| "(no WWW-Authenticate header)".to_owned());
            view! {
                <p data-testid="auth-needed">{what}</p>
                <p class="explain">"WWW-Authenticate: "<code data-testid="auth-challenge">{www}</code></p>
                <div class="controls">
                    <button type="button" data-testid="sign-in" on:click=move |_| sign_in(auto())>"Sign in"</button>
                    <button type="button" class="quiet" data-testid="auth-give-up" on:click=move |_| oauth::give_up(view)>"Cancel"</button>
                </div>
            }
        })
    };
    let client_id = RwSignal::new(String::new());
    let client_secret = RwSignal::new(String::new());
    let status = move || {
        match view.status.get() {
        Status::Idle => view! { <p data-testid="oauth-status">"Not signed in."</p> }.into_any(),
        Status::Working => view! { <p data-testid="oauth-status">"Talking to the authorization server…"</p> }.into_any(),
        Status::Authorize(url) if demo_oauth::is_in_page(&url) => {
            view! { <DemoConsent url=url view=view/> }.into_any()
        }
        Status::Authorize(url) => {
            // Only a URL the rule lets through is ever a link (a `javascript:` href
            // would run here on a click).
            let link = oauth::refused(&url).is_none().then(|| url.clone());
            view! {
            <p data-testid="oauth-status">"Your browser now goes to the authorization server to sign in and consent; it comes back to this page's oauth-callback.html."</p>
            <p class="explain">"Authorization URL: "<code data-testid="oauth-authorize-url">{url}</code></p>
            <button type="button" data-testid="oauth-open" on:click=move |_| oauth::open_sign_in(view)>"Open the sign-in page"</button>
            // The window opens without an opener (so its pages cannot reach this tab),
            // and then the browser cannot say whether a popup blocker stopped it: the
            // same URL as a link, for that case.
            {link.map(|href| view! {
                <p class="explain">"No window? A popup blocker may have stopped it: "
                    <a data-testid="oauth-open-link" href=href target="_blank" rel="noopener noreferrer">"open the sign-in page in a new tab"</a>"."</p>
            })}
            }.into_any()
        }
        Status::Authorized { scope } => view! {
            <p data-testid="oauth-status" class="ok">{format!("Signed in{}. The held requests were sent again with the token (kept in memory only, never shown).", scope.map(|s| format!(" (scope: {s})")).unwrap_or_default())}</p>
        }.into_any(),
        Status::NeedsClientId => view! {
            <p data-testid="oauth-status">"The authorization server offers no way to register this page (no client ID metadata documents, no dynamic registration). Enter a client ID registered there by hand, with this redirect URI: "<code>{oauth::redirect_uri()}</code></p>
            <label>"Client ID"<input type="text" data-testid="oauth-client-id" spellcheck="false" on:input=move |ev| client_id.set(event_target_value(&ev))/></label>
            <label>"Client secret (optional)"<input type="password" autocomplete="off" data-testid="oauth-client-secret" on:input=move |ev| client_secret.set(event_target_value(&ev))/></label>
            <button type="button" data-testid="oauth-use-client" on:click=move |_| {
                let secret = client_secret.get_untracked();
                sign_in(ClientIdentity::PreRegistered {
                    client_id: client_id.get_untracked().trim().to_owned(),
                    client_secret: (!secret.is_empty()).then_some(secret),
                });
            }>"Use this client ID"</button>
        }.into_any(),
        Status::Failed { text, cors } => {
            let bridge = cors && oauth::bridge_fetch(st).is_some();
            let advice = cors.then_some(if bridge {
                "The authorization server seems to refuse requests from a web page (CORS). The bridge can make them for the page: it is not a browser."
            } else {
                "The authorization server seems to refuse requests from a web page (CORS). Run the page from `mcpg serve` and sign in through its bridge, or sign in with `mcpg auth login` and pass the token as a header."
            });
            view! {
                <p data-testid="oauth-status" class="bad" role="alert">{format!("Sign-in stopped: {text}")}</p>
                {advice.map(|a| view! { <p class="explain" data-testid="oauth-cors">{a}</p> })}
                {bridge.then(|| view! {
                    <button type="button" data-testid="oauth-via-bridge" on:click=move |_| {
                        via.set(true);
                        sign_in(auto());
                    }>"Sign in through the bridge"</button>
                })}
            }.into_any()
        }
    }
    };
    view! {
        <section class="panel oauth" data-testid="oauth-panel" aria-labelledby="oauth-title">
            <h2 id="oauth-title">"Authorization (OAuth 2.1)"</h2>
            {needed}
            <label class="oauth-step-mode">
                <input type="checkbox" data-testid="oauth-step-mode"
                    prop:checked=move || view.step_mode.get()
                    on:change=move |ev| view.step_mode.set(event_target_checked(&ev))/>
                " Stop between exchanges (step mode)"
            </label>
            {status}
            <Show when=move || view.paused.get()>
                <button type="button" data-testid="oauth-next" on:click=move |_| oauth::next(view)>"Next exchange"</button>
            </Show>
            <ol class="steps oauth-cards" data-testid="oauth-cards" aria-live="polite">
                {move || view.cards.get().into_iter().enumerate().map(|(i, x)| view! { <OAuthCard number=i + 1 exchange=x/> }).collect_view()}
            </ol>
        </section>
    }
}
