//! An incremental, bounded parser for `text/event-stream` (WHATWG server-sent
//! events): bytes go in as the network delivers them, complete events come out.
//!
//! Lines end in LF, CR or CRLF (also split across chunks). `data` stays bytes so the
//! machine can tell non-UTF-8 text apart instead of losing it. A line or an event
//! larger than the bound stops the parser with [`SseError::TooLarge`], which keeps
//! the first bytes so the caller can still name the request it answered.

use std::time::Duration;

/// How many bytes of an oversized event are kept for the caller.
pub const HEAD_KEPT: usize = 4096;

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field (`"message"` when absent).
    pub event: Option<String>,
    /// The `data` lines joined with `\n`, as bytes.
    pub data: Vec<u8>,
    /// The `id` field of this event, if it carried one.
    pub id: Option<String>,
}

/// Why the stream can no longer be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    /// A line or an event grew beyond the bound.
    #[error("an SSE event of at least {size} bytes exceeded the {limit}-byte limit")]
    TooLarge {
        /// Bytes of the event seen when reading stopped.
        size: usize,
        /// The bound.
        limit: usize,
        /// The event's first bytes (at most [`HEAD_KEPT`]).
        head: Vec<u8>,
    },
}

/// The parser state for one stream (kept across reconnections for `id`/`retry`).
#[derive(Clone, Debug)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a following `\n` belongs to the same line end.
    after_cr: bool,
    /// Whether the first line was seen (a leading BOM is dropped only there).
    started: bool,
    event: Option<String>,
    data: Vec<u8>,
    has_data: bool,
    event_id: Option<String>,
    /// The last event id seen (persists across events, as the spec says).
    last_id: Option<String>,
    retry: Option<Duration>,
    max_event: usize,
}

impl SseParser {
    /// A parser that refuses events (or lines) larger than `max_event` bytes.
    pub fn new(max_event: usize) -> Self {
        SseParser {
            line: Vec::new(),
            after_cr: false,
            started: false,
            event: None,
            data: Vec::new(),
            has_data: false,
            event_id: None,
            last_id: None,
            retry: None,
            max_event,
        }
    }

    /// The last event id the stream set (for `Last-Event-ID` when resuming).
    pub fn last_event_id(&self) -> Option<&str> {
        self.last_id.as_deref().filter(|s| !s.is_empty())
    }

    /// The reconnect delay the server asked for with `retry`, if it did.
    pub fn retry(&self) -> Option<Duration> {
        self.retry
    }

    /// Forgets a half-read line or event (the connection broke) but keeps the last
    /// event id and the retry delay, which a reconnection needs.
    pub fn reconnected(&mut self) {
        self.line.clear();
        self.after_cr = false;
        self.started = false;
        self.event = None;
        self.data.clear();
        self.has_data = false;
        self.event_id = None;
    }

    /// Feeds bytes; returns the events they completed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut ready = Vec::new();
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.after_cr && rest[0] == b'\n' {
                self.after_cr = false;
                rest = &rest[1..];
                continue;
            }
            self.after_cr = false;
            match rest.iter().position(|&b| b == b'\n' || b == b'\r') {
                Some(i) => {
                    self.push_line(&rest[..i])?;
                    self.after_cr = rest[i] == b'\r';
                    rest = &rest[i + 1..];
                    self.end_line(&mut ready)?;
                }
                None => {
                    self.push_line(rest)?;
                    rest = &[];
                }
            }
        }
        Ok(ready)
    }

    fn push_line(&mut self, part: &[u8]) -> Result<(), SseError> {
        if self.line.len() + part.len() > self.max_event {
            let mut head = self.data.clone();
            head.extend_from_slice(&self.line);
            head.extend_from_slice(part);
            return Err(self.too_large(head));
        }
        self.line.extend_from_slice(part);
        Ok(())
    }

    fn too_large(&self, mut seen: Vec<u8>) -> SseError {
        let size = seen.len();
        // The head of a `data:` line without its field name, so an `"id"` is in it.
        if let Some(rest) = seen.strip_prefix(b"data:") {
            seen = rest.to_vec();
        }
        seen.truncate(HEAD_KEPT);
        SseError::TooLarge {
            size,
            limit: self.max_event,
            head: seen,
        }
    }

    fn end_line(&mut self, ready: &mut Vec<SseEvent>) -> Result<(), SseError> {
        let mut raw = std::mem::take(&mut self.line);
        if !self.started {
            self.started = true;
            if raw.starts_with(&[0xEF, 0xBB, 0xBF]) {
                raw.drain(..3);
            }
        }
        if raw.is_empty() {
            self.dispatch(ready);
            return Ok(());
        }
        if raw[0] == b':' {
            return Ok(()); // a comment (often a keep-alive)
        }
        let (field, value) = match raw.iter().position(|&b| b == b':') {
            Some(i) => {
                let v = &raw[i + 1..];
                (&raw[..i], v.strip_prefix(b" ").unwrap_or(v))
            }
            None => (&raw[..], &[][..]),
        };
        match field {
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            b"data" => {
                if self.data.len() + value.len() + 1 > self.max_event {
                    let mut seen = std::mem::take(&mut self.data);
                    seen.push(b'\n');
                    seen.extend_from_slice(value);
                    return Err(self.too_large(seen));
                }
                if self.has_data {
                    self.data.push(b'\n');
                }
                self.data.extend_from_slice(value);
                self.has_data = true;
            }
            // An id containing NUL is ignored, per the spec.
            b"id" if !value.contains(&0) => {
                let id = String::from_utf8_lossy(value).into_owned();
                self.event_id = Some(id.clone());
                self.last_id = Some(id);
            }
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                if let Ok(ms) = String::from_utf8_lossy(value).parse::<u64>() {
                    self.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {} // unknown fields are ignored
        }
        Ok(())
    }

    fn dispatch(&mut self, ready: &mut Vec<SseEvent>) {
        let event = self.event.take();
        let id = self.event_id.take();
        if !self.has_data && id.is_none() && event.is_none() {
            return;
        }
        let data = std::mem::take(&mut self.data);
        self.has_data = false;
        ready.push(SseEvent { event, data, id });
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn parse_all(chunks: &[&[u8]]) -> (Vec<SseEvent>, SseParser) {
        let mut p = SseParser::new(1 << 20);
        let mut out = Vec::new();
        for c in chunks {
            out.extend(p.feed(c).unwrap());
        }
        (out, p)
    }

    fn datas(events: &[SseEvent]) -> Vec<&[u8]> {
        events.iter().map(|e| e.data.as_slice()).collect()
    }

    #[test]
    fn fields_multiline_data_ids_and_priming() {
        let (events, p) = parse_all(&[
            b"id: 1\ndata:\n\nevent: message\nda",
            b"ta: {\"a\":\ndata: 1}\nid: 2\n\n: ping\n\n",
        ]);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].id.as_deref(), Some("1"));
        assert!(events[0].data.is_empty(), "a priming event has empty data");
        assert_eq!(events[1].data, b"{\"a\":\n1}");
        assert_eq!(events[1].event.as_deref(), Some("message"));
        assert_eq!(p.last_event_id(), Some("2"));
    }

    #[test]
    fn lf_cr_and_crlf_line_ends_even_split_across_chunks() {
        for input in [
            &b"data: a\n\ndata: b\n\n"[..],
            b"data: a\r\rdata: b\r\r",
            b"data: a\r\n\r\ndata: b\r\n\r\n",
        ] {
            let whole = parse_all(&[input]).0;
            assert_eq!(datas(&whole), [&b"a"[..], b"b"], "{input:?}");
            for cut in 0..input.len() {
                let split = parse_all(&[&input[..cut], &input[cut..]]).0;
                assert_eq!(split, whole, "{input:?} cut at {cut}");
            }
        }
        let bytewise: Vec<&[u8]> = b"data: x\r\n\r\n".chunks(1).collect();
        assert_eq!(datas(&parse_all(&bytewise).0), [&b"x"[..]]);
    }

    #[test]
    fn bom_and_retry() {
        let (events, p) = parse_all(&[b"\xEF\xBB\xBFretry: 250\r", b"\ndata: x\r", b"\n\r", b"\n"]);
        assert_eq!(datas(&events), [&b"x"[..]]);
        assert_eq!(p.retry(), Some(Duration::from_millis(250)));
        let (_, p) = parse_all(&[b"retry: 2s\n\n"]);
        assert_eq!(p.retry(), None, "a non-numeric retry is ignored");
    }

    #[test]
    fn non_utf8_data_stays_bytes() {
        let (events, _) = parse_all(&[b"data: \xff\xfe ok\n\n"]);
        assert_eq!(events[0].data, b"\xff\xfe ok");
    }

    #[test]
    fn unterminated_event_waits_and_size_is_bounded() {
        let (events, _) = parse_all(&[b"data: half"]);
        assert!(events.is_empty());
        let mut p = SseParser::new(16);
        let err = p
            .feed(b"data: {\"id\":7,\"result\":\"0123456789\"}\n")
            .unwrap_err();
        let SseError::TooLarge { size, limit, head } = err;
        assert_eq!(limit, 16);
        assert!(size > 16);
        assert!(head.starts_with(b" {\"id\":7"), "{head:?}");
        // Many data lines, each small, still hit the bound.
        let mut p = SseParser::new(16);
        assert!(
            p.feed(b"data: 0123456\ndata: 0123456\ndata: 0123456\n")
                .is_err()
        );
    }
}
