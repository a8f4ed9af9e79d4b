//! [`SideEvent`]: one event of the bridge's side channel.

use std::fmt;

use serde_json::{Map, Value, json};

use crate::json::{WireError, int, object, opt_int, parse, string};

/// One side-channel event, as JSON tagged by `type`
/// (`{"type":"stderr","line":"…"}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideEvent {
    /// The server process started.
    Spawned {
        /// The config name.
        server: String,
        /// Its process id.
        pid: u32,
    },
    /// One line the server wrote to stderr.
    Stderr {
        /// The text, without the line ending.
        line: String,
    },
    /// The server process ended (and was reaped).
    Exit {
        /// Exit code, when it exited.
        code: Option<i32>,
        /// Signal number, when a signal ended it.
        signal: Option<i32>,
    },
    /// Something the user should know: failed to start, limit reached, junk…
    Error {
        /// In words.
        message: String,
    },
    /// This many events were lost before the next one (the reader fell behind).
    Dropped {
        /// How many.
        count: u64,
    },
    /// The bridge dropped some of the server's stdout: the page was not reading it
    /// and the queue reached its byte ceiling (memory stays bounded; the server is
    /// never blocked by a stalled page).
    OutputDropped {
        /// How many bytes of output were dropped.
        bytes: u64,
        /// In how many lines.
        lines: u64,
    },
}

impl SideEvent {
    /// The event as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            SideEvent::Spawned { server, pid } => {
                json!({ "type": "spawned", "server": server, "pid": pid })
            }
            SideEvent::Stderr { line } => json!({ "type": "stderr", "line": line }),
            SideEvent::Exit { code, signal } => {
                json!({ "type": "exit", "code": code, "signal": signal })
            }
            SideEvent::Error { message } => json!({ "type": "error", "message": message }),
            SideEvent::Dropped { count } => json!({ "type": "dropped", "count": count }),
            SideEvent::OutputDropped { bytes, lines } => {
                json!({ "type": "output_dropped", "bytes": bytes, "lines": lines })
            }
        }
    }

    /// Reads an event from JSON.
    pub fn from_json(v: &Value) -> Result<Self, WireError> {
        let o: &Map<String, Value> = object(v)?;
        let kind = string(o, "type")?;
        Ok(match kind.as_str() {
            "spawned" => SideEvent::Spawned {
                server: string(o, "server")?,
                pid: int(o, "pid")?,
            },
            "stderr" => SideEvent::Stderr {
                line: string(o, "line")?,
            },
            "exit" => SideEvent::Exit {
                code: opt_int(o, "code")?,
                signal: opt_int(o, "signal")?,
            },
            "error" => SideEvent::Error {
                message: string(o, "message")?,
            },
            "dropped" => SideEvent::Dropped {
                count: int(o, "count")?,
            },
            "output_dropped" => SideEvent::OutputDropped {
                bytes: int(o, "bytes")?,
                lines: int(o, "lines")?,
            },
            _ => return Err(WireError::UnknownType(kind)),
        })
    }

    /// Reads an event from the text of one SSE `data` field.
    pub fn parse(text: &str) -> Result<Self, WireError> {
        Self::from_json(&parse(text)?)
    }

    /// The event's JSON text, as the bridge sends it.
    pub fn to_text(&self) -> String {
        self.to_json().to_string()
    }
}

/// The event in words, as a log shows it ("the server process exited with code 1").
impl fmt::Display for SideEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SideEvent::Spawned { server, pid } => {
                write!(f, "the bridge started {server} (pid {pid})")
            }
            SideEvent::Stderr { line } => write!(f, "stderr: {line}"),
            SideEvent::Exit {
                code: Some(c),
                signal: _,
            } => write!(f, "the server process exited with code {c}"),
            SideEvent::Exit {
                code: None,
                signal: Some(s),
            } => write!(f, "the server process was ended by signal {s}"),
            SideEvent::Exit { .. } => f.write_str("the server process ended"),
            SideEvent::Error { message } => write!(f, "bridge: {message}"),
            SideEvent::Dropped { count } => {
                write!(
                    f,
                    "{count} side-channel events were lost (too many at once)"
                )
            }
            SideEvent::OutputDropped { bytes, lines } => write!(
                f,
                "the bridge dropped {bytes} bytes ({lines} lines) of the server's output: \
                 the page was not reading it and the bridge's queue was full"
            ),
        }
    }
}

impl serde::Serialize for SideEvent {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for SideEvent {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Self::from_json(&v).map_err(serde::de::Error::custom)
    }
}
