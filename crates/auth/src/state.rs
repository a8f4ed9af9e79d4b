//! The data the flow's steps share: what discovery learnt, the client as one
//! authorization server knows it, what the request in flight is for, and an HTTP
//! answer. No step logic here, so every step can use it without import circles.

use serde_json::{Map, Value};

use crate::Tokens;

/// What the protected resource metadata said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prm {
    /// `resource`, exactly as published (sent back as the RFC 8707 `resource`).
    pub resource: String,
    pub authorization_servers: Vec<String>,
    pub scopes_supported: Vec<String>,
    /// RFC 9728 §2: the resource takes DPoP-bound tokens signed with ES256
    /// (`dpop_signing_alg_values_supported`) or requires them
    /// (`dpop_bound_access_tokens_required`).
    pub dpop: bool,
}

/// What the authorization server's metadata said (or the 2025-03-26 defaults).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AsMetadata {
    /// The issuer as the metadata spells it (what `iss` is compared with).
    pub issuer: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    pub registration_endpoint: Option<String>,
    pub scopes_supported: Vec<String>,
    pub token_endpoint_auth_methods: Vec<String>,
    pub grant_types: Vec<String>,
    pub cimd_supported: bool,
    /// RFC 9207 `authorization_response_iss_parameter_supported`.
    pub iss_supported: bool,
    /// RFC 9449 `dpop_signing_alg_values_supported`.
    pub dpop_algs: Vec<String>,
}

/// A client as one authorization server knows it.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Client {
    pub id: String,
    pub secret: Option<String>,
    /// `none`, `client_secret_basic` or `client_secret_post`.
    pub auth_method: String,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("id", &self.id)
            .field("auth_method", &self.auth_method)
            .finish_non_exhaustive()
    }
}

/// What the request in flight is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// Protected resource metadata candidate `at` of `candidates`.
    Prm { candidates: Vec<String>, at: usize },
    /// AS metadata candidate `at` of `candidates` for `issuer`.
    AsMeta {
        issuer: String,
        candidates: Vec<String>,
        at: usize,
        legacy: bool,
    },
    /// Dynamic client registration.
    Register,
    /// Code for tokens.
    Token,
    /// Client credentials grant (no browser).
    ClientCredentials,
    /// RFC 8693 token exchange at the enterprise IdP (for an ID-JAG).
    IdJag,
    /// RFC 7523 JWT-bearer grant at the AS.
    JwtBearer,
    /// Refresh token for tokens.
    Refresh(Box<Tokens>),
}

/// An HTTP answer, borrowed.
pub(crate) struct Answer<'a> {
    pub status: u16,
    pub headers: &'a [(String, String)],
    pub body: &'a str,
}

impl Answer<'_> {
    /// The body as a JSON object, if it is one.
    pub fn json(&self) -> Option<serde_json::Map<String, serde_json::Value>> {
        match serde_json::from_str(self.body) {
            Ok(serde_json::Value::Object(m)) => Some(m),
            _ => None,
        }
    }

    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// A header's value (name case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The strings of array member `key` (others skipped; none when absent).
pub(crate) fn strings(m: &Map<String, Value>, key: &str) -> Vec<String> {
    m.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// String member `key`, if it is one.
pub(crate) fn string(m: &Map<String, Value>, key: &str) -> Option<String> {
    m.get(key).and_then(Value::as_str).map(str::to_owned)
}
