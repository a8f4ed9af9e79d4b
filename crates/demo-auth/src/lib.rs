//! The demo server behind OAuth, played in-process: a protected resource (the
//! demo's tools over Streamable HTTP, refused without a bearer token) and the
//! authorization server that issues that token (RFC 8414 metadata, RFC 7591
//! registration, the authorization endpoint with PKCE S256, the token endpoint).
//!
//! The page answers requests to [`RESOURCE_ORIGIN`] and [`ISSUER`] with
//! [`ProtectedDemo::answer`] instead of the network, and shows the authorization
//! server's consent itself ([`ProtectedDemo::consent`]) instead of a sign-in
//! window: the OAuth lesson runs from a static page, offline, the same way the
//! real flow runs. Both hosts are under `.invalid` (RFC 2606), which no resolver
//! answers: a request that missed the page's routing goes nowhere.
//!
//! Like the demo it does no I/O and reads no clock: codes and tokens are numbered,
//! not random (they never leave the page, and the flow masks them in its cards).

mod authorize;
mod form;
mod issuer;
mod resource;

use mcpg_core::Timestamp;

pub use authorize::ConsentError;
use issuer::Issuer;
use resource::Resource;

/// The protected MCP endpoint.
pub const RESOURCE_URL: &str = "https://mcp.demo-oauth.invalid/mcp";
/// The protected resource's origin.
pub const RESOURCE_ORIGIN: &str = "https://mcp.demo-oauth.invalid";
/// The authorization server's issuer (and origin).
pub const ISSUER: &str = "https://auth.demo-oauth.invalid";
/// The one scope the resource asks for.
pub const SCOPE: &str = "weather:read";

/// One HTTP request, as the page's fetch would have made it.
#[derive(Clone, Copy, Debug)]
pub struct Request<'a> {
    /// `GET`, `POST`, `DELETE`.
    pub method: &'a str,
    /// The full URL.
    pub url: &'a str,
    /// The headers, as sent.
    pub headers: &'a [(String, String)],
    /// The body, if any.
    pub body: Option<&'a str>,
}

impl Request<'_> {
    /// The first header named `name` (any case).
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The answer the page hands back as the network's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// HTTP status.
    pub status: u16,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Answer {
    fn json(status: u16, body: &serde_json::Value) -> Answer {
        Answer {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
        }
    }

    fn empty(status: u16) -> Answer {
        Answer {
            status,
            headers: Vec::new(),
            body: String::new(),
        }
    }

    fn not_found() -> Answer {
        Answer::json(404, &serde_json::json!({"error": "not_found"}))
    }
}

/// Whether `url` is one the page answers with [`ProtectedDemo::answer`] (the
/// resource's or the authorization server's origin, exactly).
pub fn is_in_page(url: &str) -> bool {
    origin_of(url).is_some_and(|o| o == RESOURCE_ORIGIN || o == ISSUER)
}

/// `url`'s origin (`scheme://host[:port]`), if it parses.
fn origin_of(url: &str) -> Option<String> {
    url::Url::parse(url)
        .ok()
        .map(|u| u.origin().ascii_serialization())
}

/// The protected resource and its authorization server, with their state (the
/// clients registered, codes, tokens, the demo's session).
#[derive(Debug, Default)]
pub struct ProtectedDemo {
    issuer: Issuer,
    resource: Resource,
}

impl ProtectedDemo {
    /// Nothing registered, no token issued.
    pub fn new() -> ProtectedDemo {
        ProtectedDemo::default()
    }

    /// Answers one request to either origin (anything else: 404).
    pub fn answer(&mut self, now: Timestamp, req: &Request<'_>) -> Answer {
        let Ok(url) = url::Url::parse(req.url) else {
            return Answer::not_found();
        };
        let origin = url.origin().ascii_serialization();
        if origin == ISSUER {
            self.issuer.answer(req, &url)
        } else if origin == RESOURCE_ORIGIN {
            self.resource.answer(now, req, &url, &self.issuer)
        } else {
            Answer::not_found()
        }
    }

    /// The learner's answer on the authorization server's consent screen for the
    /// authorization URL `url`: the redirect the browser would follow (to the
    /// client's registered redirect URI, with `code`, or `error=access_denied`,
    /// and `state` and `iss`). A URL the server cannot accept is an error, shown
    /// on the consent screen, as a real server shows it instead of redirecting.
    pub fn consent(&mut self, url: &str, approve: bool) -> Result<String, ConsentError> {
        self.issuer.consent(url, approve)
    }

    /// What the consent screen shows for `url`: the client's name and the scope
    /// asked for.
    pub fn consent_screen(&self, url: &str) -> Result<authorize::Screen, ConsentError> {
        self.issuer.screen(url)
    }
}

pub use authorize::Screen;
