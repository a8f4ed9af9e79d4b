//! `mcpg doctor URL`: the checks below MCP and the session checks over
//! Streamable HTTP, against server-everything, the Python SDK, a server behind
//! the test authorization server, a plain HTTP server without CORS, and nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;

use crate::auth_support::{AuthPeerOptions, AuthPeers};
use crate::doctor::{check, doctor_json};
use crate::mcpg_run::mcpg;
use crate::peers::{self, Peer};
use serde_json::{Value, json};

#[test]
fn everything_over_http() {
    let Some(server) = peers::start_http(Peer::Everything) else {
        return;
    };
    let (r, v) = doctor_json(&[&server.url]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(check(&v, "dns"), ("pass", "127.0.0.1 is 127.0.0.1", ""));
    assert_eq!(check(&v, "tcp").0, "pass");
    assert_eq!(check(&v, "tls"), ("skip", "plain http: no TLS", ""));
    assert_eq!(check(&v, "http-post").1, "HTTP 200, text/event-stream");
    // The TypeScript SDK insists on both types in Accept.
    assert!(check(&v, "http-accept").1.starts_with("HTTP 406"));
    // server-everything sends permissive CORS headers.
    assert_eq!(check(&v, "cors").0, "pass");
    assert_eq!(check(&v, "auth-discovery").0, "skip");
    // It refuses a request before initialize with an HTTP 400 and a JSON-RPC error.
    let (verdict, evidence, _) = check(&v, "server-discover");
    assert_eq!(verdict, "warn");
    assert!(
        evidence.starts_with("server/discover answered error -32000"),
        "{evidence}"
    );
    assert_eq!(check(&v, "initialize").1, "agreed on 2025-11-25");
    assert_eq!(check(&v, "tools-list").1, "13 tools in 1 page");
    assert_eq!(check(&v, "capabilities").0, "pass");
}

#[test]
fn the_python_sdk_over_http_needs_the_relay_for_the_page() {
    let Some(server) = peers::start_http(Peer::Python) else {
        return;
    };
    let (r, v) = doctor_json(&[&server.url, "--origin", "https://playground.example"]);
    assert_eq!(r.code, 0, "a CORS warning does not fail: {r:?}");
    assert_eq!(v["worst"], "warn");
    let (verdict, evidence, fix) = check(&v, "cors");
    assert_eq!(verdict, "warn");
    assert!(
        evidence.contains("from https://playground.example"),
        "{evidence}"
    );
    assert!(fix.contains("mcpg serve --config bridge.toml"), "{fix}");
    assert!(fix.contains(&format!("url = \"{}\"", server.url)), "{fix}");
    assert_eq!(check(&v, "server-discover").1, "agreed on 2026-07-28");
    assert!(check(&v, "revisions").1.ends_with("negotiates 2026-07-28"));
    assert_eq!(check(&v, "tools-list").1, "5 tools in 1 page");
}

#[test]
fn behind_the_authorization_server_discovery_passes_and_says_how_to_sign_in() {
    let Some(peers) = AuthPeers::start(&AuthPeerOptions::default()) else {
        return;
    };
    let url = peers.mcp_url.clone();
    let (r, v) = doctor_json(&[&url]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        check(&v, "http-post").1,
        "HTTP 401: the server wants a sign-in (see sign-in discovery)"
    );
    let (verdict, evidence, fix) = check(&v, "auth-discovery");
    assert_eq!(verdict, "pass", "{v}");
    assert!(
        evidence.starts_with("HTTP 401 with WWW-Authenticate: Bearer"),
        "{evidence}"
    );
    assert!(
        evidence.contains(&format!(
            "protected resource metadata at {}",
            peers.metadata_url()
        )),
        "{evidence}"
    );
    assert!(
        evidence.contains(&format!(
            "authorization server metadata at {}/",
            peers.as_url
        )),
        "{evidence}"
    );
    assert!(
        fix.contains(&format!("mcpg auth login --url {url}")),
        "{fix}"
    );
    for id in [
        "server-discover",
        "initialize",
        "revisions",
        "tools-list",
        "capabilities",
    ] {
        assert_eq!(
            check(&v, id),
            ("skip", "the server wants a sign-in first", ""),
            "{id}"
        );
    }
}

/// A minimal MCP server over plain HTTP with no CORS headers at all: it answers
/// `initialize` (2025-11-25, no capabilities), refuses every other request with
/// -32601 and takes notifications with 202; an OPTIONS gets a bare 204.
fn plain_server() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut head = String::new();
            let mut length = 0;
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                    break;
                }
                if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                    length = v.trim().parse().unwrap_or(0);
                }
                head.push_str(&line);
            }
            let mut body = vec![0; length];
            let _ = reader.read_exact(&mut body);
            let request: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
            let answer = match (request.get("id"), request["method"].as_str()) {
                (Some(id), Some("initialize")) => Some(json!({"jsonrpc": "2.0", "id": id,
                    "result": {"protocolVersion": "2025-11-25", "capabilities": {},
                               "serverInfo": {"name": "plain", "version": "1"}}})),
                (Some(id), Some(_)) => Some(json!({"jsonrpc": "2.0", "id": id,
                    "error": {"code": -32601, "message": "Method not found"}})),
                _ => None,
            };
            let reply = match (head.starts_with("POST"), answer) {
                (true, Some(a)) => {
                    let a = a.to_string();
                    format!("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{a}", a.len())
                }
                (true, None) => "HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".into(),
                (false, _) if head.starts_with("OPTIONS") => "HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n".into(),
                _ => "HTTP/1.1 405 Method Not Allowed\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".into(),
            };
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    url
}

#[test]
fn a_plain_server_without_cors_gets_the_relay_as_its_fix() {
    let url = plain_server();
    let (r, v) = doctor_json(&[&url, "--timeout", "5"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(check(&v, "http-post").1, "HTTP 200, application/json");
    assert!(check(&v, "http-accept").1.contains("does not insist"));
    let (verdict, evidence, fix) = check(&v, "cors");
    assert_eq!(verdict, "warn");
    assert_eq!(
        evidence,
        "the preflight from http://127.0.0.1:8000 got no Access-Control-Allow-Origin: the page cannot reach this server from the browser"
    );
    assert!(
        fix.starts_with("Run the bridge, `mcpg serve --config bridge.toml`"),
        "{fix}"
    );
    assert!(fix.contains("/relay/my-remote"));
    assert_eq!(check(&v, "server-discover").0, "warn");
    assert_eq!(check(&v, "initialize").1, "agreed on 2025-11-25");
    // It declared no tools and has none: not a failure.
    assert_eq!(check(&v, "tools-list").0, "skip");
    assert_eq!(
        check(&v, "capabilities").1,
        "tools: not declared, not answered; resources: not declared, not answered; prompts: not declared, not answered"
    );
}

#[test]
fn nothing_listening_fails_tcp_and_skips_the_rest() {
    let port = peers::free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (r, v) = doctor_json(&[&url]);
    assert_eq!(r.code, 1, "{r:?}");
    let (verdict, evidence, fix) = check(&v, "tcp");
    assert_eq!(verdict, "fail");
    assert_eq!(
        evidence,
        format!("127.0.0.1:{port} refused the connection: nothing listens there")
    );
    assert!(fix.starts_with("Start the server"));
    assert_eq!(check(&v, "http-post").0, "skip");
    let r = mcpg(&["doctor", "ftp://127.0.0.1/mcp"]);
    assert_eq!(r.code, 2, "{r:?}");
}

#[test]
fn an_http_sse_server_warns_and_its_session_still_passes() {
    let Some(server) = peers::start_python_sse() else {
        return;
    };
    let (r, v) = doctor_json(&[&server.url]);
    assert_eq!(r.code, 0, "{r:?}");
    let (verdict, evidence, fix) = check(&v, "http-post");
    assert_eq!((verdict, evidence), ("warn", "HTTP 405 to a POST"));
    assert!(fix.contains("`--transport sse`"), "{fix}");
    assert_eq!(
        check(&v, "http-accept"),
        (
            "skip",
            "the POST with the full Accept got HTTP 405: nothing to compare",
            ""
        )
    );
    // The probe's POST gets the same 405; initialize goes over HTTP+SSE.
    let (verdict, evidence, _) = check(&v, "server-discover");
    assert_eq!(verdict, "warn");
    assert!(evidence.contains("405"), "{evidence}");
    assert_eq!(check(&v, "initialize").1, "agreed on 2025-11-25");
    assert_eq!(check(&v, "tools-list").1, "5 tools in 1 page");
}
