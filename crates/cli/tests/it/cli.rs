//! The `mcpg` binary against the real peers: output, `--json`, and every exit status.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::peers;

use crate::mcpg_run;

use mcpg_run::mcpg;
use peers::Peer;
use serde_json::Value;

/// `--stdio` value for a peer, or `None` (skipped).
fn stdio(peer: Peer) -> Option<String> {
    let (program, args) = peers::stdio_command(peer)?;
    Some(peers::shell_line(&program, &args))
}

#[test]
fn list_follows_every_page_and_counts() {
    let Some(rmcp) = stdio(Peer::Rmcp) else {
        return;
    };
    let r = mcpg(&["tools", "list", "--stdio", &rmcp]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.last_line(), "32 tools in 4 pages");
    assert_eq!(
        r.stdout.matches("--- page ").count(),
        4,
        "page boundaries are visible"
    );
    assert!(r.stdout.contains("item_24: Filler tool number 24"));
    // The task tools sort after the fillers, on a page of their own.
    assert!(r.stdout.contains("slow_sum_confirm: Like slow_sum"));
    assert_eq!(r.stderr, "");
}

#[test]
fn list_over_http_uses_singular_forms() {
    let Some(server) = peers::start_http(Peer::Python) else {
        return;
    };
    let r = mcpg(&["tools", "list", "--url", &server.url]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.last_line(), "5 tools in 1 page");
}

#[test]
fn call_sends_x_mcp_header_arguments_that_rmcp_checks() {
    let Some(server) = peers::start_http(Peer::Rmcp) else {
        return;
    };
    // Not plain ASCII, so the header value travels base64-wrapped.
    let r = mcpg(&[
        "tools",
        "call",
        "--url",
        &server.url,
        "forecast",
        "--args",
        r#"{"city": "Zürich"}"#,
        "--verbose",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout.trim_end(), "Zürich: sunny tomorrow");
    assert!(
        r.stderr.contains("\"tools/list\""),
        "listed first: {}",
        r.stderr
    );
}

#[test]
fn list_json_is_an_array_of_every_tool() {
    let Some(everything) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&["tools", "list", "--stdio", &everything, "--json"]);
    assert_eq!(r.code, 0, "{r:?}");
    let tools: Vec<Value> = serde_json::from_str(&r.stdout).expect("--json output parses");
    assert_eq!(tools.len(), 13);
    assert!(
        tools
            .iter()
            .all(|t| t["name"].is_string() && t["inputSchema"].is_object())
    );
}

#[test]
fn call_prints_text_and_structured_content() {
    let Some(python) = stdio(Peer::Python) else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &python,
        "add",
        "--args",
        r#"{"a": 2, "b": 3}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .starts_with("5\nstructuredContent:\n{\n  \"result\": 5\n}"),
        "{}",
        r.stdout
    );
}

#[test]
fn call_summarizes_images() {
    let Some(everything) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&["tools", "call", "--stdio", &everything, "get-tiny-image"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with("[image image/png, ") && l.ends_with(" bytes]")),
        "{}",
        r.stdout
    );
}

#[test]
fn call_json_is_the_raw_result() {
    let Some(server) = peers::start_http(Peer::Rmcp) else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "call",
        "--url",
        &server.url,
        "add",
        "--args",
        r#"{"a":20,"b":22}"#,
        "--json",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).expect("--json output parses");
    assert_eq!(v["structuredContent"]["result"], 42);
    assert_eq!(v["content"][0]["text"], "42");
}

#[test]
fn exit_1_when_the_tool_reports_an_error() {
    let Some(python) = stdio(Peer::Python) else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &python,
        "fail",
        "--args",
        r#"{"reason":"boom"}"#,
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("boom"),
        "the error content is shown: {}",
        r.stdout
    );
    assert_eq!(
        r.error_line(),
        "mcpg: tool `fail` reported an error (isError: true)"
    );
}

#[test]
fn exit_3_on_a_json_rpc_error() {
    let Some(rmcp) = stdio(Peer::Rmcp) else {
        return;
    };
    let r = mcpg(&["tools", "call", "--stdio", &rmcp, "no-such-tool"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_eq!(
        r.error_line(),
        "mcpg: the server answered tools/call with an error: tool not found (code -32602)"
    );
}

#[test]
fn exit_4_when_the_server_dies_mid_call() {
    let Some(python) = stdio(Peer::Python) else {
        return;
    };
    let r = mcpg(&["tools", "call", "--stdio", &python, "crash"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert_eq!(
        r.error_line(),
        "mcpg: server exited with status 3 during tools/call"
    );
}

#[test]
fn exit_4_when_the_server_will_not_start() {
    let r = mcpg(&["tools", "list", "--stdio", "/nonexistent/server --flag"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.error_line()
            .starts_with("mcpg: could not start `/nonexistent/server`: No such file"),
        "{}",
        r.stderr
    );
}

#[test]
fn exit_4_when_the_server_writes_garbage() {
    let r = mcpg(&["info", "--stdio", "sh -c 'echo garbage; exit 0'"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert_eq!(
        r.error_line(),
        r#"mcpg: server exited with status 0 during connect; the server wrote 1 line that is not JSON-RPC (first: "garbage")"#
    );
}

#[test]
fn exit_4_on_timeout() {
    let r = mcpg(&["tools", "list", "--stdio", "sleep 100", "--timeout", "0.3"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.error_line().contains("no answer within"), "{}", r.stderr);
}

#[test]
fn exit_4_when_nothing_listens() {
    let port = peers::free_port();
    let r = mcpg(&[
        "tools",
        "list",
        "--url",
        &format!("http://127.0.0.1:{port}/mcp"),
    ]);
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.error_line()
            .contains("could not connect to http://127.0.0.1"),
        "{}",
        r.stderr
    );
}

#[test]
fn exit_2_on_usage_errors() {
    for args in [
        &["tools", "list"][..],
        &["tools", "list", "--stdio", "x", "--url", "http://x"],
        &["tools", "call", "--stdio", "x", "t", "--args", "[1]"],
        &["tools", "call", "--stdio", "x", "t", "--args", "{not json"],
        &["info", "--stdio", "'unbalanced"],
        &["info", "--stdio", "x", "--protocol", "nope"],
        &["info", "--stdio", "x", "--protocol-version", "2099-01-01"],
        &[
            "info",
            "--stdio",
            "x",
            "--protocol",
            "initialize",
            "--protocol-version",
            "2026-07-28",
        ],
    ] {
        let r = mcpg(args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
    }
}

#[test]
fn info_shows_server_protocol_and_capabilities() {
    let Some(everything) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&["info", "--stdio", &everything]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("server:       mcp-servers/everything"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("protocol:     2025-11-25"));
    assert!(
        r.stdout.contains("\"listChanged\": true"),
        "capabilities as pretty JSON"
    );
    assert!(r.stdout.contains("instructions:\n"));
}

#[test]
fn info_reports_the_stateless_generation() {
    let Some(rmcp) = stdio(Peer::Rmcp) else {
        return;
    };
    let r = mcpg(&["info", "--stdio", &rmcp, "--protocol", "stateless"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.contains("protocol:     2026-07-28"),
        "{}",
        r.stdout
    );
    let r = mcpg(&["info", "--stdio", &rmcp, "--protocol", "initialize"]);
    assert!(
        r.stdout.contains("protocol:     2025-11-25"),
        "{}",
        r.stdout
    );
}

#[test]
fn protocol_version_pins_any_of_the_five_revisions() {
    let Some(rmcp) = stdio(Peer::Rmcp) else {
        return;
    };
    for rev in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        let r = mcpg(&["info", "--stdio", &rmcp, "--protocol-version", rev]);
        assert_eq!(r.code, 0, "{rev}: {r:?}");
        assert!(
            r.stdout.contains(&format!("protocol:     {rev}")),
            "{rev}: {}",
            r.stdout
        );
    }
    let r = mcpg(&[
        "tools",
        "list",
        "--stdio",
        &rmcp,
        "--protocol-version",
        "2025-03-26",
        "--verbose",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("\"protocolVersion\":\"2025-03-26\""),
        "the handshake offers only the pinned revision: {}",
        r.stderr
    );
    assert!(!r.stderr.contains("server/discover"), "{}", r.stderr);
}

#[test]
fn verbose_prints_the_wire_log_to_stderr() {
    let Some(python) = stdio(Peer::Python) else {
        return;
    };
    let r = mcpg(&["tools", "list", "--stdio", &python, "--verbose"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr
            .lines()
            .any(|l| l.starts_with(">> ") && l.contains("\"tools/list\"")),
        "{}",
        r.stderr
    );
    assert!(r.stderr.lines().any(|l| l.starts_with("<< ")));
    assert_eq!(r.last_line(), "5 tools in 1 page");
}
