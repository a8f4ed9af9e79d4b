//! One `mcpg tools call` to server-everything over stdio, against a minimal raw
//! client that pipelines `initialize`, `notifications/initialized` and the call,
//! then kills the server as soon as the answer is in. Both start the same server
//! the same way; the ratio of their medians is what evals and scripts pay per
//! `mcpg` start. Prints the medians and the ratio; asserts nothing about time.
//!
//! `cargo bench -p mcpg --bench one_shot` (`ONE_SHOT_RUNS` sets N, default 21);
//! server-everything comes from `MCPG_PEERS` (default `tests/peers`), installed by
//! `cargo xtask install`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const PIPELINED: &str = concat!(
    r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}"#,
    "\n",
    r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    "\n",
    r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}}}"#,
    "\n"
);

fn everything() -> PathBuf {
    let peers = std::env::var_os("MCPG_PEERS").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/peers")),
        PathBuf::from,
    );
    peers.join("node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// The raw client: everything written at once, the server killed after the answer.
fn raw(server: &str) -> Duration {
    let t = Instant::now();
    let mut child = Command::new("node")
        .args([server, "stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .as_mut()
        .unwrap()
        .write_all(PIPELINED.as_bytes())
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let answered = out
        .lines()
        .map_while(Result::ok)
        .any(|l| l.contains(r#""id":2"#) && l.contains("Echo: hi"));
    assert!(answered, "the raw client got no answer");
    child.kill().unwrap();
    child.wait().unwrap();
    t.elapsed()
}

/// `mcpg tools call echo` start to exit.
fn mcpg(server: &str) -> Duration {
    let t = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(["tools", "call", "echo", "--args", r#"{"message":"hi"}"#])
        .args(["--stdio", &format!("node {server} stdio")])
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("Echo: hi"));
    t.elapsed()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let server = everything();
    if !server.exists() {
        println!(
            "one_shot: skipped, no server-everything at {}",
            server.display()
        );
        return;
    }
    let server = server.to_string_lossy().into_owned();
    let runs: usize = std::env::var("ONE_SHOT_RUNS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(21);
    // One of each first: node's and the binary's files into the page cache.
    raw(&server);
    mcpg(&server);
    let (mut r, mut m) = (Vec::new(), Vec::new());
    for _ in 0..runs.max(1) {
        // Interleaved, so load on the machine touches both alike.
        r.push(raw(&server));
        m.push(mcpg(&server));
    }
    let (r, m) = (median(r), median(m));
    println!(
        "one_shot tools call (server-everything, stdio, n={runs}): raw client {:.1} ms, mcpg {:.1} ms, ratio {:.2}",
        r.as_secs_f64() * 1e3,
        m.as_secs_f64() * 1e3,
        m.as_secs_f64() / r.as_secs_f64()
    );
}
