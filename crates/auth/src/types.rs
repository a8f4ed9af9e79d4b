//! The flow's public vocabulary: configuration, requests and answers, events, cards.

use mcpg_core::diag::Severity;
use serde::{Deserialize, Serialize};

use crate::AuthError;

/// How the client identifies itself to the authorization server (spec: "Client
/// Registration"). `Debug` masks secrets and assertions.
#[derive(Clone, PartialEq, Eq)]
pub enum ClientIdentity {
    /// Try, in the spec's order: a Client ID Metadata Document (when the AS says
    /// `client_id_metadata_document_supported` and `metadata_url` is set), else dynamic
    /// client registration (RFC 7591) when a `registration_endpoint` is advertised,
    /// else fail with [`AuthError::NeedsClientId`] (the UI then asks the user for one).
    Auto {
        /// The HTTPS URL of this client's metadata document (it is the `client_id`).
        metadata_url: Option<String>,
        /// The `client_name` sent when registering.
        client_name: String,
    },
    /// A client ID (and maybe secret) the user registered by hand.
    PreRegistered {
        /// The client ID.
        client_id: String,
        /// The secret, for confidential clients.
        client_secret: Option<String>,
    },
    /// Extension (SEP-1933, workload identity federation): no browser; the
    /// workload's JWT is presented as an RFC 7523 JWT-bearer grant.
    WorkloadJwt {
        /// The client ID at the authorization server.
        client_id: String,
        /// The workload's signed JWT (audience: the authorization server).
        assertion: String,
    },
    /// Extension (SEP-1046, client credentials): no browser; the client
    /// authenticates with an ES256-signed JWT (`private_key_jwt`, RFC 7523 §2.2).
    /// Signing needs the crate's `jwt` feature (native drivers); without it the
    /// flow fails with [`AuthError::Unsupported`].
    PrivateKeyJwt {
        /// The client ID (the JWT's `iss` and `sub`).
        client_id: String,
        /// The client's P-256 private key, PKCS#8 PEM.
        private_key_pem: String,
    },
    /// Extension (SEP-990, enterprise-managed authorization): no browser; the
    /// enterprise IdP's ID token is exchanged at the IdP (RFC 8693) for an ID-JAG,
    /// presented to the authorization server as an RFC 7523 JWT-bearer grant.
    Enterprise {
        /// The client ID at the authorization server.
        client_id: String,
        /// Its secret there, if confidential.
        client_secret: Option<String>,
        /// The IdP's token endpoint.
        idp_token_endpoint: String,
        /// The client ID at the IdP.
        idp_client_id: String,
        /// The user's ID token from the IdP (the subject token).
        id_token: String,
    },
}

impl std::fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientIdentity::Auto {
                metadata_url,
                client_name,
            } => f
                .debug_struct("Auto")
                .field("metadata_url", metadata_url)
                .field("client_name", client_name)
                .finish(),
            ClientIdentity::PreRegistered { client_id, .. } => f
                .debug_struct("PreRegistered")
                .field("client_id", client_id)
                .finish_non_exhaustive(),
            ClientIdentity::WorkloadJwt { client_id, .. } => f
                .debug_struct("WorkloadJwt")
                .field("client_id", client_id)
                .finish_non_exhaustive(),
            ClientIdentity::PrivateKeyJwt { client_id, .. } => f
                .debug_struct("PrivateKeyJwt")
                .field("client_id", client_id)
                .finish_non_exhaustive(),
            ClientIdentity::Enterprise {
                client_id,
                idp_token_endpoint,
                ..
            } => f
                .debug_struct("Enterprise")
                .field("client_id", client_id)
                .field("idp_token_endpoint", idp_token_endpoint)
                .finish_non_exhaustive(),
        }
    }
}

/// What the flow needs to know before it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthConfig {
    /// The MCP endpoint (the protected resource), e.g. `http://127.0.0.1:4000/mcp`.
    pub resource_url: String,
    /// Where the AS sends the browser back (loopback for the CLI, the page's own
    /// origin + `oauth-callback.html` for the page).
    pub redirect_uri: String,
    /// Who the client says it is.
    pub identity: ClientIdentity,
    /// The revision the session speaks (`"2025-06-18"`, `"2025-11-25"`,
    /// `"2026-07-28"`, or `"2025-03-26"` for the old metadata fallbacks): decides the
    /// discovery order and the 2026-07-28 `iss` checks.
    pub revision: String,
    /// Scopes the user forces (else from `WWW-Authenticate`, else `scopes_supported`,
    /// else none: the parameter is omitted).
    pub scopes: Option<Vec<String>>,
    /// How many step-ups (403 insufficient_scope) in a row before giving up.
    pub max_step_ups: u32,
}

impl AuthConfig {
    /// A configuration with the defaults (revision 2025-11-25, 2 step-ups, scopes
    /// from the server).
    pub fn new(
        resource_url: impl Into<String>,
        redirect_uri: impl Into<String>,
        identity: ClientIdentity,
    ) -> Self {
        AuthConfig {
            resource_url: resource_url.into(),
            redirect_uri: redirect_uri.into(),
            identity,
            revision: "2025-11-25".into(),
            scopes: None,
            max_step_ups: 2,
        }
    }
}

/// Tokens the flow obtained; what the CLI caches (serde) and the page keeps like an
/// API key. `Debug` masks the secrets.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tokens {
    /// The bearer token for the resource server.
    pub access_token: String,
    /// `Bearer`, normally.
    pub token_type: String,
    /// For [`crate::AuthFlow::refresh`].
    pub refresh_token: Option<String>,
    /// Milliseconds on the caller's clock (the `now` passed in) when the token expires.
    pub expires_at: Option<u64>,
    /// The scopes granted (space separated), as the AS said.
    pub scope: Option<String>,
    /// The issuer, so a refresh can go straight to the token endpoint.
    pub issuer: String,
    /// The token endpoint the tokens came from.
    pub token_endpoint: String,
    /// The client they were issued to.
    pub client_id: String,
    /// Its secret, if it has one.
    pub client_secret: Option<String>,
    /// `none`, `client_secret_basic` or `client_secret_post`.
    pub token_endpoint_auth_method: String,
    /// The resource (RFC 8707) they are for.
    pub resource: String,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &crate::mask::mask_value(&self.access_token))
            .field("token_type", &self.token_type)
            .field(
                "refresh_token",
                &self.refresh_token.as_deref().map(crate::mask::mask_value),
            )
            .field("expires_at", &self.expires_at)
            .field("scope", &self.scope)
            .field("issuer", &self.issuer)
            .field("token_endpoint", &self.token_endpoint)
            .field("client_id", &self.client_id)
            .field("resource", &self.resource)
            .finish_non_exhaustive()
    }
}

/// One HTTP request the driver must make, exactly as given (redirects not followed).
/// It carries secrets (codes, verifiers, client secrets, assertions): drivers send it
/// and never log it; what people see is the masked [`Exchange`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthRequest {
    /// Echo it in [`AuthResponse`].
    pub id: u64,
    /// Which step of the flow it belongs to.
    pub step: Step,
    /// `"GET"` or `"POST"`.
    pub method: &'static str,
    /// Where.
    pub url: String,
    /// Every header.
    pub headers: Vec<(String, String)>,
    /// The body (POST only).
    pub body: Option<String>,
}

/// What happened to an [`AuthRequest`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AuthResponse {
    /// An HTTP answer.
    Answered {
        /// The request's id.
        id: u64,
        /// HTTP status.
        status: u16,
        /// Headers (names in any case).
        headers: Vec<(String, String)>,
        /// The body as text.
        body: String,
    },
    /// An HTTP answer whose body was over [`crate::MAX_ANSWER_BYTES`]: the driver
    /// stopped reading it (the flow stops with [`AuthError::TooLarge`]).
    TooLarge {
        /// The request's id.
        id: u64,
        /// HTTP status.
        status: u16,
    },
    /// Below HTTP (unreachable, or in a browser possibly CORS: `cors_suspected`).
    Failed {
        /// The request's id.
        id: u64,
        /// What the driver saw.
        reason: String,
        /// A browser could not tell a CORS refusal from a dead server.
        cors_suspected: bool,
    },
}

/// Where in the flow an exchange belongs: each is one card in the page's OAuth lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// RFC 9728 protected resource metadata.
    ProtectedResourceMetadata,
    /// RFC 8414 / OpenID Connect discovery.
    AuthorizationServerMetadata,
    /// A client ID metadata document (no request: the AS fetches it; still a card).
    ClientMetadataDocument,
    /// RFC 7591 dynamic client registration.
    Registration,
    /// The browser leg (authorization URL → redirect).
    Authorization,
    /// The authorization code for tokens.
    TokenExchange,
    /// A refresh token for new tokens.
    Refresh,
    /// A 403 `insufficient_scope` restarted the flow with more scopes.
    StepUp,
}

impl Step {
    /// A short title for a card.
    pub fn title(self) -> &'static str {
        match self {
            Step::ProtectedResourceMetadata => "Protected resource metadata",
            Step::AuthorizationServerMetadata => "Authorization server metadata",
            Step::ClientMetadataDocument => "Client ID metadata document",
            Step::Registration => "Dynamic client registration",
            Step::Authorization => "Authorization (browser)",
            Step::TokenExchange => "Token exchange",
            Step::Refresh => "Token refresh",
            Step::StepUp => "Step-up authorization",
        }
    }
}

/// What the flow reports.
#[derive(Clone, Debug, PartialEq)]
pub enum AuthEvent {
    /// One exchange finished: a card. Secrets are already masked in it.
    Exchange(Exchange),
    /// The user must visit this URL (the page opens it on the user's click; the CLI
    /// prints it and opens it if it can; the conformance client GETs it without
    /// following redirects and feeds the `Location` to `handle_redirect`).
    Authorize {
        /// The authorization URL.
        url: String,
    },
    /// Done: use `tokens.access_token` as `Authorization: Bearer …` and re-send.
    Authorized(Tokens),
    /// The flow stopped.
    Failed(AuthError),
}

/// One exchange of the flow, as a card.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// Which step.
    pub step: Step,
    /// The spec section (and RFC) that asks for this exchange.
    pub spec: &'static str,
    /// One sentence: why the client made it.
    pub why: String,
    /// The request as text, secrets masked.
    pub request: String,
    /// The response as text, secrets masked (none when there was no answer).
    pub response: Option<String>,
    /// What the server got wrong here (empty when nothing).
    pub findings: Vec<Finding>,
}

/// Something a server or authorization server did against the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Stable rule id, e.g. `auth-prm-missing`, `auth-issuer-mismatch`.
    pub rule: &'static str,
    /// How bad.
    pub severity: Severity,
    /// What the spec asks for.
    pub expected: String,
    /// What came.
    pub got: String,
}
