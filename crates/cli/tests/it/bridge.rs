//! The real `mcpg serve` binary, driven as the page will drive it: an MCP session
//! (the core's `Client`) over its WebSocket, the side channel over SSE, and the
//! security checks over plain HTTP. Also: the demo server passes the CLI natively.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::peers;

use crate::bridge_support;

use std::process::Command;

use bridge_support::mcp_ws::{McpWs, first_text};
use bridge_support::process::{Bridge, mcpg};
use bridge_support::side::Side;
use bridge_support::wait_gone;
use mcpg_core::client::{CallOutcome, Failure};
use peers::Peer;
use serde_json::{Value, json};

/// A `[[server]]` entry (TOML) for `program args…`.
fn server_entry(name: &str, program: &str, args: &[String]) -> String {
    let args: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
    format!(
        "[[server]]\nname = {name:?}\ncommand = {program:?}\nargs = [{}]\n",
        args.join(", ")
    )
}

fn sh_entry(name: &str, script: &str) -> String {
    server_entry(name, "sh", &["-c".into(), script.into()])
}

fn pid(ev: &Value) -> u32 {
    u32::try_from(ev["pid"].as_u64().unwrap()).unwrap()
}

#[tokio::test]
async fn serve_prints_one_url_line_and_guards_every_route() {
    let mut bridge = Bridge::start(None);
    let port = bridge.authority.strip_prefix("127.0.0.1:").unwrap();
    assert!(port.parse::<u16>().unwrap() > 0);
    assert_eq!(bridge.token.len(), 64);
    assert!(bridge.token.bytes().all(|b| b.is_ascii_hexdigit()));
    let other = Bridge::start(None);
    assert_ne!(bridge.token, other.token, "a fresh token per launch");

    let http = reqwest::Client::new();
    let servers = bridge.http("/api/servers");
    assert_eq!(http.get(&servers).send().await.unwrap().status(), 401);
    let ok = http
        .get(&servers)
        .bearer_auth(&bridge.token)
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    let v: Value = serde_json::from_str(&ok.text().await.unwrap()).unwrap();
    assert_eq!(v, json!({"servers": [{"name": "demo"}], "remotes": []}));
    let evil = http
        .get(&servers)
        .bearer_auth(&bridge.token)
        .header("origin", "http://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(evil.status(), 403);
    let rebound = http
        .get(bridge.http("/"))
        .header("host", format!("evil.example:{port}"))
        .send()
        .await
        .unwrap();
    assert_eq!(rebound.status(), 421);
    let page = http.get(bridge.http("/")).send().await.unwrap();
    assert_eq!(page.status(), 200, "static files need no token");
    assert!(page.text().await.unwrap().contains("cargo xtask play"));
    let ws = bridge.ws_url("nope", "x");
    let url = ws.replace("ws://", "http://");
    let missing = http.get(&url).send().await.unwrap();
    assert_eq!(missing.status(), 404);
    assert_eq!(bridge.terminate(), Some(0));
    assert!(
        bridge.extra.lock().unwrap().is_empty(),
        "{:?}",
        bridge.extra
    );
}

#[test]
fn serve_refuses_a_non_loopback_address() {
    let out = Command::new(mcpg())
        .args(["serve", "--bind", "0.0.0.0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "no URL was printed");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--allow-remote-bind"), "{err}");
}

#[tokio::test]
async fn the_demo_through_the_bridge_pages_calls_and_reports_tool_errors() {
    // The built-in config: the demo is this very executable.
    let bridge = Bridge::start(None);
    let base = bridge.http("");
    let mut side = Side::open(&base, &bridge.token, "demo").await;
    let mut s = McpWs::connect(&bridge.ws_url("demo", "demo")).await;
    assert_eq!(s.list_tools().await, vec![6, 6, 6, 6, 1]);
    match s.call("get_weather", json!({"city": "Austin"})).await {
        CallOutcome::Success(r) => assert_eq!(first_text(&r), "Austin: 91F, sunny"),
        other => panic!("{other:?}"),
    }
    match s.call("get_weather", json!({"city": "Atlantis"})).await {
        CallOutcome::ToolError(r) => assert!(first_text(&r).contains("Atlantis")),
        other => panic!("expected isError: {other:?}"),
    }
    let spawned = side.of_type("spawned").await;
    assert_eq!(spawned["server"], "demo");
    s.close().await;
    wait_gone(pid(&spawned)).await;
    side.of_type("exit").await;
}

#[tokio::test]
async fn server_everything_through_the_bridge() {
    let Some((program, args)) = peers::stdio_command(Peer::Everything) else {
        return;
    };
    let config = server_entry("everything", &program.display().to_string(), &args);
    let bridge = Bridge::start(Some(&config));
    let mut s = McpWs::connect(&bridge.ws_url("everything", "ev")).await;
    let pages = s.list_tools().await;
    assert_eq!(pages.iter().sum::<usize>(), 13, "{pages:?}");
    match s.call("get-sum", json!({"a": 2, "b": 3})).await {
        CallOutcome::Success(r) => assert!(first_text(&r).contains('5'), "{r:?}"),
        other => panic!("{other:?}"),
    }
    s.close().await;
}

#[tokio::test]
async fn a_crash_mid_call_is_reported_on_both_channels() {
    let Some((program, args)) = peers::stdio_command(Peer::Python) else {
        return;
    };
    let config = server_entry("python", &program.display().to_string(), &args);
    let bridge = Bridge::start(Some(&config));
    let mut side = Side::open(&bridge.http(""), &bridge.token, "py").await;
    let mut s = McpWs::connect(&bridge.ws_url("python", "py")).await;
    match s.call("crash", json!({})).await {
        CallOutcome::Failed(Failure::Transport(why)) => {
            assert!(why.contains("exited with status 3"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    let closed = s.closed.clone().unwrap();
    assert_eq!(
        (closed.code, closed.reason.as_str()),
        (1011, "server exited with status 3")
    );
    let exit = side.of_type("exit").await;
    assert_eq!(exit["code"], 3);
    wait_gone(pid(&side.of_type("spawned").await)).await;
}

#[tokio::test]
async fn a_shell_server_that_dies_after_one_line_is_reported() {
    let bridge = Bridge::start(Some(&sh_entry("dies", "read l; echo 'bye' >&2; exit 5")));
    let mut side = Side::open(&bridge.http(""), &bridge.token, "dies").await;
    let url = bridge.ws_url("dies", "dies");
    let mut req =
        tokio_tungstenite::tungstenite::client::IntoClientRequest::into_client_request(url)
            .unwrap();
    req.headers_mut()
        .insert("sec-websocket-protocol", "mcp".parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    use futures_util::{SinkExt, StreamExt};
    ws.send(tokio_tungstenite::tungstenite::Message::text(
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    ))
    .await
    .unwrap();
    let close = loop {
        match tokio::time::timeout(bridge_support::PATIENCE, ws.next())
            .await
            .unwrap()
        {
            Some(Ok(tokio_tungstenite::tungstenite::Message::Close(f))) => break f.unwrap(),
            Some(Ok(_)) => {}
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(close.reason.as_str(), "server exited with status 5");
    assert_eq!(side.of_type("stderr").await["line"], "bye");
    assert_eq!(side.of_type("exit").await["code"], 5);
}

#[tokio::test]
async fn junk_and_stderr_reach_the_page_apart_and_the_session_survives() {
    let demo = format!(
        "echo 'starting demo' >&2; echo 'Server ready!'; exec '{}' demo",
        mcpg()
    );
    let bridge = Bridge::start(Some(&sh_entry("noisy", &demo)));
    let mut side = Side::open(&bridge.http(""), &bridge.token, "noisy").await;
    let mut s = McpWs::connect(&bridge.ws_url("noisy", "noisy")).await;
    assert_eq!(s.list_tools().await, vec![6, 6, 6, 6, 1]);
    // The junk line reached the page's core, which turned it into a diagnostic.
    assert!(
        s.diagnostics
            .iter()
            .any(|d| d.raw.as_deref() == Some("Server ready!")),
        "{:?}",
        s.diagnostics
    );
    assert_eq!(side.of_type("stderr").await["line"], "starting demo");
    let note = side.of_type("error").await;
    assert!(
        note["message"].as_str().unwrap().contains("not JSON"),
        "{note}"
    );
    s.close().await;
    side.of_type("exit").await;
}

#[tokio::test]
async fn stopping_the_bridge_ends_every_server() {
    let mut bridge = Bridge::start(Some(&sh_entry(
        "stubborn",
        "trap '' TERM; while :; do sleep 1; done",
    )));
    let mut side = Side::open(&bridge.http(""), &bridge.token, "stop").await;
    let url = bridge.ws_url("stubborn", "stop");
    let (_ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let child = pid(&side.of_type("spawned").await);
    assert_eq!(bridge.terminate(), Some(0));
    // The bridge waited for its children: the server is already reaped.
    assert!(!std::path::Path::new(&format!("/proc/{child}")).exists());
}

/// Runs `mcpg args…` to the end (bounded by the demo's own speed).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(mcpg()).args(args).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_demo_passes_the_cli_natively() {
    let demo = format!("'{}' demo", mcpg());
    let (code, out, err) = run(&["tools", "list", "--stdio", &demo]);
    assert_eq!(code, Some(0), "{err}");
    // count_task too: mcpg declares the Tasks extension, to which the demo lists it.
    assert_eq!(out.lines().last(), Some("26 tools in 5 pages"));
    let austin = r#"{"city":"Austin"}"#;
    let (code, out, err) = run(&[
        "tools",
        "call",
        "--stdio",
        &demo,
        "get_weather",
        "--args",
        austin,
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(out.trim(), "Austin: 91F, sunny");
    let atlantis = r#"{"city":"Atlantis"}"#;
    let (code, _, _) = run(&[
        "tools",
        "call",
        "--stdio",
        &demo,
        "get_weather",
        "--args",
        atlantis,
    ]);
    assert_eq!(code, Some(1));
}
