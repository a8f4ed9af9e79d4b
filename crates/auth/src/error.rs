//! Why a flow stopped. Display never carries a secret (no token, code or verifier).

/// Why the flow stopped; the UI branches on the variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AuthError {
    /// No protected resource metadata and no authorization server metadata was found.
    #[error("no authorization metadata found for {what}")]
    NoMetadata {
        /// What was looked for (the resource or the issuer).
        what: String,
    },
    /// The AS metadata's `issuer` is not the issuer it was fetched for (RFC 8414 §3.3).
    #[error("the authorization server metadata says issuer {got}, expected {expected}")]
    IssuerMismatch {
        /// The issuer the metadata was fetched for.
        expected: String,
        /// What the document said.
        got: String,
    },
    /// The protected resource metadata names another resource (RFC 9728 §3.3).
    #[error("the protected resource metadata is for {got}, not {expected}")]
    ResourceMismatch {
        /// The MCP endpoint.
        expected: String,
        /// The metadata's `resource`.
        got: String,
    },
    /// The AS does not advertise PKCE S256; the spec says the client MUST refuse.
    #[error(
        "the authorization server does not advertise PKCE S256 (code_challenge_methods_supported)"
    )]
    NoPkceS256,
    /// No metadata document support, no registration endpoint: the user must enter a
    /// client ID registered by hand.
    #[error(
        "the authorization server offers no registration; a pre-registered client ID is needed"
    )]
    NeedsClientId,
    /// Dynamic client registration was refused.
    #[error("client registration was refused (HTTP {status}{})", error.as_deref().map(|e| format!(": {e}")).unwrap_or_default())]
    RegistrationRefused {
        /// HTTP status.
        status: u16,
        /// The OAuth `error`, if any.
        error: Option<String>,
    },
    /// The redirect's `state` is not the one sent: a forged or crossed redirect.
    #[error("the redirect's state does not match the request (possible CSRF)")]
    StateMismatch,
    /// RFC 9207: the redirect's `iss` is missing where required, or names another issuer.
    #[error("the redirect's iss parameter is wrong: expected {expected}, got {}", got.as_deref().unwrap_or("none"))]
    IssMismatch {
        /// The issuer the flow talked to.
        expected: String,
        /// What the redirect carried.
        got: Option<String>,
    },
    /// The user or the AS refused the authorization (`?error=` on the redirect).
    #[error("authorization denied: {error}{}", description.as_deref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Denied {
        /// The OAuth `error` code.
        error: String,
        /// `error_description`, if any.
        description: Option<String>,
    },
    /// The token endpoint refused the code or the refresh token.
    #[error("the token endpoint refused (HTTP {status}{})", error.as_deref().map(|e| format!(": {e}")).unwrap_or_default())]
    TokenRefused {
        /// HTTP status.
        status: u16,
        /// The OAuth `error`, if any.
        error: Option<String>,
    },
    /// Too many `insufficient_scope` refusals in a row.
    #[error("the server still refuses after {0} step-up authorizations")]
    StepUpLimit(u32),
    /// A request failed below HTTP.
    #[error("{reason}{}", if *cors_suspected { " (the browser may have blocked it: CORS)" } else { "" })]
    Network {
        /// What the driver saw.
        reason: String,
        /// In a browser, a CORS refusal looks like this.
        cors_suspected: bool,
    },
    /// A document or redirect could not be read.
    #[error("malformed {what}")]
    Malformed {
        /// What, and why.
        what: String,
    },
    /// The browser leg could not be completed (the driver's authorizer failed, or
    /// the user closed the window).
    #[error("the authorization step in the browser failed: {0}")]
    Browser(String),
    /// This build cannot do what the configuration asks (e.g. `private_key_jwt`
    /// without the `jwt` feature).
    #[error("unsupported here: {0}")]
    Unsupported(&'static str),
    /// A server or authorization server handed the flow a URL that breaks the one
    /// URL rule ([`mcpg_safe_url::RULE`]): it was neither fetched nor opened.
    // The rule first: a long URL may be cut where the message is shown.
    #[error("refused {field} (rule: {}): {refusal}: {:?}", refusal.rule(), crate::checks::short(url))]
    UnsafeUrl {
        /// Where the URL came from (`authorization_endpoint`, `resource_metadata`, …).
        field: &'static str,
        /// The URL as sent.
        url: String,
        /// Which part of the rule it broke.
        refusal: mcpg_safe_url::Refusal,
    },
    /// An answer over [`crate::MAX_ANSWER_BYTES`]: not read, the flow stops.
    #[error("the answer to the {} step is larger than the {limit}-byte limit for OAuth answers", step.title())]
    TooLarge {
        /// The step whose answer it was.
        step: crate::Step,
        /// The limit, in bytes.
        limit: usize,
    },
    /// A call that does not fit the flow's state (e.g. a redirect nobody asked for).
    #[error("unexpected {0} at this point of the flow")]
    Unexpected(&'static str),
}
