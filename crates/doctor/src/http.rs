//! The HTTP layer: the status and content type of a POSTed MCP request, the same
//! POST with a narrower `Accept`, and a CORS preflight from the page's origin.

use crate::check::{Check, Finding};

/// The `Accept` a Streamable HTTP client must send with a POST.
pub const ACCEPT: &str = "application/json, text/event-stream";

/// What one POST's answer showed (its body is not needed).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PostSeen {
    /// The HTTP status.
    pub status: u16,
    /// `Content-Type`, when sent.
    pub content_type: Option<String>,
    /// `Location`, when sent (a redirect).
    pub location: Option<String>,
    /// `WWW-Authenticate`, when sent (a 401).
    pub www_authenticate: Option<String>,
}

impl PostSeen {
    /// Whether the server wants a sign-in (401).
    pub fn wants_sign_in(&self) -> bool {
        self.status == 401
    }

    /// The media type, lower case, without parameters.
    fn media_type(&self) -> String {
        self.content_type
            .as_deref()
            .and_then(|c| c.split(';').next())
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase()
    }
}

/// Judges the POST of an MCP request sent with [`ACCEPT`].
pub fn post(seen: &PostSeen) -> Finding {
    let status = seen.status;
    let media = seen.media_type();
    let shown = if media.is_empty() {
        "no content type".to_owned()
    } else {
        media.clone()
    };
    match status {
        200..=299 if media == "application/json" || media == "text/event-stream" => {
            Finding::pass(Check::Post, format!("HTTP {status}, {shown}"))
        }
        202 => Finding::fail(
            Check::Post,
            "HTTP 202 with no body to a request: a request must be answered",
            "Streamable HTTP answers a POSTed request with application/json or \
             text/event-stream; 202 is for notifications and responses only.",
        ),
        200..=299 => Finding::fail(
            Check::Post,
            format!("HTTP {status} with {shown}"),
            "Streamable HTTP answers a POSTed request with application/json or \
             text/event-stream: check that the URL is the MCP endpoint (often /mcp), not a web page.",
        ),
        300..=399 => Finding::fail(
            Check::Post,
            format!(
                "HTTP {status}, a redirect to {}",
                seen.location.as_deref().unwrap_or("(no Location)")
            ),
            "Clients do not follow redirects on a POST: use the URL it redirects to.",
        ),
        401 => Finding::pass(
            Check::Post,
            "HTTP 401: the server wants a sign-in (see sign-in discovery)",
        ),
        404 | 405 => Finding::warn(
            Check::Post,
            format!("HTTP {status} to a POST"),
            "Check the path (Streamable HTTP servers often serve /mcp). A server on the old \
             HTTP+SSE transport (2024-11-05) answers a POST like this: connect with \
             `--transport sse` (or auto, which falls back to it).",
        ),
        406 => Finding::fail(
            Check::Post,
            format!("HTTP 406 Not Acceptable although the POST sent Accept: {ACCEPT}"),
            "The server (or a proxy before it) refuses the Accept header the spec asks \
             clients to send: it must accept both application/json and text/event-stream.",
        ),
        403 => Finding::fail(
            Check::Post,
            "HTTP 403 Forbidden",
            "The server refuses this client outright: check its allowed hosts or origins \
             (DNS-rebinding protection) and any API key it expects (`--header`).",
        ),
        400..=499 => Finding::warn(
            Check::Post,
            format!("HTTP {status} to an initialize request"),
            "The server refused the request at the HTTP level; the handshake checks below \
             show what it says in JSON-RPC.",
        ),
        _ => Finding::fail(
            Check::Post,
            format!("HTTP {status}"),
            "The server failed: read its logs.",
        ),
    }
}

/// Judges the POST sent with `Accept: application/json` alone, beside `full`,
/// the same POST with [`ACCEPT`] (only a server that took that one tells
/// anything by refusing this one).
pub fn accept(full: &PostSeen, seen: &PostSeen) -> Finding {
    if !(200..300).contains(&full.status) {
        return Finding::skip(
            Check::Accept,
            format!(
                "the POST with the full Accept got HTTP {}: nothing to compare",
                full.status
            ),
        );
    }
    if seen.status == 406 {
        Finding::pass(
            Check::Accept,
            format!(
                "HTTP 406: the server insists on Accept: {ACCEPT} (strict, as the spec allows); \
                 a hand-written client or a proxy that drops text/event-stream gets this 406"
            ),
        )
    } else {
        Finding::pass(
            Check::Accept,
            format!(
                "HTTP {}: the server does not insist on text/event-stream in Accept",
                seen.status
            ),
        )
    }
}

/// What a CORS preflight (`OPTIONS` with `Origin`, `Access-Control-Request-Method:
/// POST` and [`PREFLIGHT_HEADERS`]) was answered with.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CorsSeen {
    /// The HTTP status.
    pub status: u16,
    /// `Access-Control-Allow-Origin`.
    pub allow_origin: Option<String>,
    /// `Access-Control-Allow-Methods`.
    pub allow_methods: Option<String>,
    /// `Access-Control-Allow-Headers`.
    pub allow_headers: Option<String>,
}

/// The request headers the page sends that need a preflight.
pub const PREFLIGHT_HEADERS: &str = "content-type, mcp-protocol-version";

/// The fix for a server the page cannot reach itself: the bridge's relay.
pub fn relay_fix(url: &str) -> String {
    format!(
        "Run the bridge, `mcpg serve --config bridge.toml`, with the server as a remote \
         ([[remote]] name = \"my-remote\", url = \"{url}\"): the page reaches it through the \
         bridge's /relay/my-remote, which answers CORS itself. Or make the server send \
         Access-Control-Allow-Origin for the page's origin (and allow the headers \
         {PREFLIGHT_HEADERS}, expose mcp-session-id)."
    )
}

/// Judges the preflight a page at `origin` would send before POSTing to `url`.
pub fn cors(url: &str, origin: &str, seen: &CorsSeen) -> Finding {
    let allows = |list: &Option<String>, want: &str| {
        list.as_deref().is_some_and(|l| {
            l.split(',')
                .map(str::trim)
                .any(|x| x == "*" || x.eq_ignore_ascii_case(want))
        })
    };
    let origin_ok = seen
        .allow_origin
        .as_deref()
        .is_some_and(|o| o.trim() == "*" || o.trim() == origin);
    let status_ok = (200..300).contains(&seen.status);
    let missing_headers: Vec<&str> = PREFLIGHT_HEADERS
        .split(", ")
        .filter(|h| !allows(&seen.allow_headers, h))
        .collect();
    // A preflight answer without Allow-Methods still allows the simple methods
    // only; POST is one, so its absence is fine.
    let method_ok = seen.allow_methods.is_none() || allows(&seen.allow_methods, "POST");
    if status_ok && origin_ok && method_ok && missing_headers.is_empty() {
        return Finding::pass(
            Check::Cors,
            format!(
                "the preflight from {origin} is allowed (HTTP {})",
                seen.status
            ),
        );
    }
    let why = if !status_ok {
        format!("the preflight from {origin} got HTTP {}", seen.status)
    } else if !origin_ok {
        match &seen.allow_origin {
            None => format!("the preflight from {origin} got no Access-Control-Allow-Origin"),
            Some(o) => format!("Access-Control-Allow-Origin is {o:?}, not {origin}"),
        }
    } else if !method_ok {
        "Access-Control-Allow-Methods does not allow POST".to_owned()
    } else {
        format!(
            "Access-Control-Allow-Headers does not allow {}",
            missing_headers.join(", ")
        )
    };
    // A warning: every native client works; only the page cannot reach the server
    // from the browser on its own.
    Finding::warn(
        Check::Cors,
        format!("{why}: the page cannot reach this server from the browser"),
        relay_fix(url),
    )
}
