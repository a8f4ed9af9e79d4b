//! Runs the sans-IO [`AuthFlow`] for the HTTP transport: one tokio task per run
//! (its requests with reqwest, never following redirects, each with a timeout; the
//! browser leg through the [`super::Authorizer`]), while the machine holds the
//! refused messages. The task hands the flow back with its outcome so registrations
//! and step-up counts carry over to the next run.

mod body;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use mcpg_auth::{AuthError, AuthEvent, AuthFlow, AuthRequest, AuthResponse, DpopKey, Tokens};
use mcpg_core::Timestamp;
use mcpg_http::{HttpMachine, HttpRequest};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::AuthOptions;
use crate::error::TransportError;
use crate::link::TransportEvent;

/// How long one request of the flow may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A token this close to its expiry is refreshed before use (clocks differ, and a
/// request takes time to arrive).
const EXPIRY_SKEW_MS: u64 = 30_000;

/// What ends a run.
type Outcome = (AuthFlow, Result<Tokens, AuthError>);

/// The wall clock in ms since the Unix epoch: token expiry is cached across runs
/// of the CLI, so the flow's `now` must be comparable between processes.
pub(crate) fn wall_now() -> Timestamp {
    let ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    Timestamp::from_millis(ms)
}

/// The OAuth side of one HTTP connection.
pub(crate) struct OAuth {
    opts: AuthOptions,
    http: reqwest::Client,
    /// The flow when idle; `None` while a run holds it.
    flow: Option<AuthFlow>,
    running: Option<JoinHandle<Outcome>>,
    tokens: Option<Tokens>,
    /// RFC 9449: the key a `DPoP` token is bound to, and the resource server's
    /// latest nonce.
    dpop: Option<DpopKey>,
    rs_nonce: Option<String>,
    /// A `use_dpop_nonce` refusal was just answered by resending; the next one
    /// runs the flow.
    nonce_resent: bool,
}

impl OAuth {
    pub fn new(opts: AuthOptions) -> Result<OAuth, TransportError> {
        let mut entropy = [0u8; 64];
        getrandom::fill(&mut entropy)
            .map_err(|e| TransportError::HttpClient(format!("no randomness for OAuth: {e}")))?;
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .timeout(REQUEST_TIMEOUT)
            .build()
            .map_err(|e| TransportError::HttpClient(super::exec::describe(&e)))?;
        let mut flow = AuthFlow::new(opts.config.clone(), entropy);
        if let Some(t) = &opts.tokens {
            // A 401 with the cached token then tries its refresh token first.
            flow.set_tokens(t.clone());
        }
        Ok(OAuth {
            flow: Some(flow),
            tokens: opts.tokens.clone(),
            opts,
            http,
            running: None,
            dpop: None,
            rs_nonce: None,
            nonce_resent: false,
        })
    }

    /// Puts the cached token on the machine (or, when it has expired, holds the
    /// first messages until a refresh).
    pub fn start(&mut self, m: &mut HttpMachine, events: &mpsc::Sender<TransportEvent>) {
        let Some(t) = self.tokens.clone() else {
            return;
        };
        m.set_bearer(Some(t.access_token.clone()));
        self.refresh_if_expired(m, events);
    }

    /// Before sending: an expired token is refreshed first (messages wait).
    pub fn refresh_if_expired(
        &mut self,
        m: &mut HttpMachine,
        events: &mpsc::Sender<TransportEvent>,
    ) {
        let expired = self
            .tokens
            .as_ref()
            .and_then(|t| t.expires_at)
            .is_some_and(|at| at <= wall_now().as_millis().saturating_add(EXPIRY_SKEW_MS));
        if !expired || self.running.is_some() {
            return;
        }
        let Some(t) = self.tokens.clone() else {
            return;
        };
        m.hold();
        self.spawn(events, move |flow| flow.refresh(wall_now(), t));
    }

    /// The machine held a refused message: run the flow (unless one runs), or,
    /// for a DPoP nonce challenge with a new nonce, just resend (returns true: the
    /// caller resumes the machine).
    pub fn unauthorized(
        &mut self,
        status: u16,
        www: Option<String>,
        events: &mpsc::Sender<TransportEvent>,
    ) -> bool {
        if self.running.is_some() {
            return false;
        }
        let nonce_asked = www.as_deref().is_some_and(|w| w.contains("use_dpop_nonce"));
        if nonce_asked && self.dpop.is_some() && self.rs_nonce.is_some() && !self.nonce_resent {
            self.nonce_resent = true;
            return true;
        }
        self.spawn(events, move |flow| {
            flow.handle_challenge(wall_now(), status, www.as_deref());
        });
        false
    }

    /// Headers of an answer from the resource server: its DPoP nonce, if any.
    pub fn saw_headers(&mut self, headers: &[(String, String)]) {
        if let Some((_, n)) = headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("dpop-nonce"))
        {
            if self.rs_nonce.as_deref() != Some(n.as_str()) {
                self.nonce_resent = false;
            }
            self.rs_nonce = Some(n.clone());
        }
    }

    /// A request to the resource server, as the token wants it: with a `DPoP`
    /// token, `Authorization: DPoP …` and a fresh proof (RFC 9449 §7.1).
    pub fn decorate(&self, req: &mut HttpRequest) {
        let (Some(key), Some(t)) = (&self.dpop, &self.tokens) else {
            return;
        };
        if !t.token_type.eq_ignore_ascii_case("dpop") {
            return;
        }
        let mut jti = [0u8; 16];
        if getrandom::fill(&mut jti).is_err() {
            return;
        }
        let jti: String = jti.iter().map(|b| format!("{b:02x}")).collect();
        for (k, v) in req.headers.iter_mut() {
            if k.eq_ignore_ascii_case("authorization") {
                *v = format!("DPoP {}", t.access_token);
            }
        }
        let proof = key.proof(
            req.method.as_str(),
            &req.url,
            wall_now().as_millis() / 1000,
            &jti,
            Some(&t.access_token),
            self.rs_nonce.as_deref(),
        );
        req.headers.push(("DPoP".into(), proof));
    }

    /// Waits for the running flow (forever when none runs).
    pub async fn finished(&mut self) -> Outcome {
        match self.running.as_mut() {
            Some(h) => {
                let out = h.await;
                self.running = None;
                match out {
                    Ok(o) => o,
                    // The task panicked or was aborted: start over with a fresh flow.
                    Err(e) => {
                        let flow = AuthFlow::new(self.opts.config.clone(), [0; 64]);
                        (
                            flow,
                            Err(AuthError::Browser(format!("the OAuth task ended: {e}"))),
                        )
                    }
                }
            }
            None => std::future::pending().await,
        }
    }

    /// A run ended: a token resumes the held messages, a failure fails them.
    pub fn settle(
        &mut self,
        outcome: Outcome,
        m: &mut HttpMachine,
        now: Timestamp,
    ) -> Option<String> {
        let (flow, result) = outcome;
        self.dpop = flow.dpop_key().cloned();
        self.flow = Some(flow);
        match result {
            Ok(t) => {
                m.set_bearer(Some(t.access_token.clone()));
                if let Some(cb) = &self.opts.on_tokens {
                    cb(&t);
                }
                self.tokens = Some(t);
                m.resume(now);
                None
            }
            Err(e) => {
                let why = format!("authorization failed: {e}");
                m.give_up(now, why.clone());
                Some(why)
            }
        }
    }

    pub fn abort(&mut self) {
        if let Some(h) = self.running.take() {
            h.abort();
        }
    }

    fn spawn(&mut self, events: &mpsc::Sender<TransportEvent>, begin: impl FnOnce(&mut AuthFlow)) {
        let Some(mut flow) = self.flow.take() else {
            return;
        };
        begin(&mut flow);
        let http = self.http.clone();
        let authorizer = self.opts.authorizer.clone();
        let events = events.clone();
        self.running = Some(tokio::spawn(async move {
            let result = drive(&mut flow, &http, authorizer.as_ref(), &events).await;
            (flow, result)
        }));
    }
}

/// Runs `flow` until it authorizes or fails.
async fn drive(
    flow: &mut AuthFlow,
    http: &reqwest::Client,
    authorizer: &dyn super::Authorizer,
    events: &mpsc::Sender<TransportEvent>,
) -> Result<Tokens, AuthError> {
    loop {
        if let Some(ev) = flow.poll_event() {
            match ev {
                AuthEvent::Exchange(x) => {
                    let _ = events.send(TransportEvent::Auth(Box::new(x))).await;
                }
                AuthEvent::Authorize { url } => match authorizer.authorize(url).await {
                    Ok(redirect) => flow.handle_redirect(wall_now(), &redirect),
                    Err(why) => return Err(AuthError::Browser(why)),
                },
                AuthEvent::Authorized(t) => return Ok(t),
                AuthEvent::Failed(e) => return Err(e),
            }
            continue;
        }
        if let Some(req) = flow.poll_request() {
            let answer = execute(http, req).await;
            flow.handle_response(wall_now(), answer);
            continue;
        }
        return Err(AuthError::Unexpected("end of the flow without a result"));
    }
}

/// Makes one request of the flow exactly as asked (no redirect followed when
/// `http` follows none), its body read up to [`mcpg_auth::MAX_ANSWER_BYTES`]. Also
/// what `mcpg doctor` runs the flow's discovery with.
pub async fn execute(http: &reqwest::Client, req: AuthRequest) -> AuthResponse {
    let id = req.id;
    let mut rb = if req.method == "POST" {
        http.post(&req.url)
    } else {
        http.get(&req.url)
    };
    for (k, v) in &req.headers {
        rb = rb.header(k.as_str(), v.as_str());
    }
    if let Some(b) = req.body {
        rb = rb.body(b);
    }
    let resp = match rb.send().await {
        Ok(r) => r,
        Err(e) => {
            return AuthResponse::Failed {
                id,
                reason: super::exec::describe(&e),
                cors_suspected: false,
            };
        }
    };
    let status = resp.status().as_u16();
    let headers = super::exec::header_pairs(resp.headers());
    match body::read_capped(resp, mcpg_auth::MAX_ANSWER_BYTES).await {
        Ok(body) => AuthResponse::Answered {
            id,
            status,
            headers,
            body,
        },
        Err(body::BodyError::TooLarge { .. }) => AuthResponse::TooLarge { id, status },
        Err(body::BodyError::Read(reason)) => AuthResponse::Failed {
            id,
            reason,
            cors_suspected: false,
        },
    }
}
