//! The flow's state machine: what it knows so far, which request is in flight, and
//! the dispatch of answers to the step that asked. The steps themselves live in
//! `discovery.rs`, `registration.rs`, `authorize.rs` and `token.rs`.

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::diag::Severity;

use crate::cards::{self, Card};
use crate::challenge::{BearerChallenge, parse_www_authenticate};
use crate::pkce::Pkce;
use crate::state::{Answer, AsMetadata, Client, Prm, Purpose};
use crate::{AuthConfig, AuthError, AuthEvent, AuthRequest, AuthResponse, Tokens};

/// How long after an authorization a new refusal still counts as "in a row" (a
/// server refusing a fresh token again); later ones start a new count.
const IN_A_ROW_MS: u64 = 60_000;

/// The request in flight and its card so far.
#[derive(Debug)]
pub(crate) struct Pending {
    pub id: u64,
    pub purpose: Purpose,
    pub card: Card,
}

/// Where the flow is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Nothing running (before the first challenge, after success or failure).
    Idle,
    /// Waiting for the answer of [`Pending`].
    Requesting,
    /// Waiting for the browser's redirect.
    Authorizing,
}

/// One OAuth 2.1 authorization run (and its refreshes and step-ups) for one MCP
/// endpoint. See the crate docs for how a driver uses it. `Debug` shows where it
/// is, never its secrets.
pub struct AuthFlow {
    pub(crate) cfg: AuthConfig,
    entropy: [u8; 64],
    /// Authorization requests started (each gets fresh PKCE and `state`).
    pub(crate) runs: u32,
    next_id: u64,
    pub(crate) phase: Phase,
    pub(crate) pending: Option<Pending>,
    pub(crate) requests: VecDeque<AuthRequest>,
    pub(crate) events: VecDeque<AuthEvent>,
    /// The last challenge read.
    pub(crate) challenge: BearerChallenge,
    pub(crate) prm: Option<Prm>,
    pub(crate) asm: Option<AsMetadata>,
    /// Registrations, per issuer (never reused across authorization servers).
    pub(crate) clients: Vec<(String, Client)>,
    /// Every scope requested so far (step-up asks for the union).
    pub(crate) scopes: Vec<String>,
    pub(crate) pkce: Option<Pkce>,
    pub(crate) state: Option<String>,
    pub(crate) tokens: Option<Tokens>,
    step_ups: u32,
    refusals: u32,
    last_authorized: Option<Timestamp>,
    /// A refresh was just tried for this refusal; the next goes the full way.
    refreshed: bool,
}

impl std::fmt::Debug for AuthFlow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthFlow")
            .field("resource", &self.cfg.resource_url)
            .field("phase", &self.phase)
            .field("runs", &self.runs)
            .field("issuer", &self.asm.as_ref().map(|a| &a.issuer))
            .finish_non_exhaustive()
    }
}

impl AuthFlow {
    /// `entropy`: 64 random bytes from the driver (PKCE verifier and `state` come
    /// from them).
    pub fn new(cfg: AuthConfig, entropy: [u8; 64]) -> Self {
        AuthFlow {
            cfg,
            entropy,
            runs: 0,
            next_id: 0,
            phase: Phase::Idle,
            pending: None,
            requests: VecDeque::new(),
            events: VecDeque::new(),
            challenge: BearerChallenge::default(),
            prm: None,
            asm: None,
            clients: Vec::new(),
            scopes: Vec::new(),
            pkce: None,
            state: None,
            tokens: None,
            step_ups: 0,
            refusals: 0,
            last_authorized: None,
            refreshed: false,
        }
    }

    /// Start (or restart, for step-up) from the resource server's answer: a 401, or
    /// a 403 with `error="insufficient_scope"`, and its `WWW-Authenticate` header.
    pub fn handle_challenge(
        &mut self,
        now: Timestamp,
        status: u16,
        www_authenticate: Option<&str>,
    ) {
        self.abandon();
        if self
            .last_authorized
            .is_some_and(|t| now.as_millis().saturating_sub(t.as_millis()) > IN_A_ROW_MS)
        {
            self.step_ups = 0;
            self.refusals = 0;
        }
        let parsed = www_authenticate.and_then(parse_www_authenticate);
        let step_up = status == 403
            && parsed
                .as_ref()
                .and_then(|c| c.error.as_deref())
                .is_some_and(|e| e == "insufficient_scope");
        let mut card = cards::challenge_card(status, www_authenticate, step_up);
        if parsed.is_none() {
            card.finding(
                "auth-www-authenticate-missing",
                Severity::Warning,
                "a `WWW-Authenticate: Bearer` header (RFC 6750 §3, RFC 9728 §5.1)",
                www_authenticate.unwrap_or("none"),
            );
        }
        self.challenge = parsed.unwrap_or_default();
        if step_up {
            self.step_ups += 1;
            self.emit_card(card);
            if self.step_ups > self.cfg.max_step_ups {
                self.fail(AuthError::StepUpLimit(self.cfg.max_step_ups));
                return;
            }
            self.add_scopes_from_challenge();
            if self.asm.is_some() && self.client_for_current().is_some() {
                self.start_authorization();
            } else {
                self.start_discovery();
            }
            return;
        }
        self.refusals += 1;
        if self.refusals > self.cfg.max_step_ups + 1 {
            self.emit_card(card);
            self.fail(AuthError::StepUpLimit(self.cfg.max_step_ups));
            return;
        }
        // A refused token with a refresh token: refresh once before the full flow.
        if let Some(t) = self.tokens.clone().filter(|t| t.refresh_token.is_some())
            && !self.refreshed
        {
            self.refreshed = true;
            self.start_refresh(t);
            return;
        }
        self.add_scopes_from_challenge();
        self.start_discovery();
    }

    /// Start a refresh with cached tokens (no discovery); falls back to the full
    /// flow when the refresh is refused.
    pub fn refresh(&mut self, _now: Timestamp, tokens: Tokens) {
        self.abandon();
        self.tokens = Some(tokens.clone());
        if tokens.refresh_token.is_some() {
            self.refreshed = true;
            self.start_refresh(tokens);
        } else {
            self.start_discovery();
        }
    }

    /// The next HTTP request the driver must make (exactly this; no redirects
    /// followed).
    pub fn poll_request(&mut self) -> Option<AuthRequest> {
        self.requests.pop_front()
    }

    /// The answer to a request from [`AuthFlow::poll_request`]. Answers to requests
    /// the flow no longer waits for are ignored.
    pub fn handle_response(&mut self, now: Timestamp, response: AuthResponse) {
        let id = match &response {
            AuthResponse::Answered { id, .. } | AuthResponse::Failed { id, .. } => *id,
        };
        if self.pending.as_ref().map(|p| p.id) != Some(id) {
            return;
        }
        let Some(Pending {
            purpose, mut card, ..
        }) = self.pending.take()
        else {
            return;
        };
        self.phase = Phase::Idle;
        match response {
            AuthResponse::Failed {
                reason,
                cors_suspected,
                ..
            } => {
                card.response = Some(format!("(no HTTP answer: {reason})"));
                // Discovery tries the next candidate: a missing document may be a
                // dead or CORS-refusing URL as well as a 404.
                match purpose {
                    Purpose::Prm { .. } | Purpose::AsMeta { .. } => {
                        self.emit_card(card);
                        self.next_candidate(purpose);
                    }
                    _ => {
                        self.emit_card(card);
                        self.fail(AuthError::Network {
                            reason,
                            cors_suspected,
                        });
                    }
                }
            }
            AuthResponse::Answered {
                status,
                headers,
                body,
                ..
            } => {
                card.response = Some(cards::response_text(status, &headers, &body));
                let answer = Answer {
                    status,
                    headers: &headers,
                    body: &body,
                };
                match purpose {
                    Purpose::Prm { .. } => self.on_prm(card, purpose, &answer),
                    Purpose::AsMeta { .. } => self.on_as_metadata(card, purpose, &answer),
                    Purpose::Register => self.on_registration(card, &answer),
                    Purpose::IdJag => self.on_id_jag(card, &answer),
                    Purpose::Token | Purpose::ClientCredentials | Purpose::JwtBearer => {
                        self.on_token(now, card, &answer, None);
                    }
                    Purpose::Refresh(old) => self.on_token(now, card, &answer, Some(*old)),
                }
            }
        }
    }

    /// The redirect came back: the full redirect URL (`…?code=…&state=…&iss=…` or
    /// `?error=…`). `state` is checked (a mismatch fails the flow), and `iss` per
    /// RFC 9207.
    pub fn handle_redirect(&mut self, _now: Timestamp, redirect_url: &str) {
        if self.phase != Phase::Authorizing {
            self.events
                .push_back(AuthEvent::Failed(AuthError::Unexpected("redirect")));
            return;
        }
        self.phase = Phase::Idle;
        self.on_redirect(redirect_url);
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<AuthEvent> {
        self.events.pop_front()
    }

    // ----- shared by the steps -----

    /// Queues `req` (its `id` is assigned here) and remembers what it is for.
    pub(crate) fn request(&mut self, purpose: Purpose, why: String, mut req: AuthRequest) {
        let id = self.next_id;
        self.next_id += 1;
        req.id = id;
        let card = Card::new(
            req.step,
            cards::spec_for(req.step, &self.cfg.revision),
            why,
            &req,
        );
        self.requests.push_back(req);
        self.pending = Some(Pending { id, purpose, card });
        self.phase = Phase::Requesting;
    }

    pub(crate) fn emit_card(&mut self, card: Card) {
        self.events
            .push_back(AuthEvent::Exchange(card.into_exchange()));
    }

    pub(crate) fn fail(&mut self, e: AuthError) {
        self.phase = Phase::Idle;
        self.pending = None;
        self.events.push_back(AuthEvent::Failed(e));
    }

    pub(crate) fn authorized(&mut self, now: Timestamp, tokens: Tokens) {
        self.phase = Phase::Idle;
        self.last_authorized = Some(now);
        self.refreshed = false;
        self.tokens = Some(tokens.clone());
        self.events.push_back(AuthEvent::Authorized(tokens));
    }

    /// Fresh PKCE and `state` for authorization run `self.runs` (derived from the
    /// driver's entropy, so a step-up never reuses a verifier).
    pub(crate) fn next_secrets(&mut self) -> (Pkce, String) {
        self.runs += 1;
        let bytes = crate::pkce::derive(&self.entropy, self.runs);
        (
            Pkce::from_entropy(&bytes[..32]),
            crate::pkce::state_from(&bytes[32..48]),
        )
    }

    /// Forgets whatever was in flight (a new challenge replaces it).
    fn abandon(&mut self) {
        self.pending = None;
        self.requests.clear();
        self.phase = Phase::Idle;
    }

    fn add_scopes_from_challenge(&mut self) {
        if let Some(s) = self.challenge.scope.clone() {
            for scope in s.split_whitespace() {
                if !self.scopes.iter().any(|x| x == scope) {
                    self.scopes.push(scope.to_owned());
                }
            }
        }
    }
}
