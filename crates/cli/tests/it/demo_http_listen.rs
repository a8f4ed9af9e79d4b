//! `mcpg demo --http`, 2026-07-28's `subscriptions/listen`: the answer is an event
//! stream that stays open, and a change another request makes arrives on it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use crate::demo_http::{Demo, read_until};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

#[test]
fn a_listen_stream_gets_the_tool_list_change() {
    let demo = Demo::start();
    let listen = format!(
        r#"{{"jsonrpc":"2.0","id":"watch","method":"subscriptions/listen","params":{{"notifications":{{"toolsListChanged":true}},{META}}}}}"#
    );
    let mut s = TcpStream::connect(&demo.authority).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\nMcp-Method: subscriptions/listen\r\nContent-Length: {}\r\n\r\n",
        demo.authority,
        listen.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(listen.as_bytes()).unwrap();
    let mut seen = String::new();
    read_until(
        &mut s,
        &mut seen,
        "notifications/subscriptions/acknowledged",
    );
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    assert!(!seen.contains("list_changed"), "{seen}");

    let toggle = format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"toggle_bonus_tool","arguments":{{}},{META}}}}}"#
    );
    let r = demo.post(
        &[
            ("MCP-Protocol-Version", "2026-07-28"),
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "toggle_bonus_tool"),
        ],
        &toggle,
    );
    assert_eq!(r.status, 200, "{r:?}");
    assert!(!r.body.contains("list_changed"), "{r:?}");
    read_until(&mut s, &mut seen, "notifications/tools/list_changed");
    assert!(
        seen.contains(r#""io.modelcontextprotocol/subscriptionId":"watch""#),
        "{seen}"
    );
}
