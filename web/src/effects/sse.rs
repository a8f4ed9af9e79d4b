//! A small incremental parser for `text/event-stream` bodies (Streamable HTTP
//! responses): bytes in, complete events out. Only what MCP uses: `data`, `event`,
//! `id`, `retry`; comments and unknown fields are ignored, as the SSE spec says.

/// One complete event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// `event:` (defaults to "message").
    pub event: Option<String>,
    /// The data lines, joined with `\n`.
    pub data: String,
    /// `id:`.
    pub id: Option<String>,
}

/// Parser state between chunks.
#[derive(Debug, Default)]
pub struct SseParser {
    bytes: Vec<u8>,
    line: String,
    data: Vec<String>,
    event: Option<String>,
    id: Option<String>,
    has_fields: bool,
}

impl SseParser {
    /// Feeds a chunk of the body; returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        self.bytes.extend_from_slice(chunk);
        // Decode only whole UTF-8 sequences; a split character waits for the next chunk.
        let valid = match std::str::from_utf8(&self.bytes) {
            Ok(s) => s.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            // Invalid bytes: replace them rather than stall forever.
            Err(_) => self.bytes.len(),
        };
        let text = String::from_utf8_lossy(&self.bytes[..valid]).into_owned();
        self.bytes.drain(..valid);
        let mut out = Vec::new();
        for c in text.chars() {
            match c {
                '\n' => {
                    let line = std::mem::take(&mut self.line);
                    // `\r\n` endings: drop the `\r`.
                    let line = line.strip_suffix('\r').unwrap_or(&line).to_owned();
                    if let Some(ev) = self.line_done(&line) {
                        out.push(ev);
                    }
                }
                _ => self.line.push(c),
            }
        }
        out
    }

    fn line_done(&mut self, line: &str) -> Option<SseEvent> {
        if line.is_empty() {
            if !self.has_fields {
                return None;
            }
            self.has_fields = false;
            return Some(SseEvent {
                event: self.event.take(),
                data: std::mem::take(&mut self.data).join("\n"),
                id: self.id.take(),
            });
        }
        if line.starts_with(':') {
            return None;
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line, ""),
        };
        match field {
            "data" => self.data.push(value.to_owned()),
            "event" => self.event = Some(value.to_owned()),
            "id" => self.id = Some(value.to_owned()),
            _ => return None,
        }
        self.has_fields = true;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_across_chunks() {
        let mut p = SseParser::default();
        assert!(p.push(b"id: 0\nretry: 3000\ndata:\n\nevent: mess").len() == 1);
        let evs = p.push(b"age\ndata: {\"a\":\r\ndata: 1}\r\n\r\n");
        assert_eq!(
            evs,
            [SseEvent {
                event: Some("message".into()),
                data: "{\"a\":\n1}".into(),
                id: None
            }]
        );
    }

    #[test]
    fn split_utf8_and_comments() {
        let mut p = SseParser::default();
        let bytes = ": ping\ndata: é\n\n".as_bytes();
        let (a, b) = bytes.split_at(bytes.len() - 3);
        assert!(p.push(a).is_empty());
        let evs = p.push(b);
        assert_eq!(evs[0].data, "é");
    }
}
