//! An incremental parser for `text/event-stream` (the WHATWG "server-sent events"
//! format): bytes go in as they arrive from the network, complete events come out.
//!
//! Written here rather than pulled in because the transport needs exactly the parts
//! MCP relies on (`id` for resumption, `retry` for the reconnect delay, multi-line
//! `data`) and must bound memory against a server that never ends a line.

use std::time::Duration;

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field (`"message"` when absent).
    pub event: Option<String>,
    /// The `data` lines joined with `\n`.
    pub data: String,
    /// The `id` field of this event, if it carried one.
    pub id: Option<String>,
}

/// Why the stream can no longer be parsed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    /// A line or an event grew beyond the configured bound.
    #[error("an SSE event exceeded {0} bytes")]
    TooLarge(usize),
}

/// The parser state for one stream.
#[derive(Debug)]
pub struct SseParser {
    /// Bytes of the line being read.
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a following `\n` belongs to the same line end.
    after_cr: bool,
    /// Whether the first line was seen (a leading BOM is dropped only there).
    started: bool,
    event: Option<String>,
    data: String,
    has_data: bool,
    event_id: Option<String>,
    /// The last event id seen on the stream (persists across events, as the spec says).
    last_id: Option<String>,
    retry: Option<Duration>,
    max_event: usize,
    ready: Vec<SseEvent>,
}

impl SseParser {
    /// A parser that refuses events (or lines) larger than `max_event` bytes.
    pub fn new(max_event: usize) -> Self {
        SseParser {
            line: Vec::new(),
            after_cr: false,
            started: false,
            event: None,
            data: String::new(),
            has_data: false,
            event_id: None,
            last_id: None,
            retry: None,
            max_event,
            ready: Vec::new(),
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

    /// Feeds bytes; returns the events completed by them, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        for &b in bytes {
            match b {
                b'\n' if self.after_cr => self.after_cr = false,
                b'\r' | b'\n' => {
                    self.after_cr = b == b'\r';
                    self.end_line()?;
                }
                _ => {
                    self.after_cr = false;
                    if self.line.len() >= self.max_event {
                        return Err(SseError::TooLarge(self.max_event));
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(std::mem::take(&mut self.ready))
    }

    fn end_line(&mut self) -> Result<(), SseError> {
        let mut raw = std::mem::take(&mut self.line);
        if !self.started {
            self.started = true;
            if raw.starts_with(&[0xEF, 0xBB, 0xBF]) {
                raw.drain(..3);
            }
        }
        let line = String::from_utf8_lossy(&raw);
        if line.is_empty() {
            self.dispatch();
            return Ok(());
        }
        if line.starts_with(':') {
            return Ok(()); // a comment (often a keep-alive)
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => self.event = Some(value.to_owned()),
            "data" => {
                if self.data.len() + value.len() + 1 > self.max_event {
                    return Err(SseError::TooLarge(self.max_event));
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            // An id containing NUL is ignored, per the spec.
            "id" if !value.contains('\0') => {
                self.event_id = Some(value.to_owned());
                self.last_id = Some(value.to_owned());
            }
            "retry" if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                if let Ok(ms) = value.parse::<u64>() {
                    self.retry = Some(Duration::from_millis(ms));
                }
            }
            _ => {} // unknown fields are ignored
        }
        Ok(())
    }

    fn dispatch(&mut self) {
        let event = self.event.take();
        let id = self.event_id.take();
        if !self.has_data && id.is_none() && event.is_none() {
            return;
        }
        let data = std::mem::take(&mut self.data);
        self.has_data = false;
        self.ready.push(SseEvent { event, data, id });
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

    #[test]
    fn fields_multiline_data_and_ids() {
        let (events, p) = parse_all(&[
            b"id: 1\ndata:\n\nevent: message\nda",
            b"ta: {\"a\":\ndata: 1}\nid: 2\n\n: ping\n\n",
        ]);
        assert_eq!(events.len(), 2);
        assert_eq!(
            events[0],
            SseEvent {
                event: None,
                data: String::new(),
                id: Some("1".into())
            }
        );
        assert_eq!(events[1].data, "{\"a\":\n1}");
        assert_eq!(events[1].event.as_deref(), Some("message"));
        assert_eq!(p.last_event_id(), Some("2"));
    }

    #[test]
    fn crlf_split_across_chunks_and_retry() {
        let (events, p) = parse_all(&[b"\xEF\xBB\xBFretry: 250\r", b"\ndata: x\r", b"\n\r", b"\n"]);
        assert_eq!(
            events,
            vec![SseEvent {
                event: None,
                data: "x".into(),
                id: None
            }]
        );
        assert_eq!(p.retry(), Some(Duration::from_millis(250)));
        let (_, p) = parse_all(&[b"retry: 2s\n\n"]);
        assert_eq!(p.retry(), None, "a non-numeric retry is ignored");
    }

    #[test]
    fn unterminated_event_is_not_dispatched_and_size_is_bounded() {
        let (events, _) = parse_all(&[b"data: half"]);
        assert!(events.is_empty());
        let mut p = SseParser::new(8);
        assert_eq!(p.feed(b"data: 0123456789\n"), Err(SseError::TooLarge(8)));
    }
}
