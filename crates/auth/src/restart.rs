//! What starts a run: the resource server's refusal (a 401, or a 403
//! `insufficient_scope` step-up, bounded in a row), or cached tokens to refresh.

use mcpg_core::Timestamp;
use mcpg_core::diag::Severity;

use crate::cards;
use crate::challenge::parse_www_authenticate;
use crate::{AuthError, AuthFlow, Tokens};

/// How long after an authorization a new refusal still counts as "in a row" (a
/// server refusing a fresh token again); later ones start a new count.
const IN_A_ROW_MS: u64 = 60_000;

impl AuthFlow {
    /// Start (or restart, for step-up) from the resource server's answer: a 401, or
    /// a 403 with `error="insufficient_scope"`, and its `WWW-Authenticate` header.
    pub fn handle_challenge(
        &mut self,
        now: Timestamp,
        status: u16,
        www_authenticate: Option<&str>,
    ) {
        self.now = now;
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

    /// Remembers cached tokens without starting anything: a later 401 then tries
    /// their refresh token before the full flow.
    pub fn set_tokens(&mut self, tokens: Tokens) {
        self.tokens = Some(tokens);
    }

    /// Start a refresh with cached tokens (no discovery); falls back to the full
    /// flow when the refresh is refused.
    pub fn refresh(&mut self, now: Timestamp, tokens: Tokens) {
        self.now = now;
        self.abandon();
        self.tokens = Some(tokens.clone());
        if tokens.refresh_token.is_some() {
            self.refreshed = true;
            self.start_refresh(tokens);
        } else {
            self.start_discovery();
        }
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
