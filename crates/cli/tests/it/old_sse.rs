//! The old HTTP+SSE transport (2024-11-05) against a real server: the Python SDK's
//! `sse` transport (`tests/peers/python/server.py --sse PORT`), with `--transport
//! sse` and with `auto` falling back when the SDK answers the `initialize` POST to
//! `/sse` with 405.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use crate::mcpg_run;
use crate::peers;

use mcpg_run::mcpg;

#[test]
fn tools_list_and_call_over_http_sse() {
    let Some(server) = peers::start_python_sse() else {
        return;
    };
    let r = mcpg(&["tools", "list", "--url", &server.url, "--transport", "sse"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.last_line(), "5 tools in 1 page");
    assert!(
        r.stderr.starts_with(
            "transport: HTTP+SSE (2024-11-05), as configured: endpoint /messages/?session_id="
        ),
        "{r:?}"
    );
    let r = mcpg(&[
        "tools",
        "call",
        "add",
        "--url",
        &server.url,
        "--transport",
        "sse",
        "--args",
        r#"{"a": 2, "b": 40}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.lines().next(), Some("42"), "{r:?}");
}

#[test]
fn auto_falls_back_from_the_405_of_streamable_http() {
    let Some(server) = peers::start_python_sse() else {
        return;
    };
    let r = mcpg(&["tools", "list", "--url", &server.url]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.last_line(), "5 tools in 1 page");
    assert!(
        r.stderr.starts_with(
            "transport: Streamable HTTP POST answered 405; fell back to HTTP+SSE (2024-11-05): endpoint /messages/?session_id="
        ),
        "{r:?}"
    );
    // The session id is shortened where it is shown.
    let line = r.stderr.lines().next().unwrap();
    assert!(line.ends_with('…'), "{line}");
    // Asked for Streamable HTTP only, the same URL fails (and says how).
    let r = mcpg(&[
        "tools",
        "list",
        "--url",
        &server.url,
        "--transport",
        "streamable-http",
    ]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("405"), "{r:?}");
}

#[test]
fn a_tool_error_and_a_server_that_dies_mid_call() {
    let Some(server) = peers::start_python_sse() else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "call",
        "fail",
        "--url",
        &server.url,
        "--transport",
        "sse",
        "--args",
        r#"{"reason": "no table"}"#,
    ]);
    assert_eq!(r.code, 1, "a tool error: {r:?}");
    assert!(r.stdout.contains("no table"), "{r:?}");
    assert!(r.stderr.contains("isError: true"), "{r:?}");

    let started = Instant::now();
    let r = mcpg(&[
        "tools",
        "call",
        "crash",
        "--url",
        &server.url,
        "--transport",
        "sse",
        "--args",
        "{}",
    ]);
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "no hang: {r:?}"
    );
    assert_eq!(r.code, 4, "a transport failure: {r:?}");
    assert!(
        r.stderr
            .contains("the old transport cannot resume, so the session is over during tools/call"),
        "{r:?}"
    );
}
