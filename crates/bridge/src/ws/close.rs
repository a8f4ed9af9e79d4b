//! Close frames: codes and reasons that fit the protocol's 123-byte limit.

use axum::extract::ws::{CloseFrame, Message};

/// Normal closure.
pub(crate) const NORMAL: u16 = 1000;
/// The bridge is going away.
pub(crate) const GOING_AWAY: u16 = 1001;
/// A frame type MCP does not use (binary).
pub(crate) const UNSUPPORTED: u16 = 1003;
/// A policy was broken (the server stopped reading while the page kept sending).
pub(crate) const POLICY: u16 = 1008;
/// A message over the size limit.
pub(crate) const TOO_BIG: u16 = 1009;
/// The server failed (did not start, or ended with an error).
pub(crate) const SERVER_ERROR: u16 = 1011;

/// The longest reason a close frame may carry, in bytes.
pub(crate) const MAX_REASON: usize = 123;

/// `reason` cut to fit a close frame, at a character boundary, with `…` when cut.
pub(crate) fn fit_reason(reason: &str) -> String {
    if reason.len() <= MAX_REASON {
        return reason.to_owned();
    }
    let room = MAX_REASON - '…'.len_utf8();
    let mut end = room;
    while !reason.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &reason[..end])
}

/// A close message.
pub(crate) fn frame(code: u16, reason: &str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: fit_reason(reason).into(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_cut_to_123_bytes_on_a_char_boundary() {
        assert_eq!(fit_reason("short"), "short");
        let long = "é".repeat(100);
        let cut = fit_reason(&long);
        assert!(cut.len() <= MAX_REASON, "{}", cut.len());
        assert!(cut.ends_with('…'));
        assert_eq!(fit_reason(&"a".repeat(123)).len(), 123);
    }
}
