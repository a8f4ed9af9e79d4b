//! The OAuth 2.1 client flow of the MCP authorization spec (2025-06-18, 2025-11-25,
//! 2026-07-28; the 2025-03-26 fallbacks), sans-IO like `mcpg-core` and `mcpg-http`:
//! no sockets, no clock, no randomness of its own. The driver feeds the resource
//! server's refusal in ([`AuthFlow::handle_challenge`]), makes the HTTP requests the
//! flow asks for ([`AuthFlow::poll_request`]), reports their answers
//! ([`AuthFlow::handle_response`]), sends the user to the authorization URL
//! ([`AuthEvent::Authorize`]) and hands the redirect back
//! ([`AuthFlow::handle_redirect`]). Every exchange comes out as a masked
//! [`Exchange`] card naming the spec section that asked for it.
//!
//! - `challenge`: `WWW-Authenticate: Bearer` (RFC 6750 §3, RFC 9728 §5.1).
//! - `discovery`: protected resource metadata (RFC 9728) and authorization server
//!   metadata (RFC 8414, OpenID Connect discovery) in the spec's order.
//! - `registration`: client ID metadata documents, dynamic registration (RFC 7591).
//! - `pkce` and `authorize`: PKCE S256 (RFC 7636), the authorization URL with
//!   `resource` (RFC 8707), the redirect checks (`state`, RFC 9207 `iss`).
//! - `token`: code exchange, refresh, client authentication.
//! - `grants`: the extensions without a browser (SEP-1933 workload JWT, SEP-990
//!   enterprise-managed authorization).
//! - `checks`: every URL a server hands the flow passes `mcpg_safe_url::check`
//!   before it is fetched or opened ([`AuthError::UnsafeUrl`]).
//! - [`mask`]: secrets out of every text a person sees.

mod as_metadata;
mod authorize;
mod cards;
mod challenge;
mod checks;
mod discovery;
mod dpop;
mod error;
mod flow;
mod grants;
mod jwt;
mod mask;
mod pkce;
mod probe;
mod registration;
mod restart;
mod state;
mod token;
mod types;
pub mod url;

/// The most bytes of one OAuth answer (metadata, registration, token) a driver
/// reads: real documents are a few kilobytes, and a hostile server must not make
/// the CLI or the page hold an endless body. Drivers stop reading past it and
/// report [`AuthResponse::TooLarge`]; the flow refuses a longer body either way.
pub const MAX_ANSWER_BYTES: usize = 1024 * 1024;

pub use challenge::{BearerChallenge, parse_www_authenticate};
pub use dpop::DpopKey;
pub use error::AuthError;
pub use flow::AuthFlow;
pub use mask::mask;
pub use probe::{PROBE_MAX_REQUESTS, Probe, Probed};
pub use types::{
    AuthConfig, AuthEvent, AuthRequest, AuthResponse, ClientIdentity, Exchange, Finding, Step,
    Tokens,
};
