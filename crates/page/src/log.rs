//! The wire log: a bounded ring of rows. Appending is O(1) (the oldest row falls out
//! when full, and is counted); nothing clones the log to add a row, and the counts the
//! view needs are kept, never recounted.

use std::collections::VecDeque;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::view::LogMeta;

/// How many rows the page keeps by default.
pub const LOG_CAPACITY: usize = 5_000;

/// One row of the wire log.
#[derive(Clone, Debug, PartialEq)]
pub enum LogRow {
    /// A JSON-RPC frame.
    Wire {
        /// Row number (unique for the page's life).
        seq: u64,
        /// Sent by the page.
        sent: bool,
        /// Milliseconds since the connection started.
        at_ms: u64,
        /// Bytes.
        size: usize,
        /// "tools/list", "result of tools/list", "error -32602 on tools/call"…
        summary: String,
        /// The exact text.
        raw: Arc<str>,
    },
    /// A message between a hosted view and the host (MCP Apps): neither over MCP
    /// nor inside the host, its own lane.
    App {
        /// Row number.
        seq: u64,
        /// Sent by the host, to the view (else from it).
        sent: bool,
        /// Milliseconds since the connection started.
        at_ms: u64,
        /// Bytes.
        size: usize,
        /// "ui/initialize", "result of ui/initialize"…
        summary: String,
        /// The exact text.
        raw: Arc<str>,
    },
    /// A finding of the core.
    Diag {
        /// Row number.
        seq: u64,
        /// "error", "warning", "info".
        severity: String,
        /// Rule id.
        rule: String,
        /// Words.
        message: String,
    },
    /// A line the server wrote to stderr (bridge servers).
    Stderr {
        /// Row number.
        seq: u64,
        /// The line.
        line: String,
    },
    /// Something about the connection, the loop or the driver.
    Note {
        /// Row number.
        seq: u64,
        /// Words.
        text: String,
    },
}

impl LogRow {
    /// The row number (the list's key).
    pub fn seq(&self) -> u64 {
        match self {
            LogRow::Wire { seq, .. }
            | LogRow::App { seq, .. }
            | LogRow::Diag { seq, .. }
            | LogRow::Stderr { seq, .. }
            | LogRow::Note { seq, .. } => *seq,
        }
    }

    /// The row as JSON, for the export.
    pub fn to_json(&self) -> Value {
        match self {
            LogRow::Wire {
                seq,
                sent,
                at_ms,
                size,
                summary,
                raw,
            }
            | LogRow::App {
                seq,
                sent,
                at_ms,
                size,
                summary,
                raw,
            } => json!({
                "seq": seq, "kind": if matches!(self, LogRow::App { .. }) { "app" } else { "wire" },
                "direction": if *sent { "sent" } else { "received" },
                "at_ms": at_ms, "size": size, "summary": summary, "text": &**raw,
            }),
            LogRow::Diag {
                seq,
                severity,
                rule,
                message,
            } => {
                json!({"seq": seq, "kind": "diagnostic", "severity": severity, "rule": rule, "message": message})
            }
            LogRow::Stderr { seq, line } => json!({"seq": seq, "kind": "stderr", "line": line}),
            LogRow::Note { seq, text } => json!({"seq": seq, "kind": "note", "text": text}),
        }
    }
}

/// The bounded log.
#[derive(Clone, Debug)]
pub struct WireLog {
    rows: VecDeque<LogRow>,
    capacity: usize,
    dropped: u64,
    next_seq: u64,
    frames: u64,
    bytes: u64,
    diags: u64,
}

impl Default for WireLog {
    fn default() -> Self {
        WireLog::with_capacity(LOG_CAPACITY)
    }
}

impl WireLog {
    /// An empty log keeping at most `capacity` rows (at least one).
    pub fn with_capacity(capacity: usize) -> WireLog {
        let capacity = capacity.max(1);
        WireLog {
            rows: VecDeque::with_capacity(capacity.min(1024)),
            capacity,
            dropped: 0,
            next_seq: 1,
            frames: 0,
            bytes: 0,
            diags: 0,
        }
    }

    /// The number the next row gets.
    pub fn next_seq(&mut self) -> u64 {
        let s = self.next_seq;
        self.next_seq += 1;
        s
    }

    /// Appends a note (the page's own words in the log).
    pub(crate) fn note(&mut self, text: String) {
        let seq = self.next_seq();
        self.push(LogRow::Note { seq, text });
    }

    /// Appends a message between a view and the host (its summary worked out by
    /// the caller).
    pub(crate) fn app(&mut self, from_view: bool, at_ms: u64, summary: String, raw: Arc<str>) {
        let seq = self.next_seq();
        self.push(LogRow::App {
            seq,
            sent: !from_view,
            at_ms,
            size: raw.len(),
            summary,
            raw,
        });
    }

    /// Appends a row, dropping the oldest when full.
    pub fn push(&mut self, row: LogRow) {
        if self.rows.len() == self.capacity {
            self.rows.pop_front();
            self.dropped += 1;
        }
        match &row {
            LogRow::Wire { size, .. } => {
                self.frames += 1;
                self.bytes += *size as u64;
            }
            LogRow::Diag { .. } => self.diags += 1,
            _ => {}
        }
        self.rows.push_back(row);
    }

    /// Forgets every row (row numbers keep counting up).
    pub fn clear(&mut self) {
        self.rows.clear();
        self.dropped = 0;
        self.frames = 0;
        self.bytes = 0;
        self.diags = 0;
    }

    /// Rows kept.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether no row is kept.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Rows dropped since the last clear.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The counts the view shows.
    pub fn meta(&self) -> LogMeta {
        LogMeta {
            len: self.rows.len(),
            dropped: self.dropped,
            appended: self.next_seq - 1,
            frames: self.frames,
            bytes: self.bytes,
            diags: self.diags,
            unrecorded: crate::view::Unrecorded::default(),
        }
    }

    /// Rows `from..to` of the kept ones (oldest is 0), clamped to what is there.
    pub fn rows(&self, from: usize, to: usize) -> Vec<LogRow> {
        let to = to.min(self.rows.len());
        let from = from.min(to);
        self.rows.range(from..to).cloned().collect()
    }

    /// Every kept row, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &LogRow> {
        self.rows.iter()
    }

    /// The whole kept log as JSON: `{"dropped": n, "rows": [...]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "dropped": self.dropped,
            "kept": self.rows.len(),
            "rows": self.rows.iter().map(LogRow::to_json).collect::<Vec<_>>(),
        })
    }
}
