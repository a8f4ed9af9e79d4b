//! `mcpg mock SESSION|LINK [--http [ADDR]]`: a recorded session served back as an
//! MCP server over stdio, or Streamable HTTP on a loopback port, for a client's
//! tests with no network and no keys. The session is loaded and refused exactly as
//! `mcpg replay` loads it (a link's demo answers regenerated); the answering is
//! `mcpg_recording::mock::Mock` (sans-IO), behind `mcpg_demo_sse::HttpMock` over
//! HTTP. Nothing but MCP (or, over HTTP, the URL) goes to stdout.

use std::net::SocketAddr;

use mcpg_bridge::BridgeError;
use mcpg_recording::mock::Mock;
use mcpg_transport::stdio::read_line;
use tokio::io::{AsyncWriteExt, BufReader};

use crate::exit::{Failure, USAGE};
use crate::session_file;

/// Longest line read from stdin; longer ones are skipped (they cannot be answered).
const MAX_LINE: usize = 32 << 20;

/// Loads `source` as a [`Mock`], with `mcpg replay`'s refusals.
pub(crate) fn load(source: &str) -> Result<Mock, Failure> {
    let session = session_file::load(source)?;
    Mock::new(&session).map_err(|e| Failure::new(USAGE, format!("{source}: {e}")))
}

/// `mcpg mock`: answers stdin's requests on stdout until stdin closes, or with
/// `http`, serves HTTP there until the process is ended.
pub async fn run(source: &str, http: Option<SocketAddr>) -> Result<(), Failure> {
    let mut mock = load(source)?;
    if let Some(addr) = http {
        return mcpg_bridge::run_mock_http(addr, mock)
            .await
            .map_err(|e| match e {
                BridgeError::DemoNotLoopback { .. } => Failure::usage(e.to_string()),
                other => Failure::transport(format!("mock server: {other}")),
            });
    }
    let io = |e: std::io::Error| Failure::transport(format!("mock server: {e}"));
    let mut input = BufReader::new(tokio::io::stdin());
    let mut out = tokio::io::stdout();
    while let Some(line) = read_line(&mut input, MAX_LINE).await.map_err(io)? {
        if line.cut_from.is_some() {
            continue;
        }
        let text = String::from_utf8_lossy(&line.bytes);
        for answer in mock.handle_text(&text) {
            // serde_json never writes a raw newline; one message per line.
            out.write_all(answer.as_bytes()).await.map_err(io)?;
            out.write_all(b"\n").await.map_err(io)?;
            out.flush().await.map_err(io)?;
        }
    }
    Ok(())
}
