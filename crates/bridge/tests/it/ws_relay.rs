//! The WebSocket relay against small shell servers on a real loopback port: the
//! happy path, each fault, the limits, and that every process is reaped.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::time::Duration;

use support::*;

const ECHO: &str = "while IFS= read -r l; do printf '%s\\n' \"$l\"; done";

fn pid_of(ev: &serde_json::Value) -> u32 {
    u32::try_from(ev["pid"].as_u64().unwrap()).unwrap()
}

#[tokio::test]
async fn frames_and_lines_cross_unchanged_and_the_subprotocol_is_echoed() {
    let live = Live::start(&sh_server("echo", ECHO)).await;
    let mut events = live.events("happy").await;
    let mut ws = live.ws("echo", "happy").await.unwrap();
    assert_eq!(ws.protocol.as_deref(), Some("mcp"));
    let spawned = events.of_type("spawned").await;
    assert_eq!(spawned["server"], "echo");
    for frame in [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]"#,
        "not json at all",
        r#"{"text":"caf\u00e9 ☕"}"#,
    ] {
        ws.send(frame).await;
        assert_eq!(ws.recv().await, frame);
    }
    ws.stream.close(None).await.unwrap();
    wait_gone(pid_of(&spawned)).await;
    let exit = events.of_type("exit").await;
    assert!(
        exit["code"].is_number() || exit["signal"].is_number(),
        "{exit}"
    );
}

#[tokio::test]
async fn closing_the_websocket_ends_and_reaps_the_server() {
    let live = Live::start(&sh_server("echo", ECHO)).await;
    let mut events = live.events("close").await;
    let mut ws = live.ws("echo", "close").await.unwrap();
    let pid = pid_of(&events.of_type("spawned").await);
    assert!(process_exists(pid));
    drop(ws.stream.close(None).await);
    drop(ws);
    wait_gone(pid).await;
    events.of_type("exit").await;
    for _ in 0..200 {
        if live.state.running_children() == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the child slot was never released");
}

#[tokio::test]
async fn a_crash_mid_call_closes_with_the_exit_status_and_reports_it() {
    let script = "read l; echo 'about to crash' >&2; exit 7";
    let live = Live::start(&sh_server("crashy", script)).await;
    let mut events = live.events("crash").await;
    let mut ws = live.ws("crashy", "crash").await.unwrap();
    ws.send(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}"#)
        .await;
    let closed = ws.closed().await;
    assert_eq!(closed.code, 1011);
    assert_eq!(closed.reason, "server exited with status 7");
    let exit = events.of_type("exit").await;
    assert_eq!(exit["code"], 7);
    assert!(exit["signal"].is_null());
    let stderr = events.of_type("stderr").await;
    assert_eq!(stderr["line"], "about to crash");
    wait_gone(pid_of(&events.of_type("spawned").await)).await;
}

#[tokio::test]
async fn a_server_that_cannot_start_is_reported_and_others_keep_working() {
    let config = format!(
        "{}[[server]]\nname = \"broken\"\ncommand = \"/nonexistent/mcp-server\"\n",
        sh_server("echo", ECHO)
    );
    let live = Live::start(&config).await;
    let mut events = live.events("broken").await;
    let mut ws = live.ws("broken", "broken").await.unwrap();
    let closed = ws.closed().await;
    assert_eq!(closed.code, 1011);
    assert!(
        closed
            .reason
            .starts_with("could not start server \"broken\""),
        "{closed:?}"
    );
    assert!(closed.reason.len() <= 123);
    let err = events.of_type("error").await;
    assert!(
        err["message"].as_str().unwrap().contains("No such file"),
        "{err}"
    );
    assert_eq!(live.state.running_children(), 0);
    let mut ok = live.ws("echo", "other").await.unwrap();
    ok.send("{}").await;
    assert_eq!(ok.recv().await, "{}");
}

#[tokio::test]
async fn junk_on_stdout_is_relayed_as_is_and_noted_on_the_side_channel() {
    let script =
        "echo 'Starting server v1.0...'; echo '{\"jsonrpc\":\"2.0\",\"method\":\"x\"}'; read l";
    let live = Live::start(&sh_server("junky", script)).await;
    let mut events = live.events("junk").await;
    let mut ws = live.ws("junky", "junk").await.unwrap();
    assert_eq!(ws.recv().await, "Starting server v1.0...");
    assert_eq!(ws.recv().await, r#"{"jsonrpc":"2.0","method":"x"}"#);
    let err = events.of_type("error").await;
    let msg = err["message"].as_str().unwrap();
    assert!(
        msg.contains("not JSON") && msg.contains("Starting server"),
        "{msg}"
    );
}

#[tokio::test]
async fn a_stderr_flood_drops_the_oldest_events_with_a_count_and_nothing_else_stalls() {
    let script = "i=0; while [ $i -lt 3000 ]; do echo \"err $i\" >&2; i=$((i+1)); done; \
                  echo '{\"ready\":true}'; while IFS= read -r l; do printf '%s\\n' \"$l\"; done";
    let live = Live::start(&format!(
        "{}{}",
        sh_server("noisy", script),
        sh_server("echo", ECHO)
    ))
    .await;
    let mut ws = live.ws("noisy", "flood").await.unwrap();
    // The MCP stream is untouched by the flood.
    assert_eq!(ws.recv().await, r#"{"ready":true}"#);
    // Wait until the whole flood is in the log, then subscribe late.
    let channel = live.state.channels().get("flood").unwrap();
    let mut flooded = false;
    for _ in 0..400 {
        let batch =
            tokio::time::timeout(Duration::from_millis(50), channel.reader(0).next_batch()).await;
        if let Ok(b) = batch
            && b.iter().any(
                |(_, e)| matches!(e, mcpg_bridge::SideEvent::Stderr { line } if line == "err 2999"),
            )
        {
            flooded = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    assert!(flooded, "the flood never reached the log");
    let mut events = live.events("flood").await;
    let last = events
        .until("last stderr line", |v| v["line"] == "err 2999")
        .await;
    assert_eq!(last["type"], "stderr");
    assert_eq!(events.seen[0]["type"], "dropped");
    // spawned + 3000 lines, of which the channel keeps 512.
    let kept = mcpg_bridge::events::CHANNEL_CAPACITY as u64;
    assert_eq!(events.seen[0]["count"], 3001 - kept);
    assert_eq!(events.seen.len() as u64, kept + 1);
    ws.send("still here").await;
    assert_eq!(ws.recv().await, "still here");
    let mut other = live.ws("echo", "calm").await.unwrap();
    other.send("{}").await;
    assert_eq!(other.recv().await, "{}");
}

#[tokio::test]
async fn a_server_that_never_answers_is_closed_when_idle_and_killed_despite_ignoring_sigterm() {
    let script = "trap '' TERM; while :; do sleep 1; done";
    let config = format!("[limits]\nidle_seconds = 1\n{}", sh_server("mute", script));
    let live = Live::start(&config).await;
    let mut events = live.events("mute").await;
    let mut ws = live.ws("mute", "mute").await.unwrap();
    let pid = pid_of(&events.of_type("spawned").await);
    ws.send(r#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#)
        .await;
    let closed = ws.closed().await;
    assert_eq!(closed.code, 1000);
    assert!(closed.reason.contains("without traffic"), "{closed:?}");
    wait_gone(pid).await;
    let exit = events.of_type("exit").await;
    assert_eq!(exit["signal"], 9, "{exit}");
}

#[tokio::test]
async fn the_child_limit_answers_503_until_a_slot_frees_up() {
    let config = format!("[limits]\nmax_children = 1\n{}", sh_server("echo", ECHO));
    let live = Live::start(&config).await;
    let mut first = live.ws("echo", "one").await.unwrap();
    first.send("{}").await;
    assert_eq!(first.recv().await, "{}");
    let mut events = live.events("two").await;
    let refused = live
        .ws("echo", "two")
        .await
        .err()
        .expect("a second server was allowed");
    match refused {
        tokio_tungstenite::tungstenite::Error::Http(resp) => {
            assert_eq!(resp.status(), 503);
            let body = String::from_utf8(resp.body().clone().unwrap_or_default()).unwrap();
            assert!(body.contains("limit of 1 running servers"), "{body}");
        }
        other => panic!("expected HTTP 503, got {other:?}"),
    }
    let err = events.of_type("error").await;
    assert!(err["message"].as_str().unwrap().contains("limit"), "{err}");
    first.stream.close(None).await.unwrap();
    let mut second = None;
    for _ in 0..200 {
        if let Ok(ws) = live.ws("echo", "two").await {
            second = Some(ws);
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let mut second = second.expect("the slot never came back");
    second.send("{}").await;
    assert_eq!(second.recv().await, "{}");
}

/// Sends `sizes` (bytes) to an echo server behind a 1,024-byte limit, each but the
/// last echoed back; the last must close the socket with 1009 naming the limit.
async fn refused_with_a_clear_close(session: &str, sizes: &[usize]) {
    let config = format!(
        "[limits]\nmax_message_bytes = 1024\n{}",
        sh_server("echo", ECHO)
    );
    let live = Live::start(&config).await;
    let mut events = live.events(session).await;
    let mut ws = live.ws("echo", session).await.unwrap();
    let pid = pid_of(&events.of_type("spawned").await);
    let (last, passing) = sizes.split_last().unwrap();
    for &n in passing {
        ws.send(&"x".repeat(n)).await;
        assert_eq!(ws.recv().await.len(), n, "a message of {n} bytes passes");
    }
    ws.send(&"x".repeat(*last)).await;
    let closed = ws.closed().await;
    assert_eq!(closed.code, 1009);
    assert!(closed.reason.contains("limit is 1024 bytes"), "{closed:?}");
    wait_gone(pid).await;
}

#[tokio::test]
async fn a_message_over_the_limit_is_refused_with_a_clear_close() {
    refused_with_a_clear_close("big", &[1024, 1500]).await;
}

/// Past tungstenite's own cap (twice the limit) the read itself fails: the bridge
/// tells that failure by its type and still closes with 1009 and the limit.
#[tokio::test]
async fn a_message_past_the_backstop_is_refused_with_a_clear_close() {
    refused_with_a_clear_close("huge", &[5000]).await;
}

#[tokio::test]
async fn binary_frames_are_refused() {
    use futures_util::SinkExt;
    let live = Live::start(&sh_server("echo", ECHO)).await;
    let mut ws = live.ws("echo", "bin").await.unwrap();
    ws.stream
        .send(tokio_tungstenite::tungstenite::Message::binary(vec![
            1u8, 2, 3,
        ]))
        .await
        .unwrap();
    let closed = ws.closed().await;
    assert_eq!(closed.code, 1003);
    assert!(closed.reason.contains("text"), "{closed:?}");
}

#[tokio::test]
async fn a_server_exiting_cleanly_closes_normally() {
    let live = Live::start(&sh_server("once", "read l; printf '%s\\n' \"$l\"; exit 0")).await;
    let mut ws = live.ws("once", "once").await.unwrap();
    ws.send("[1]").await;
    let closed = ws.closed().await;
    assert_eq!(
        closed.texts,
        vec!["[1]".to_owned()],
        "output before the exit is delivered first"
    );
    assert_eq!(
        (closed.code, closed.reason.as_str()),
        (1000, "server exited with status 0")
    );
}

/// A server's answer over the limit is dropped, and the request it answered gets,
/// at once, a JSON-RPC error in the bridge's words (not a 60 s wait for nothing).
#[tokio::test]
async fn an_answer_over_the_limit_fails_its_request_at_once() {
    let script = "while read -r line; do \
                  printf '{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"%s\"}}\\n' \
                  \"$(head -c 2000 /dev/zero | tr '\\0' x)\"; done";
    let config = format!(
        "[limits]\nmax_message_bytes = 1024\n{}",
        sh_server("big", script)
    );
    let live = Live::start(&config).await;
    let mut ws = live.ws("big", "cut").await.unwrap();
    ws.send(r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"t"}}"#)
        .await;
    let answer: serde_json::Value = serde_json::from_str(&ws.recv().await).unwrap();
    assert_eq!(answer["id"], 7, "{answer}");
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("over its limit of 1024 bytes"),
        "{message}"
    );
    assert!(message.contains("limits.max_message_bytes"), "{message}");
}
