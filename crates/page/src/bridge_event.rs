//! The bridge's side channel (`/api/events`): what the server process did, kept apart
//! from the MCP stream. Parsed in this one place until the shared `mcpg-wire` types
//! replace the parsing.

use serde_json::Value;

/// One side-channel event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BridgeEvent {
    /// The bridge started the server.
    Spawned {
        /// Its config name.
        server: String,
        /// Its process id.
        pid: i64,
    },
    /// A line the server wrote to stderr.
    Stderr(String),
    /// The server process ended.
    Exit {
        /// Exit code, if it exited.
        code: Option<i64>,
        /// Signal, if one ended it.
        signal: Option<i64>,
    },
    /// The bridge reports a problem.
    Error(String),
    /// This many events were lost (too many at once).
    Dropped(i64),
    /// Anything else, verbatim.
    Other(String),
}

/// Reads one side-channel event (`{type: spawned|stderr|exit|error|dropped, ...}`).
pub fn parse_bridge_event(text: &str) -> BridgeEvent {
    let v: Value = serde_json::from_str(text).unwrap_or_default();
    let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
    let n = |k: &str| v.get(k).and_then(Value::as_i64);
    match v.get("type").and_then(Value::as_str).unwrap_or("") {
        "stderr" => BridgeEvent::Stderr(s("line")),
        "spawned" => BridgeEvent::Spawned {
            server: s("server"),
            pid: n("pid").unwrap_or(0),
        },
        "exit" => BridgeEvent::Exit {
            code: n("code"),
            signal: n("signal"),
        },
        "error" => BridgeEvent::Error(s("message")),
        "dropped" => BridgeEvent::Dropped(n("count").unwrap_or(0)),
        _ => BridgeEvent::Other(text.to_owned()),
    }
}

impl BridgeEvent {
    /// The event in words, for the wire log (`None` for stderr, shown as its line).
    pub fn describe(&self) -> Option<String> {
        Some(match self {
            BridgeEvent::Stderr(_) => return None,
            BridgeEvent::Spawned { server, pid } => {
                format!("the bridge started {server} (pid {pid})")
            }
            BridgeEvent::Exit {
                code: Some(c),
                signal: _,
            } => format!("the server process exited with code {c}"),
            BridgeEvent::Exit {
                code: None,
                signal: Some(sig),
            } => format!("the server process was ended by signal {sig}"),
            BridgeEvent::Exit { .. } => "the server process ended".to_owned(),
            BridgeEvent::Error(m) => format!("bridge: {m}"),
            BridgeEvent::Dropped(n) => {
                format!("{n} side-channel events were lost (too many at once)")
            }
            BridgeEvent::Other(text) => format!("bridge event: {text}"),
        })
    }
}
