//! Faults below JSON-RPC that a transport reports as they happen, so that the
//! request they concern fails at once instead of timing out a minute later: a
//! message over the size limit (dropped unread), and bytes that are not UTF-8.

use std::sync::Arc;

use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::RequestId;
use crate::time::Timestamp;

use super::{Client, Direction, Failure};

impl Client {
    /// A message of `size` bytes was dropped because it exceeds `limit`; `head` is
    /// its first bytes. The request it most likely answered (the `"id"` in `head`,
    /// else the oldest pending request) fails at once with [`Failure::TooLarge`];
    /// a diagnostic and a wire-log note say what happened.
    /// An id in `head` that is not pending (a server request, a late answer) means
    /// the message answered nothing of ours: then no request fails.
    pub fn handle_oversized(&mut self, now: Timestamp, size: usize, limit: usize, head: &[u8]) {
        let id = match id_in_head(head) {
            Some(id) => Some(id).filter(|id| self.pending.contains_key(id)),
            None => self
                .pending
                .iter()
                .min_by_key(|(_, p)| p.op)
                .map(|(id, _)| id.clone()),
        };
        self.dropped_oversized(now, id, size, limit, head);
    }

    /// Like [`Client::handle_oversized`] when the transport knows which request the
    /// dropped message answered (HTTP: the POST it came back on).
    pub fn handle_oversized_answer(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        size: usize,
        limit: usize,
        head: &[u8],
    ) {
        let id = Some(id.clone()).filter(|id| self.pending.contains_key(id));
        self.dropped_oversized(now, id, size, limit, head);
    }

    fn dropped_oversized(
        &mut self,
        now: Timestamp,
        id: Option<RequestId>,
        size: usize,
        limit: usize,
        head: &[u8],
    ) {
        let shown = String::from_utf8_lossy(&head[..head.len().min(200)]).into_owned();
        self.wire(
            Direction::Received,
            now,
            Arc::from(format!(
                "[dropped: a message of {size} bytes over the {limit}-byte limit, starting {shown}]"
            )),
            None,
        );
        let whose = match &id {
            Some(id) => format!("; request {id} fails"),
            None => String::new(),
        };
        self.diag(
            Diagnostic::new(
                Rule::Oversized,
                Severity::Error,
                format!("the server sent a message of {size} bytes, over the {limit}-byte limit; it was dropped{whose}"),
            )
            .with_raw(Arc::from(shown)),
        );
        let Some(id) = id else { return };
        if let Some(p) = self.pending.remove(&id) {
            self.forget(&id, &p);
            self.on_failure(now, p, Failure::TooLarge { size, limit });
        }
    }

    /// Received bytes that may not be UTF-8. Valid text goes to
    /// [`Client::handle_text`]; otherwise a `not-utf8` diagnostic names the offset of
    /// the first bad byte and the lossy text is still handled.
    pub fn handle_bytes(&mut self, now: Timestamp, bytes: &[u8]) {
        match std::str::from_utf8(bytes) {
            Ok(text) => self.handle_text(now, text),
            Err(e) => {
                let at = e.valid_up_to();
                self.diag(Diagnostic::new(
                    Rule::NotUtf8,
                    Severity::Warning,
                    format!("the server sent bytes that are not UTF-8 (the first at offset {at}); read with U+FFFD in their place"),
                ));
                self.handle_text(now, &String::from_utf8_lossy(bytes));
            }
        }
    }
}

/// The `"id"` member near the start of a (cut) JSON-RPC message: a number or a
/// simple string. A scan, not a parse: the message is incomplete by definition.
fn id_in_head(head: &[u8]) -> Option<RequestId> {
    let text = String::from_utf8_lossy(head);
    let mut rest = text.as_ref();
    while let Some(i) = rest.find("\"id\"") {
        rest = &rest[i + 4..];
        let Some(value) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let value = value.trim_start();
        if let Some(s) = value.strip_prefix('"') {
            let end = s.find('"')?;
            return Some(RequestId::String(s[..end].to_owned()));
        }
        let digits: String = value
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        return digits.parse().ok().map(RequestId::Number);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_found_in_heads() {
        assert_eq!(
            id_in_head(br#"{"jsonrpc":"2.0","id":42,"result":{"#),
            Some(RequestId::Number(42))
        );
        assert_eq!(
            id_in_head(br#"{"result":{"x":1}, "id" : "a-1", "#),
            Some(RequestId::String("a-1".into()))
        );
        assert_eq!(id_in_head(br#"{"jsonrpc":"2.0","result":{"#), None);
    }
}
