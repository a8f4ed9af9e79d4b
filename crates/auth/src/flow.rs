//! The flow's state machine (API surface; the engine lands in later commits).

use std::collections::VecDeque;

use mcpg_core::Timestamp;

use crate::{AuthConfig, AuthError, AuthEvent, AuthRequest, AuthResponse, Tokens};

/// One OAuth 2.1 authorization run (and its refreshes and step-ups) for one MCP
/// endpoint. See the crate docs for how a driver uses it.
#[derive(Debug)]
pub struct AuthFlow {
    cfg: AuthConfig,
    entropy: [u8; 64],
    requests: VecDeque<AuthRequest>,
    events: VecDeque<AuthEvent>,
}

impl AuthFlow {
    /// `entropy`: 64 random bytes from the driver (PKCE verifier and `state` come
    /// from them).
    pub fn new(cfg: AuthConfig, entropy: [u8; 64]) -> Self {
        AuthFlow {
            cfg,
            entropy,
            requests: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// Start (or restart, for step-up) from the resource server's answer: a 401, or
    /// a 403 with `error="insufficient_scope"`, and its `WWW-Authenticate` header.
    pub fn handle_challenge(&mut self, _now: Timestamp, _status: u16, _www: Option<&str>) {
        let _ = (&self.cfg, &self.entropy);
        self.events
            .push_back(AuthEvent::Failed(AuthError::Unexpected("challenge")));
    }

    /// Start a refresh with cached tokens (no discovery); falls back to the full
    /// flow when the refresh is refused.
    pub fn refresh(&mut self, _now: Timestamp, _tokens: Tokens) {}

    /// The next HTTP request the driver must make (exactly this; no redirects
    /// followed).
    pub fn poll_request(&mut self) -> Option<AuthRequest> {
        self.requests.pop_front()
    }

    /// The answer to a request from [`AuthFlow::poll_request`].
    pub fn handle_response(&mut self, _now: Timestamp, _response: AuthResponse) {}

    /// The redirect came back: the full redirect URL. `state` is checked, and `iss`
    /// per RFC 9207.
    pub fn handle_redirect(&mut self, _now: Timestamp, _redirect_url: &str) {}

    /// The next event.
    pub fn poll_event(&mut self) -> Option<AuthEvent> {
        self.events.pop_front()
    }
}
