//! Round trips of the demo's `get_weather` through WebSocket → bridge → stdio
//! `mcpg demo`, against the same server over stdio directly. Prints p50, p99 and
//! calls per second for each; asserts nothing about time.
//!
//! `cargo bench -p mcpg --bench bridge_rtt` (`BRIDGE_RTT_CALLS` sets N, default 2000).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bridge_rtt","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn call(id: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"get_weather","arguments":{{"city":"Austin"}}}}}}"#
    )
}

fn check(reply: &str, id: usize) {
    assert!(
        reply.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"#))
            && reply.contains("Austin: 91F, sunny"),
        "unexpected reply to {id}: {reply}"
    );
}

fn report(name: &str, mut rtts: Vec<Duration>, total: Duration) {
    rtts.sort();
    let pct = |p: f64| rtts[((rtts.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{name:<28} n={:<6} p50={:>8.1} µs  p99={:>8.1} µs  {:>8.0} calls/s",
        rtts.len(),
        pct(0.50).as_secs_f64() * 1e6,
        pct(0.99).as_secs_f64() * 1e6,
        rtts.len() as f64 / total.as_secs_f64(),
    );
}

async fn direct(n: usize) {
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .arg("demo")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    for line in [INIT, INITIALIZED] {
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .await
            .unwrap();
    }
    stdin.flush().await.unwrap();
    lines.next_line().await.unwrap().unwrap();
    let mut rtts = Vec::with_capacity(n);
    let start = Instant::now();
    for id in 1..=n {
        let t = Instant::now();
        stdin
            .write_all(format!("{}\n", call(id)).as_bytes())
            .await
            .unwrap();
        stdin.flush().await.unwrap();
        let reply = lines.next_line().await.unwrap().unwrap();
        rtts.push(t.elapsed());
        check(&reply, id);
    }
    report("stdio, direct", rtts, start.elapsed());
    drop(stdin);
    child.wait().await.unwrap();
}

async fn through_bridge(n: usize) {
    let mut serve = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(serve.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let rest = line
        .trim()
        .strip_prefix("MCP Playground: open http://")
        .unwrap();
    let (authority, token) = rest.split_once("/?token=").unwrap();
    let url = format!("ws://{authority}/ws?server=demo&token={token}");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    for line in [INIT, INITIALIZED] {
        ws.send(Message::text(line)).await.unwrap();
    }
    next_text(&mut ws).await;
    let mut rtts = Vec::with_capacity(n);
    let start = Instant::now();
    for id in 1..=n {
        let t = Instant::now();
        ws.send(Message::text(call(id))).await.unwrap();
        let reply = next_text(&mut ws).await;
        rtts.push(t.elapsed());
        check(&reply, id);
    }
    report("WebSocket → bridge → stdio", rtts, start.elapsed());
    let _ = ws.close(None).await;
    let _ = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status();
    serve.wait().unwrap();
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn next_text(ws: &mut Ws) -> String {
    loop {
        match ws.next().await.unwrap().unwrap() {
            Message::Text(t) => return t.to_string(),
            Message::Close(c) => panic!("closed: {c:?}"),
            _ => {}
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; anything else (a filter) is ignored here.
    let n: usize = std::env::var("BRIDGE_RTT_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        direct(n).await;
        through_bridge(n).await;
    });
}
