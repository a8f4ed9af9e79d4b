//! Helpers shared by the transport integration tests.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod fake;
pub mod peers;
pub mod scenario;

use std::sync::Arc;
use std::time::Duration;

use mcpg_core::client::{CallOutcome, ClientConfig};
use mcpg_core::model::{CallToolResult, ContentBlock, JsonObject};
use mcpg_transport::{CallReport, Driver, DriverConfig, HttpConfig, Observed, StdioConfig};
use serde_json::Value;
use tokio::sync::mpsc;

pub use peers::Peer;

/// A driver config with a generous (never hit in a passing run) timeout.
pub fn config() -> DriverConfig {
    DriverConfig {
        client: ClientConfig {
            request_timeout: Duration::from_secs(30),
            ..ClientConfig::default()
        },
        ..DriverConfig::default()
    }
}

/// A config whose observer forwards every received wire frame to the returned channel.
pub fn watched() -> (DriverConfig, mpsc::UnboundedReceiver<String>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let mut cfg = config();
    cfg.observer = Some(Arc::new(move |o: &Observed| {
        if let Observed::Wire(w) = o
            && w.direction == mcpg_core::client::Direction::Received
        {
            let _ = tx.send(w.raw.to_string());
        }
    }));
    (cfg, rx)
}

/// A driver for `peer` on stdio, or `None` (skipped).
pub fn stdio(peer: Peer, cfg: DriverConfig) -> Option<Driver> {
    let (program, args) = peers::stdio_command(peer)?;
    Some(Driver::stdio(StdioConfig::new(program, args), cfg).expect("start the stdio peer"))
}

/// A driver for an HTTP endpoint.
pub fn http(url: &str, cfg: DriverConfig) -> Driver {
    let mut h = HttpConfig::new(url);
    // Resuming a dead server's stream should give up soon in tests.
    h.max_resumes = 2;
    Driver::http(h, cfg).expect("start the HTTP transport")
}

/// A JSON object from a `json!` literal.
pub fn obj(v: Value) -> Option<JsonObject> {
    match v {
        Value::Object(o) => Some(o),
        _ => None,
    }
}

/// The text blocks of a result, joined.
pub fn text(r: &CallToolResult) -> String {
    r.content
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The result of a successful call, or a panic saying what came instead.
pub fn success(r: CallReport) -> CallToolResult {
    match r.outcome {
        CallOutcome::Success(r) => r,
        other => panic!("expected a successful result, got {other:?}"),
    }
}

/// The result of a call that returned `isError: true`.
pub fn tool_error(r: CallReport) -> CallToolResult {
    match r.outcome {
        CallOutcome::ToolError(r) => r,
        other => panic!("expected an isError result, got {other:?}"),
    }
}
