//! Helpers for the bridge tests: the real `mcpg serve` process, an MCP session over
//! its WebSocket (the core's `Client`, as the page will use it), and the side channel.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod mcp_ws;
pub mod process;
pub mod side;

use std::time::Duration;

/// The longest any helper waits for something that should happen.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// Polls until `pid` is gone for good (exited and reaped: no zombie in /proc).
pub async fn wait_gone(pid: u32) {
    for _ in 0..600 {
        if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    panic!("process {pid} is still there: {stat}");
}
