//! The flow's state machine: what it knows so far, which request is in flight, and
//! the dispatch of answers to the step that asked. The steps themselves live in
//! `discovery.rs`, `registration.rs`, `authorize.rs` and `token.rs`.

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::diag::Severity;

use crate::cards::{self, Card};
use crate::challenge::BearerChallenge;
use crate::pkce::Pkce;
use crate::state::{Answer, AsMetadata, Client, Prm, Purpose};
use crate::{AuthConfig, AuthError, AuthEvent, AuthRequest, AuthResponse, Tokens};

/// Which field of which document a request's URL comes from, for a refusal.
fn request_field(step: crate::Step) -> &'static str {
    use crate::Step;
    match step {
        Step::ProtectedResourceMetadata => "protected resource metadata URL",
        Step::AuthorizationServerMetadata => "authorization server metadata URL",
        Step::Registration => "registration_endpoint",
        Step::TokenExchange | Step::Refresh | Step::StepUp => "token_endpoint",
        Step::ClientMetadataDocument | Step::Authorization => "request URL",
    }
}

/// The request in flight and its card so far.
#[derive(Debug)]
pub(crate) struct Pending {
    pub id: u64,
    pub purpose: Purpose,
    pub card: Card,
    /// The request as sent (a DPoP nonce challenge re-sends it with a new proof).
    pub raw: AuthRequest,
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
    pub(crate) step_ups: u32,
    pub(crate) refusals: u32,
    pub(crate) last_authorized: Option<Timestamp>,
    /// A refresh was just tried for this refusal; the next goes the full way.
    pub(crate) refreshed: bool,
    /// The latest `now` passed in (for JWT `iat`).
    pub(crate) now: Timestamp,
    /// RFC 9449: the proof-of-possession key, when the AS supports DPoP.
    pub(crate) dpop: Option<crate::dpop::DpopKey>,
    /// The authorization server's latest DPoP nonce.
    pub(crate) dpop_nonce: Option<String>,
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
            now: Timestamp::ZERO,
            dpop: None,
            dpop_nonce: None,
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
        self.now = now;
        let id = match &response {
            AuthResponse::Answered { id, .. }
            | AuthResponse::TooLarge { id, .. }
            | AuthResponse::Failed { id, .. } => *id,
        };
        if self.pending.as_ref().map(|p| p.id) != Some(id) {
            return;
        }
        let Some(Pending {
            purpose,
            mut card,
            raw,
            ..
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
            AuthResponse::TooLarge { status, .. } => self.too_large(card, status, raw.step),
            AuthResponse::Answered { status, body, .. } if body.len() > crate::MAX_ANSWER_BYTES => {
                self.too_large(card, status, raw.step);
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
                if self.dpop_nonce_retry(&answer, &purpose) {
                    self.emit_card(card);
                    self.resend(purpose, raw);
                    return;
                }
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
    pub fn handle_redirect(&mut self, now: Timestamp, redirect_url: &str) {
        self.now = now;
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

    /// An answer over the limit: a card saying so, and the flow stops (a hostile
    /// server's endless body is neither read nor retried elsewhere).
    fn too_large(&mut self, mut card: Card, status: u16, step: crate::Step) {
        let limit = crate::MAX_ANSWER_BYTES;
        card.response = Some(format!(
            "HTTP {status}\n\n(the body is over the {limit}-byte limit: not read)"
        ));
        card.finding(
            "auth-answer-too-large",
            Severity::Error,
            &format!("an answer of at most {limit} bytes"),
            "more",
        );
        self.refuse(card, AuthError::TooLarge { step, limit });
    }

    /// Queues `req` (its `id` is assigned here) and remembers what it is for;
    /// a URL that breaks the URL rule is refused instead (the last line of
    /// defence: every URL a step builds passes here).
    pub(crate) fn request(&mut self, purpose: Purpose, why: String, mut req: AuthRequest) {
        if !self.url_ok(req.step, request_field(req.step), &req.url) {
            return;
        }
        let id = self.next_id;
        self.next_id += 1;
        req.id = id;
        let card = Card::new(
            req.step,
            cards::spec_for(req.step, &self.cfg.revision),
            why,
            &req,
        );
        self.requests.push_back(req.clone());
        self.pending = Some(Pending {
            id,
            purpose,
            card,
            raw: req,
        });
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

    /// Queues `raw` again under a new id, with a fresh DPoP proof (its card was
    /// emitted).
    pub(crate) fn resend(&mut self, purpose: Purpose, mut raw: AuthRequest) {
        raw.headers.retain(|(k, _)| !k.eq_ignore_ascii_case("dpop"));
        self.add_dpop_proof(&mut raw);
        let why = "The server asked for a DPoP nonce: the same request again, with a proof carrying it (RFC 9449 §8).".to_owned();
        self.request(purpose, why, raw);
    }

    /// Fresh 32 bytes from the driver's entropy for `purpose` (a DPoP key, a jti):
    /// never the ones of an authorization run.
    pub(crate) fn derived(&self, purpose: u32) -> [u8; 32] {
        let b = crate::pkce::derive(&self.entropy, purpose | 0x8000_0000);
        let mut out = [0u8; 32];
        out.copy_from_slice(&b[..32]);
        out
    }

    /// Forgets whatever was in flight (a new challenge replaces it).
    pub(crate) fn abandon(&mut self) {
        self.pending = None;
        self.requests.clear();
        self.phase = Phase::Idle;
    }
}
