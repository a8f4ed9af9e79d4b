//! The checks a loopback server on a real port makes before it reads a request,
//! one set for both (`HttpDemo` and the recorded-session mock, `HttpMock`): DNS
//! rebinding (`Host`, `Origin`), then for a POST the body's size, its type and the
//! client's `Accept`.

use crate::Answer;
use crate::refusals::{accepts, rpc_error};

/// The largest body accepted; a larger one is 413. The demo's own inputs are small.
pub const MAX_BODY: usize = 4 << 20;

/// One request as the I/O layer read it.
#[derive(Clone, Copy, Debug)]
pub struct HttpRequest<'a> {
    /// `GET`, `POST`, `DELETE`, ...
    pub method: &'a str,
    /// The path (no query).
    pub path: &'a str,
    /// Headers as sent (names in any case).
    pub headers: &'a [(&'a str, &'a str)],
    /// The body (at most [`MAX_BODY`] + 1 bytes: the I/O layer stops reading there).
    pub body: &'a [u8],
}

impl<'a> HttpRequest<'a> {
    /// One header by name, compared without case.
    pub(crate) fn header(&self, name: &str) -> Option<&'a str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| *v)
    }
}

/// The path the demo is served at.
pub const PATH: &str = "/mcp";

/// 421 for a `Host` not in `hosts`, 403 for an `Origin` not in `origins` (no
/// `Origin`: not a browser, it passes).
pub(crate) fn rebinding(
    hosts: &[String],
    origins: &[String],
    req: &HttpRequest<'_>,
) -> Option<Answer> {
    let host_ok = req
        .header("host")
        .is_some_and(|h| hosts.iter().any(|ok| ok.eq_ignore_ascii_case(h)));
    if !host_ok {
        return Some(Answer::text(
            421,
            "Misdirected Request: the Host is not this server (DNS rebinding protection)",
        ));
    }
    let origin_ok = req
        .header("origin")
        .is_none_or(|o| origins.iter().any(|ok| ok.eq_ignore_ascii_case(o)));
    (!origin_ok).then(|| Answer::text(403, "Forbidden: this Origin may not use the server"))
}

/// 413 past [`MAX_BODY`], 415 for a body that is not `application/json`, 406 when
/// `Accept` does not admit both JSON and an event stream.
pub(crate) fn post(req: &HttpRequest<'_>) -> Option<Answer> {
    if req.body.len() > MAX_BODY {
        return Some(too_large());
    }
    let json = req
        .header("content-type")
        .and_then(|c| c.split(';').next())
        .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Some(rpc_error(
            415,
            -32600,
            "Content-Type must be application/json",
        ));
    }
    let accept = req.header("accept").unwrap_or_default();
    if !(accepts(accept, "application/json") && accepts(accept, "text/event-stream")) {
        return Some(rpc_error(
            406,
            -32600,
            "Accept must include both application/json and text/event-stream",
        ));
    }
    None
}

/// 413: the body is past [`MAX_BODY`].
pub(crate) fn too_large() -> Answer {
    rpc_error(
        413,
        -32600,
        "the body is larger than this server accepts (4 MiB)",
    )
}
