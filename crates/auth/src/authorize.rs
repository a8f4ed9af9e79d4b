//! The browser leg: the authorization URL (PKCE S256 always, `state` always, the
//! RFC 8707 `resource`, scopes by the spec's selection strategy) and the checks on
//! the redirect that comes back (`state`, then RFC 9207 `iss`).

use mcpg_core::diag::Severity;

use crate::cards::Card;
use crate::flow::Phase;
use crate::url;
use crate::{AuthError, AuthEvent, AuthFlow, Step};

impl AuthFlow {
    /// The scopes to ask for: forced by the user; else what was asked before plus
    /// what the challenge names; else the PRM's `scopes_supported`; else none. Plus
    /// `offline_access` when the AS lists it (SEP-2207: a refresh token).
    pub(crate) fn choose_scopes(&mut self) -> Vec<String> {
        let mut scopes = match &self.cfg.scopes {
            Some(forced) => forced.clone(),
            None if !self.scopes.is_empty() => self.scopes.clone(),
            None => self
                .prm
                .as_ref()
                .map(|p| p.scopes_supported.clone())
                .unwrap_or_default(),
        };
        let offline = self
            .asm
            .as_ref()
            .is_some_and(|a| a.scopes_supported.iter().any(|s| s == "offline_access"));
        if offline && !scopes.iter().any(|s| s == "offline_access") {
            scopes.push("offline_access".into());
        }
        for s in &scopes {
            if !self.scopes.contains(s) {
                self.scopes.push(s.clone());
            }
        }
        scopes
    }

    /// The RFC 8707 resource: the PRM's `resource` exactly as published, else
    /// (2025-03-26, no PRM) the MCP endpoint.
    pub(crate) fn resource(&self) -> String {
        self.prm
            .as_ref()
            .map_or_else(|| self.cfg.resource_url.clone(), |p| p.resource.clone())
    }

    /// Sends the user to the authorization endpoint (or, for a confidential
    /// pre-registered client at an AS that only grants client credentials, asks for
    /// a token directly).
    pub(crate) fn start_authorization(&mut self) {
        let (Some(asm), Some(client)) = (self.asm.clone(), self.client_for_current().cloned())
        else {
            return;
        };
        let scopes = self.choose_scopes();
        if self.start_extension_grant(&asm, &client, &scopes) {
            return;
        }
        let only_cc = asm.grant_types.iter().any(|g| g == "client_credentials")
            && !asm.grant_types.iter().any(|g| g == "authorization_code");
        if only_cc && client.secret.is_some() {
            self.client_credentials(&asm, &client, &scopes, None);
            return;
        }
        // Never hand the browser (or `xdg-open`) a URL that breaks the rule; the
        // metadata check caught a server's, this one catches a fallback's too.
        if !self.url_ok(
            Step::Authorization,
            "authorization_endpoint",
            &asm.authorization_endpoint,
        ) {
            return;
        }
        let (pkce, state) = self.next_secrets();
        let resource = self.resource();
        let scope = scopes.join(" ");
        let mut pairs: Vec<(&str, &str)> = vec![
            ("response_type", "code"),
            ("client_id", &client.id),
            ("redirect_uri", &self.cfg.redirect_uri),
            ("code_challenge", &pkce.challenge),
            ("code_challenge_method", "S256"),
            ("state", &state),
            ("resource", &resource),
        ];
        if !scope.is_empty() {
            pairs.push(("scope", &scope));
        }
        let auth_url = url::with_query(&asm.authorization_endpoint, &pairs);
        if !self.url_ok(Step::Authorization, "authorization URL", &auth_url) {
            return;
        }
        self.pkce = Some(pkce);
        self.state = Some(state);
        self.phase = Phase::Authorizing;
        self.events
            .push_back(AuthEvent::Authorize { url: auth_url });
    }

    /// Checks the redirect and exchanges the code.
    pub(crate) fn on_redirect(&mut self, redirect_url: &str) {
        // Read as the WHATWG parser reads it (a relative one against our own
        // redirect URI): `state` and `iss` are security checks.
        let parsed = mcpg_safe_url::Url::parse(redirect_url).or_else(|_| {
            mcpg_safe_url::Url::parse(&self.cfg.redirect_uri).and_then(|b| b.join(redirect_url))
        });
        let params: Vec<(String, String)> = parsed
            .map(|u| {
                u.query_pairs()
                    .map(|(k, v)| (k.into_owned(), v.into_owned()))
                    .collect()
            })
            .unwrap_or_default();
        let param = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
        let issuer = self
            .asm
            .as_ref()
            .map(|a| a.issuer.clone())
            .unwrap_or_default();
        let iss_supported = self.asm.as_ref().is_some_and(|a| a.iss_supported);
        let mut card = Card::plain(
            Step::Authorization,
            crate::cards::spec_for(Step::Authorization, &self.cfg.revision),
            "The user signed in and consented at the authorization server, which sent the browser back with a one-time code.".into(),
            format!("(browser) {}", self.authorize_summary()),
        );
        card.response = Some(format!("redirect: {redirect_url}"));
        // `state` first: a redirect that is not ours is not read any further.
        if param("state") != self.state {
            card.finding(
                "auth-state-mismatch",
                Severity::Error,
                "the state sent in the authorization request",
                &param("state").unwrap_or_else(|| "none".into()),
            );
            self.emit_card(card);
            self.fail(AuthError::StateMismatch);
            return;
        }
        // RFC 9207: a present `iss` must equal the recorded issuer, compared as
        // strings (no normalisation); an absent one is refused when the AS said it
        // sends it.
        match param("iss") {
            Some(iss) if iss != issuer => {
                card.finding("auth-iss-mismatch", Severity::Error, &issuer, &iss);
                self.emit_card(card);
                self.fail(AuthError::IssMismatch {
                    expected: issuer,
                    got: Some(iss),
                });
                return;
            }
            None if iss_supported => {
                card.finding(
                    "auth-iss-missing",
                    Severity::Error,
                    "iss (the AS advertises authorization_response_iss_parameter_supported)",
                    "none",
                );
                self.emit_card(card);
                self.fail(AuthError::IssMismatch {
                    expected: issuer,
                    got: None,
                });
                return;
            }
            _ => {}
        }
        if let Some(error) = param("error") {
            self.emit_card(card);
            self.fail(AuthError::Denied {
                error,
                description: param("error_description"),
            });
            return;
        }
        let Some(code) = param("code") else {
            self.emit_card(card);
            self.fail(AuthError::Malformed {
                what: "redirect (no code and no error)".into(),
            });
            return;
        };
        self.emit_card(card);
        self.exchange_code(code);
    }

    /// The authorization endpoint and its non-secret parameters, for the card.
    fn authorize_summary(&self) -> String {
        let endpoint = self
            .asm
            .as_ref()
            .and_then(|a| url::web_url(&a.authorization_endpoint))
            .map(|u| url::without_query(&u))
            .unwrap_or_default();
        format!(
            "GET {endpoint}?response_type=code&code_challenge_method=S256&resource={}&scope={}",
            self.resource(),
            self.scopes.join(" ")
        )
    }
}
