//! Header names and the small checks on response headers.

/// The session header (2025-03-26 spells it `Mcp-Session-Id`; names are
/// case-insensitive).
pub(crate) const SESSION_ID: &str = "Mcp-Session-Id";
/// The protocol version header.
pub(crate) const PROTOCOL_VERSION: &str = "MCP-Protocol-Version";
/// `Accept` of every POST: the server picks JSON or SSE.
pub(crate) const ACCEPT_BOTH: &str = "application/json, text/event-stream";
/// `Accept` of the GETs.
pub(crate) const ACCEPT_SSE: &str = "text/event-stream";

/// The value of header `name` (case-insensitive), if present.
pub(crate) fn find<'a>(headers: &'a [(String, String)], name: &str) -> Option<&'a str> {
    headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// Whether the answer is an SSE stream.
pub(crate) fn is_event_stream(headers: &[(String, String)]) -> bool {
    find(headers, "content-type").is_some_and(|ct| {
        ct.trim_start()
            .to_ascii_lowercase()
            .starts_with("text/event-stream")
    })
}

/// A declared `Content-Length`.
pub(crate) fn content_length(headers: &[(String, String)]) -> Option<usize> {
    find(headers, "content-length").and_then(|v| v.trim().parse().ok())
}

/// The spec allows only visible ASCII in a session id; anything else cannot be
/// echoed safely.
pub(crate) fn valid_session(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

/// The first line of a body, at most 200 characters, for a notice.
pub(crate) fn first_line(s: &str) -> &str {
    let line = s.lines().next().unwrap_or("");
    match line.char_indices().nth(200) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}
