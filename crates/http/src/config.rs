//! What a machine needs to know about its endpoint.

use std::time::Duration;

/// One MCP endpoint and the bounds the machine keeps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpConfig {
    /// The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`.
    pub url: String,
    /// Extra headers for every request (e.g. `Authorization`).
    pub headers: Vec<(String, String)>,
    /// Largest JSON body (or error body) accepted.
    pub max_body: usize,
    /// Largest SSE event (and SSE line) accepted.
    pub max_event: usize,
    /// How many times a cut SSE answer is resumed before the request fails.
    pub max_resumes: u32,
    /// Resume delay when the server gave no `retry`.
    pub default_retry: Duration,
    /// Upper bound on the resume delay, whatever the server asks.
    pub max_retry: Duration,
    /// How long a notification's or response's POST (and the DELETE) may take, and
    /// how long later messages wait behind it or behind the GET stream opening.
    pub one_way_timeout: Duration,
    /// Open the standalone GET stream once a session is initialized (2025-03-26 …
    /// 2025-11-25), for server messages that belong to no request.
    pub listen: bool,
    /// Hold a request the server refused for want of authorization (401, or 403
    /// with `error="insufficient_scope"`) instead of failing it: the machine emits
    /// [`crate::HttpEvent::Unauthorized`] once and keeps that request and every later
    /// message until [`crate::HttpMachine::resume`] or [`crate::HttpMachine::give_up`].
    /// Off by default (a 401 fails the request as `SendFailure::Rejected`).
    pub hold_unauthorized: bool,
    /// `url` is the bridge's relay (`/relay/NAME`): the old transport's `endpoint`
    /// event is not resolved here but POSTed to as `url?endpoint=…`, and the bridge
    /// resolves it against the remote's configured URL (same origin only).
    pub via_relay: bool,
    /// Which transport to speak: Streamable HTTP (the default here; the page and
    /// the CLI ask for `Auto`), the old HTTP+SSE transport
    /// (2024-11-05), or `Auto` (Streamable HTTP first, the old one on 400/404/405).
    pub transport: Transport,
}

/// The transports the machine speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Transport {
    /// POST `initialize` as Streamable HTTP; if that answers 400, 404 or 405, GET
    /// the URL as the old HTTP+SSE transport (the spec's backwards-compatibility
    /// order).
    Auto,
    /// Streamable HTTP (2025-03-26 and later).
    #[default]
    StreamableHttp,
    /// The deprecated HTTP+SSE transport (2024-11-05): a GET stream whose first
    /// event names the URL to POST messages to.
    Sse,
}

impl Transport {
    /// How a person names it (`auto`, `streamable-http`, `sse`).
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Auto => "auto",
            Transport::StreamableHttp => "streamable-http",
            Transport::Sse => "sse",
        }
    }
}

impl HttpConfig {
    /// Defaults for `url` (32 MiB bodies and events, 5 resumes, 1 s retry capped at 10 s).
    pub fn new(url: impl Into<String>) -> Self {
        HttpConfig {
            url: url.into(),
            headers: Vec::new(),
            max_body: 32 << 20,
            max_event: 32 << 20,
            max_resumes: 5,
            default_retry: Duration::from_secs(1),
            max_retry: Duration::from_secs(10),
            one_way_timeout: Duration::from_secs(30),
            listen: true,
            hold_unauthorized: false,
            via_relay: false,
            transport: Transport::StreamableHttp,
        }
    }
}
