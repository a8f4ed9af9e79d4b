//! Drives `mcpg_auth::AuthFlow` for the page's HTTP connection, sans-IO style: the
//! flow decides, this moves its requests through `fetch` and its events into
//! signals. The token goes to `conn_headers` (added to the connection's requests by
//! the shell) and nowhere else; the driver only hears "resume" or "give up".

use std::cell::RefCell;

use leptos::prelude::*;
use mcpg_auth::{
    AuthConfig, AuthError, AuthEvent, AuthFlow, AuthResponse, ClientIdentity, Exchange, Tokens,
};
use mcpg_page::{AuthCommand, Command};

use super::browser;
use crate::effects::clock::now;
use crate::effects::inbox;
use crate::effects::{conn_headers, demo_oauth};

/// Where the sign-in stands, for the panel.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Nothing started.
    Idle,
    /// Requests are under way.
    Working,
    /// The learner must visit this authorization URL (opened only on a click).
    Authorize(String),
    /// Signed in; the held requests were re-sent.
    Authorized {
        /// The scopes granted, as the authorization server said.
        scope: Option<String>,
    },
    /// The authorization server offers no registration: a client ID is needed.
    NeedsClientId,
    /// The flow stopped.
    Failed {
        /// Why, in words (no secret: `AuthError`'s display).
        text: String,
        /// A browser request failed in a way that looks like CORS.
        cors: bool,
    },
}

/// The panel's signals.
#[derive(Clone, Copy, Debug)]
pub struct OAuthView {
    /// Every exchange so far, masked: one card each.
    pub cards: RwSignal<Vec<Exchange>>,
    /// Where the sign-in stands.
    pub status: RwSignal<Status>,
    /// Stop between exchanges.
    pub step_mode: RwSignal<bool>,
    /// Stopped: the next exchange waits for "Next exchange".
    pub paused: RwSignal<bool>,
}

impl OAuthView {
    /// Fresh signals.
    pub fn new() -> OAuthView {
        OAuthView {
            cards: RwSignal::new(Vec::new()),
            status: RwSignal::new(Status::Idle),
            step_mode: RwSignal::new(false),
            paused: RwSignal::new(false),
        }
    }
}

impl Default for OAuthView {
    fn default() -> Self {
        OAuthView::new()
    }
}

/// What a sign-in starts from: the connection and the server's refusal.
#[derive(Clone, Debug)]
pub struct Start {
    /// Where the connection's headers are kept (`conn_headers::key_of`).
    pub key: String,
    /// The MCP endpoint (for a relay, the remote's URL).
    pub resource_url: String,
    /// The revision the session speaks (or the page's default).
    pub revision: String,
    /// 401 or 403.
    pub status: u16,
    /// The refusal's `WWW-Authenticate`.
    pub www_authenticate: Option<String>,
    /// The bridge's `/api/oauth-fetch` to make the flow's requests through (an
    /// authorization server that refuses web pages), or `None`: straight.
    pub via_bridge: Option<browser::BridgeFetch>,
}

struct Run {
    flow: AuthFlow,
    start: Start,
    view: OAuthView,
    tokens: Option<Tokens>,
    /// A request failed the way a CORS refusal does: when discovery then finds no
    /// metadata, CORS is the likely reason, and the panel says so.
    cors_seen: bool,
}

thread_local! {
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
}

fn with_run<T>(f: impl FnOnce(&mut Run) -> T) -> Option<T> {
    RUN.with(|r| r.borrow_mut().as_mut().map(f))
}

/// Whether `key` has tokens that can be refreshed without the learner.
pub fn can_refresh(key: &str) -> bool {
    with_run(|r| r.start.key == key && r.tokens.as_ref().is_some_and(|t| t.refresh_token.is_some()))
        .unwrap_or(false)
}

/// Starts (or, for the same connection, continues) a sign-in from the server's
/// refusal: a 401 with refreshable tokens refreshes them, a 403 steps up on the
/// flow that has the registration, anything else starts a fresh flow.
pub fn begin(view: OAuthView, start: Start, identity: ClientIdentity) {
    let t = now();
    let same = with_run(|r| r.start.key == start.key).unwrap_or(false);
    let refresh = with_run(|r| r.tokens.clone())
        .flatten()
        .filter(|tk| tk.refresh_token.is_some());
    let continued = same
        && with_run(|r| {
            r.view = view;
            r.start.status = start.status;
            r.start.www_authenticate = start.www_authenticate.clone();
            match (&refresh, start.status) {
                (Some(tk), 401) => r.flow.refresh(t, tk.clone()),
                (_, 403) => r
                    .flow
                    .handle_challenge(t, 403, start.www_authenticate.as_deref()),
                _ => return false,
            }
            true
        })
        .unwrap_or(false);
    if !continued {
        let entropy = match browser::entropy() {
            Ok(e) => e,
            Err(text) => {
                view.status.set(Status::Failed { text, cors: false });
                return;
            }
        };
        let mut cfg = AuthConfig::new(
            start.resource_url.clone(),
            browser::redirect_uri(),
            identity,
        );
        cfg.revision.clone_from(&start.revision);
        let mut flow = AuthFlow::new(cfg, entropy);
        flow.handle_challenge(t, start.status, start.www_authenticate.as_deref());
        view.cards.set(Vec::new());
        RUN.with(|r| {
            *r.borrow_mut() = Some(Run {
                flow,
                start,
                view,
                tokens: None,
                cors_seen: false,
            });
        });
    }
    view.status.set(Status::Working);
    view.paused.set(false);
    browser::listen_redirects(redirected);
    pump();
}

/// Moves the flow along: its events into signals, its requests into `fetch` (none
/// while step mode stopped it).
fn pump() {
    while let Some((event, view)) = with_run(|r| r.flow.poll_event().map(|e| (e, r.view))).flatten()
    {
        on_event(view, event);
    }
    loop {
        let next = with_run(|r| {
            if r.view.paused.get_untracked() {
                None
            } else {
                r.flow.poll_request()
            }
        })
        .flatten();
        let Some(req) = next else { break };
        let via = with_run(|r| r.start.via_bridge.clone()).flatten();
        wasm_bindgen_futures::spawn_local(async move {
            let resp = browser::run(&req, via.as_ref()).await;
            let cors = matches!(
                resp,
                AuthResponse::Failed {
                    cors_suspected: true,
                    ..
                }
            );
            with_run(|r| {
                r.cors_seen |= cors;
                r.flow.handle_response(now(), resp);
            });
            pump();
        });
    }
}

fn on_event(view: OAuthView, event: AuthEvent) {
    match event {
        AuthEvent::Exchange(x) => {
            view.cards.update(|c| c.push(x));
            let steps: Vec<_> = view
                .cards
                .with_untracked(|c| c.iter().map(|x| x.step).collect());
            crate::effects::lessons::see_auth(&steps);
            if view.step_mode.get_untracked() {
                view.paused.set(true);
            }
        }
        // The flow checks the URL too; a URL the page will not open is never shown
        // as something to open.
        AuthEvent::Authorize { url } => view.status.set(match browser::refused(&url) {
            None => Status::Authorize(url),
            Some(text) => Status::Failed { text, cors: false },
        }),
        AuthEvent::Authorized(tokens) => {
            let key = with_run(|r| r.start.key.clone()).unwrap_or_default();
            conn_headers::set_bearer(&key, Some(tokens.access_token.clone()));
            view.status.set(Status::Authorized {
                scope: tokens.scope.clone(),
            });
            with_run(|r| r.tokens = Some(tokens));
            inbox::command(Command::Auth(AuthCommand::Resume));
        }
        AuthEvent::Failed(e) => {
            let seen = with_run(|r| r.cors_seen).unwrap_or(false);
            view.status.set(match e {
                AuthError::NeedsClientId => Status::NeedsClientId,
                AuthError::Network { cors_suspected, .. } => Status::Failed {
                    text: e.to_string(),
                    cors: cors_suspected || seen,
                },
                e => Status::Failed {
                    text: e.to_string(),
                    cors: seen,
                },
            });
        }
    }
}

/// "Next exchange" in step mode.
pub fn next(view: OAuthView) {
    view.paused.set(false);
    pump();
}

/// The learner's click on "Open the sign-in page": a new window (no opener) goes
/// to the authorization URL the flow gave, if it passes the URL rule.
pub fn open_sign_in(view: OAuthView) {
    let Status::Authorize(url) = view.status.get_untracked() else {
        return;
    };
    if let Err(text) = browser::open_popup(&url) {
        view.status.set(Status::Failed { text, cors: false });
    }
}

/// The learner's answer on the in-page authorization server's consent screen (the
/// demo behind OAuth): its redirect goes to the flow as the callback page's would.
/// A request the server refuses outright stops the sign-in with its reason.
pub fn consent_in_page(view: OAuthView, approve: bool) {
    let Status::Authorize(url) = view.status.get_untracked() else {
        return;
    };
    match demo_oauth::consent(&url, approve) {
        Ok(back) => redirected(back),
        Err(e) => view.status.set(Status::Failed {
            text: format!("the authorization server refused the request: {e}"),
            cors: false,
        }),
    }
}

/// The redirect came back from `oauth-callback.html`.
fn redirected(url: String) {
    let waiting = with_run(|r| matches!(r.view.status.get_untracked(), Status::Authorize(_)));
    if waiting != Some(true) {
        return;
    }
    with_run(|r| {
        r.view.status.set(Status::Working);
        r.flow.handle_redirect(now(), &url);
    });
    pump();
}

/// Forgets the sign-in (its flow, its tokens, the bearer it set): the next
/// refusal starts afresh, with the learner (the OAuth lesson opening).
pub fn forget() {
    if let Some(key) = with_run(|r| r.start.key.clone()) {
        conn_headers::set_bearer(&key, None);
    }
    RUN.with(|r| r.borrow_mut().take());
}

/// The learner stops waiting: the held requests fail, the token is forgotten.
pub fn give_up(view: OAuthView) {
    if let Some(key) = with_run(|r| r.start.key.clone()) {
        conn_headers::set_bearer(&key, None);
    }
    RUN.with(|r| r.borrow_mut().take());
    view.status.set(Status::Idle);
    inbox::command(Command::Auth(AuthCommand::GiveUp(
        "sign-in cancelled: the server wants authorization".to_owned(),
    )));
}
