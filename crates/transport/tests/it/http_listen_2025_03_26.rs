//! A 2025-03-26 session over Streamable HTTP opens its standalone GET stream, and a
//! `notifications/tools/list_changed` the server pushes there reaches the client.
//! That revision sends no `MCP-Protocol-Version` header, so the transport must learn
//! the revision from the `initialize` result, not from a header.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::time::Duration;

use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use mcpg_core::client::GenerationMode;
use mcpg_transport::{Driver, HttpConfig};
use serde_json::json;
use support::fake::{Seen, json_response, result, serve, sse};
use support::watched;

fn script(req: &Seen, _: &[Seen]) -> Response {
    match (req.method.as_str(), req.rpc_method()) {
        ("POST", "initialize") => json_response(
            &result(
                req,
                json!({"protocolVersion": "2025-03-26", "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "old", "version": "1"}}),
            ),
            Some("s-0326"),
        ),
        ("POST", "notifications/initialized") => StatusCode::ACCEPTED.into_response(),
        ("GET", _) => sse(
            "id: g1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n"
                .into(),
        ),
        ("DELETE", _) => StatusCode::OK.into_response(),
        _ => StatusCode::BAD_REQUEST.into_response(),
    }
}

#[tokio::test]
async fn a_2025_03_26_session_opens_its_get_stream() {
    let (url, seen) = serve(script).await;
    let (mut cfg, mut frames) = watched();
    cfg.client.mode = GenerationMode::Initialize;
    cfg.client.versions = vec![mcpg_core::ProtocolVersion::V2025_03_26];
    let d = Driver::http(HttpConfig::new(&url), cfg).unwrap();
    let n = d.connect().await.expect("initialize at 2025-03-26");
    assert_eq!(n.version, mcpg_core::ProtocolVersion::V2025_03_26);
    let pushed = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(f) = frames.recv().await {
            if f.contains("notifications/tools/list_changed") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(pushed, Ok(true), "list_changed arrived on the GET stream");
    d.close().await.unwrap();
    let seen = seen.lock().unwrap().clone();
    let get = seen
        .iter()
        .find(|s| s.method == Method::GET)
        .expect("a GET stream was opened");
    assert_eq!(get.header("mcp-session-id"), Some("s-0326"));
    assert_eq!(get.header("accept"), Some("text/event-stream"));
    assert_eq!(
        get.header("mcp-protocol-version"),
        None,
        "2025-03-26 has no version header"
    );
}
