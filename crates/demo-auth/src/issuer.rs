//! The authorization server: its metadata (RFC 8414), dynamic client registration
//! (RFC 7591), the token endpoint (authorization code with PKCE S256, refresh) and
//! the tokens it issued, which the resource asks about.

use base64::Engine as _;
use serde_json::{Value, json};
use sha2::{Digest as _, Sha256};

use crate::form::field;
use crate::{Answer, ISSUER, RESOURCE_URL, Request, SCOPE};

/// A registered client.
#[derive(Debug, Clone)]
pub(crate) struct Client {
    pub id: String,
    pub name: String,
    pub redirect_uris: Vec<String>,
}

/// An authorization code not yet redeemed.
#[derive(Debug, Clone)]
pub(crate) struct Grant {
    pub code: String,
    pub client_id: String,
    pub redirect_uri: String,
    pub challenge: String,
    pub scope: String,
}

/// An issued access token.
#[derive(Debug, Clone)]
struct Issued {
    access: String,
    refresh: String,
    client_id: String,
    scope: String,
}

/// The authorization server's state.
#[derive(Debug, Default)]
pub(crate) struct Issuer {
    pub clients: Vec<Client>,
    pub grants: Vec<Grant>,
    tokens: Vec<Issued>,
    /// The last number given to a client, code or token.
    pub counter: u32,
}

impl Issuer {
    pub fn next(&mut self) -> u32 {
        self.counter += 1;
        self.counter
    }

    /// Whether `token` is a live access token for the resource.
    pub fn valid(&self, token: &str) -> bool {
        self.tokens.iter().any(|t| t.access == token)
    }

    pub fn answer(&mut self, req: &Request<'_>, url: &url::Url) -> Answer {
        match (req.method, url.path()) {
            ("GET", "/.well-known/oauth-authorization-server") => Answer::json(200, &metadata()),
            ("POST", "/register") => self.register(req.body.unwrap_or_default()),
            ("POST", "/token") => self.token(req.body.unwrap_or_default()),
            _ => Answer::not_found(),
        }
    }

    fn register(&mut self, body: &str) -> Answer {
        let Ok(asked) = serde_json::from_str::<Value>(body) else {
            return oauth_error(400, "invalid_client_metadata", "the body is not JSON");
        };
        let uris: Vec<String> = asked
            .get("redirect_uris")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if uris.is_empty() {
            return oauth_error(400, "invalid_redirect_uri", "redirect_uris is required");
        }
        let name = asked
            .get("client_name")
            .and_then(Value::as_str)
            .unwrap_or("an unnamed client")
            .to_owned();
        let id = format!("demo-client-{}", self.next());
        let answer = json!({
            "client_id": id,
            "client_name": name,
            "redirect_uris": uris,
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        });
        self.clients.push(Client {
            id,
            name,
            redirect_uris: uris,
        });
        Answer::json(201, &answer)
    }

    fn token(&mut self, body: &str) -> Answer {
        match field(body, "grant_type").as_deref() {
            Some("authorization_code") => self.redeem(body),
            Some("refresh_token") => self.refresh(body),
            _ => oauth_error(
                400,
                "unsupported_grant_type",
                "authorization_code or refresh_token",
            ),
        }
    }

    fn redeem(&mut self, body: &str) -> Answer {
        let code = field(body, "code").unwrap_or_default();
        let Some(at) = self.grants.iter().position(|g| g.code == code) else {
            return oauth_error(400, "invalid_grant", "unknown or used code");
        };
        // A code is good once, whatever happens next.
        let grant = self.grants.remove(at);
        if field(body, "client_id").as_deref() != Some(grant.client_id.as_str()) {
            return oauth_error(
                400,
                "invalid_grant",
                "the code was issued to another client",
            );
        }
        if field(body, "redirect_uri").as_deref() != Some(grant.redirect_uri.as_str()) {
            return oauth_error(
                400,
                "invalid_grant",
                "redirect_uri differs from the authorization request's",
            );
        }
        if field(body, "resource").is_some_and(|r| r != RESOURCE_URL) {
            return oauth_error(
                400,
                "invalid_target",
                "this server issues tokens for the demo's resource only",
            );
        }
        let verifier = field(body, "code_verifier").unwrap_or_default();
        if s256(&verifier) != grant.challenge {
            return oauth_error(
                400,
                "invalid_grant",
                "code_verifier does not match the code_challenge (PKCE)",
            );
        }
        self.issue(grant.client_id, grant.scope)
    }

    fn refresh(&mut self, body: &str) -> Answer {
        let rt = field(body, "refresh_token").unwrap_or_default();
        let Some(at) = self.tokens.iter().position(|t| t.refresh == rt) else {
            return oauth_error(400, "invalid_grant", "unknown refresh token");
        };
        // Rotation: the old pair stops working.
        let old = self.tokens.remove(at);
        self.issue(old.client_id, old.scope)
    }

    fn issue(&mut self, client_id: String, scope: String) -> Answer {
        let n = self.next();
        let issued = Issued {
            access: format!("demo-access-{n}"),
            refresh: format!("demo-refresh-{n}"),
            client_id,
            scope,
        };
        let answer = json!({
            "access_token": issued.access,
            "token_type": "Bearer",
            "expires_in": 3600,
            "refresh_token": issued.refresh,
            "scope": issued.scope,
        });
        self.tokens.push(issued);
        Answer::json(200, &answer)
    }
}

/// The authorization server's metadata (RFC 8414).
fn metadata() -> Value {
    json!({
        "issuer": ISSUER,
        "authorization_endpoint": format!("{ISSUER}/authorize"),
        "token_endpoint": format!("{ISSUER}/token"),
        "registration_endpoint": format!("{ISSUER}/register"),
        "scopes_supported": [SCOPE],
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "token_endpoint_auth_methods_supported": ["none"],
        "code_challenge_methods_supported": ["S256"],
        "authorization_response_iss_parameter_supported": true,
    })
}

/// An OAuth error answer (RFC 6749 §5.2).
fn oauth_error(status: u16, error: &str, description: &str) -> Answer {
    Answer::json(
        status,
        &json!({"error": error, "error_description": description}),
    )
}

/// PKCE S256: BASE64URL(SHA256(verifier)), no padding (RFC 7636 §4.2).
pub(crate) fn s256(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()))
}
