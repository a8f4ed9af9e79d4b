//! The checks a loopback server on a real port makes before it reads a request,
//! for servers other than `HttpDemo` (today the recorded-session mock; `HttpDemo`
//! makes the same checks in `server.rs`): DNS rebinding (`Host`, `Origin`), then
//! for a POST the body's size, its type and the client's `Accept`.

use crate::Answer;
use crate::refusals::{accepts, rpc_error};
use crate::server::{HttpRequest, MAX_BODY};

/// One header of `req` by name, compared without case.
pub(crate) fn header<'a>(req: &HttpRequest<'a>, name: &str) -> Option<&'a str> {
    req.headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| *v)
}

/// 421 for a `Host` not in `hosts`, 403 for an `Origin` not in `origins` (no
/// `Origin`: not a browser, it passes).
pub(crate) fn rebinding(
    hosts: &[String],
    origins: &[String],
    req: &HttpRequest<'_>,
) -> Option<Answer> {
    let host_ok =
        header(req, "host").is_some_and(|h| hosts.iter().any(|ok| ok.eq_ignore_ascii_case(h)));
    if !host_ok {
        return Some(Answer::text(
            421,
            "Misdirected Request: the Host is not this server (DNS rebinding protection)",
        ));
    }
    let origin_ok =
        header(req, "origin").is_none_or(|o| origins.iter().any(|ok| ok.eq_ignore_ascii_case(o)));
    (!origin_ok).then(|| Answer::text(403, "Forbidden: this Origin may not use the server"))
}

/// 413 past [`MAX_BODY`], 415 for a body that is not `application/json`, 406 when
/// `Accept` does not admit both JSON and an event stream.
pub(crate) fn post(req: &HttpRequest<'_>) -> Option<Answer> {
    if req.body.len() > MAX_BODY {
        return Some(too_large());
    }
    let json = header(req, "content-type")
        .and_then(|c| c.split(';').next())
        .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Some(rpc_error(
            415,
            -32600,
            "Content-Type must be application/json",
        ));
    }
    let accept = header(req, "accept").unwrap_or_default();
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
