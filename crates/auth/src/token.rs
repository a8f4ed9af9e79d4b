//! The token endpoint: the code for tokens (with the PKCE verifier and the RFC 8707
//! `resource`), refresh, client credentials, and the client authentication the
//! AS advertises (`client_secret_basic`, `client_secret_post`, `none`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use mcpg_core::Timestamp;
use mcpg_core::diag::Severity;
use serde_json::Value;

use crate::cards::Card;
use crate::state::{Answer, AsMetadata, Client, Purpose};
use crate::url;
use crate::{AuthError, AuthFlow, AuthRequest, Step, Tokens};

/// RFC 7523 §2.2: a JWT that authenticates the client.
const CLIENT_ASSERTION: &str = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

/// A form POST to a token endpoint, authenticated as `client` says.
fn token_request(
    step: Step,
    endpoint: &str,
    mut form: Vec<(&str, String)>,
    client: &Client,
) -> AuthRequest {
    let mut headers = vec![
        (
            "Content-Type".to_owned(),
            "application/x-www-form-urlencoded".to_owned(),
        ),
        ("Accept".to_owned(), "application/json".to_owned()),
    ];
    match (client.auth_method.as_str(), client.secret.as_deref()) {
        ("client_secret_basic", Some(s)) => {
            // RFC 6749 §2.3.1: each part form-encoded before base64.
            let creds = format!("{}:{}", url::encode(&client.id), url::encode(s));
            headers.push((
                "Authorization".into(),
                format!("Basic {}", STANDARD.encode(creds)),
            ));
        }
        ("client_secret_post", Some(s)) => {
            form.push(("client_id", client.id.clone()));
            form.push(("client_secret", s.to_owned()));
        }
        _ => form.push(("client_id", client.id.clone())),
    }
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    AuthRequest {
        id: 0,
        step,
        method: "POST",
        url: endpoint.to_owned(),
        headers,
        body: Some(url::form(&pairs)),
    }
}

/// When the access token is a JWT whose `aud` does not name `resource` (RFC 8707
/// §2: the AS should have bound it to the resource asked for): (expected, got).
/// The token is only decoded, never trusted: the resource server judges it.
pub(crate) fn wrong_audience(access_token: &str, resource: &str) -> Option<(String, String)> {
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let mut parts = access_token.split('.');
    let (_, Some(payload), Some(_), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return None;
    };
    let claims: Value = serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).ok()?).ok()?;
    let auds: Vec<String> = match claims.get("aud")? {
        Value::String(a) => vec![a.clone()],
        Value::Array(a) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => return None,
    };
    if auds.iter().any(|a| url::same_resource(a, resource)) {
        None
    } else {
        Some((resource.to_owned(), auds.join(", ")))
    }
}

/// One token request to make: where, as whom, what for.
pub(crate) struct Grant<'a> {
    pub purpose: Purpose,
    pub step: Step,
    pub endpoint: &'a str,
    pub client: &'a Client,
    /// The grant's own parameters (`scope` and the client's authentication are added).
    pub form: Vec<(&'a str, String)>,
    pub why: String,
}

impl AuthFlow {
    /// Queues a token request: `scope` when any, the client's authentication.
    pub(crate) fn post_grant(&mut self, g: Grant<'_>, scopes: &[String]) {
        let mut form = g.form;
        if !scopes.is_empty() {
            form.push(("scope", scopes.join(" ")));
        }
        let mut req = token_request(g.step, g.endpoint, form, g.client);
        // The AS's token endpoint gets a proof; the enterprise IdP does not.
        if !matches!(g.purpose, Purpose::IdJag) {
            self.add_dpop_proof(&mut req);
        }
        self.request(g.purpose, g.why, req);
    }

    pub(crate) fn exchange_code(&mut self, code: String) {
        let (Some(asm), Some(client), Some(pkce)) = (
            self.asm.clone(),
            self.client_for_current().cloned(),
            self.pkce.clone(),
        ) else {
            return;
        };
        let form = vec![
            ("grant_type", "authorization_code".to_owned()),
            ("code", code),
            ("redirect_uri", self.cfg.redirect_uri.clone()),
            ("code_verifier", pkce.verifier),
            ("resource", self.resource()),
        ];
        let why = format!(
            "The client trades the one-time code (with its PKCE verifier) for tokens, authenticating as {}.",
            client.auth_method
        );
        let grant = Grant {
            purpose: Purpose::Token,
            step: Step::TokenExchange,
            endpoint: &asm.token_endpoint,
            client: &client,
            form,
            why,
        };
        self.post_grant(grant, &[]);
    }

    /// The client credentials grant: for a confidential client at an AS that grants
    /// only that, authenticated by its secret, or (with `assertion`) by a
    /// `private_key_jwt` client assertion (SEP-1046).
    pub(crate) fn client_credentials(
        &mut self,
        asm: &AsMetadata,
        client: &Client,
        scopes: &[String],
        assertion: Option<String>,
    ) {
        let mut form = vec![
            ("grant_type", "client_credentials".to_owned()),
            ("resource", self.resource()),
        ];
        let why = match assertion {
            Some(jwt) => {
                form.push(("client_assertion_type", CLIENT_ASSERTION.to_owned()));
                form.push(("client_assertion", jwt));
                "Client credentials with private_key_jwt (SEP-1046): the client proves who it is with a JWT signed by its own key, no secret on the wire."
            }
            None => {
                "The authorization server only grants client credentials: the confidential client asks for a token for itself, without a browser."
            }
        };
        let grant = Grant {
            purpose: Purpose::ClientCredentials,
            step: Step::TokenExchange,
            endpoint: &asm.token_endpoint,
            client,
            form,
            why: why.into(),
        };
        self.post_grant(grant, scopes);
    }

    pub(crate) fn start_refresh(&mut self, tokens: Tokens) {
        let Some(rt) = tokens.refresh_token.clone() else {
            self.start_discovery();
            return;
        };
        let client = Client {
            id: tokens.client_id.clone(),
            secret: tokens.client_secret.clone(),
            auth_method: tokens.token_endpoint_auth_method.clone(),
        };
        let endpoint = tokens.token_endpoint.clone();
        let form = vec![
            ("grant_type", "refresh_token".to_owned()),
            ("refresh_token", rt),
            ("resource", tokens.resource.clone()),
        ];
        let grant = Grant {
            purpose: Purpose::Refresh(Box::new(tokens)),
            step: Step::Refresh,
            endpoint: &endpoint,
            client: &client,
            form,
            why: "The access token expired or was refused and a refresh token is at hand: the client asks for a new access token without the browser.".into(),
        };
        self.post_grant(grant, &[]);
    }

    /// A token endpoint answer (code exchange, client credentials, or refresh of
    /// `old`).
    pub(crate) fn on_token(
        &mut self,
        now: Timestamp,
        mut card: Card,
        a: &Answer<'_>,
        old: Option<Tokens>,
    ) {
        let doc = a.json();
        let access = doc
            .as_ref()
            .filter(|_| a.ok())
            .and_then(|d| d.get("access_token"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        let Some(access) = access else {
            let error = doc
                .as_ref()
                .and_then(|d| d.get("error"))
                .and_then(Value::as_str)
                .map(str::to_owned);
            card.finding(
                "auth-token-refused",
                if old.is_some() {
                    Severity::Info
                } else {
                    Severity::Error
                },
                "HTTP 200 with an access_token",
                &format!("HTTP {} {}", a.status, error.as_deref().unwrap_or("")),
            );
            self.emit_card(card);
            if old.is_some() {
                // A refused refresh: the full flow from the top.
                self.tokens = None;
                self.start_discovery();
            } else {
                self.fail(AuthError::TokenRefused {
                    status: a.status,
                    error,
                });
            }
            return;
        };
        let doc = doc.unwrap_or_default();
        let text = |k: &str| doc.get(k).and_then(Value::as_str).map(str::to_owned);
        let token_type = text("token_type").unwrap_or_else(|| "Bearer".into());
        if !token_type.eq_ignore_ascii_case("bearer") {
            card.finding(
                "auth-token-type",
                Severity::Warning,
                "token_type Bearer",
                &token_type,
            );
        }
        let expires_at = doc
            .get("expires_in")
            .and_then(Value::as_u64)
            .map(|s| now.as_millis().saturating_add(s.saturating_mul(1000)));
        if let Some((expected, got)) = wrong_audience(&access, &self.resource()) {
            card.finding("auth-wrong-audience", Severity::Warning, &expected, &got);
        }
        let tokens = match old {
            Some(old) => Tokens {
                access_token: access,
                token_type,
                // RFC 6749 §6: the old refresh token stays unless a new one came.
                refresh_token: text("refresh_token").or(old.refresh_token),
                expires_at,
                scope: text("scope").or(old.scope),
                ..old
            },
            None => {
                let (Some(asm), Some(client)) =
                    (self.asm.clone(), self.client_for_current().cloned())
                else {
                    return;
                };
                Tokens {
                    access_token: access,
                    token_type,
                    refresh_token: text("refresh_token"),
                    expires_at,
                    scope: text("scope")
                        .or_else(|| Some(self.scopes.join(" ")).filter(|s| !s.is_empty())),
                    issuer: asm.issuer,
                    token_endpoint: asm.token_endpoint,
                    client_id: client.id,
                    client_secret: client.secret,
                    token_endpoint_auth_method: client.auth_method,
                    resource: self.resource(),
                }
            }
        };
        self.emit_card(card);
        self.authorized(now, tokens);
    }
}
