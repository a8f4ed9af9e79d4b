//! What a stdio server cannot take from the bridge: the secrets meant for remotes
//! (`env:` header variables), a life for its own children after it ends, and
//! unbounded memory when the page stops reading.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::time::Duration;

use support::*;

fn pid_of(ev: &serde_json::Value) -> u32 {
    u32::try_from(ev["pid"].as_u64().unwrap()).unwrap()
}

/// Whether `pid` is still running (a zombie waiting for a reaper that is not the
/// bridge has ended: it counts as gone).
fn running(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // The state follows the command name in parentheses: `123 (sleep) S …`.
        Ok(stat) => !stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
        Err(_) => false,
    }
}

#[tokio::test]
async fn variables_behind_env_headers_are_not_inherited_by_servers() {
    // HOME stands in for a secret: it is set wherever the tests run, and a test
    // cannot set a variable of its own (that needs `unsafe`).
    assert!(
        std::env::var_os("HOME").is_some(),
        "the test needs HOME set"
    );
    let config = format!(
        "{}\n[[remote]]\nname = \"far\"\nurl = \"https://far.example/mcp\"\n\
         headers = {{ Authorization = \"env:HOME\" }}\n",
        sh_server(
            "peek",
            "printf '%s|%s\\n' \"${HOME-absent}\" \"${PATH:+path}\"; exec cat"
        )
    );
    let live = Live::start(&config).await;
    let mut ws = live.ws("peek", "peek").await.unwrap();
    // The secret is gone; the rest of the environment is still there.
    assert_eq!(ws.recv().await, "absent|path");
}

#[tokio::test]
async fn a_servers_grandchildren_stop_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("grandchild");
    // The server leaves a long sleeper behind and exits after one line.
    let script = format!(
        "sleep 1000 & echo $! > {}; read l; exit 0",
        pidfile.display()
    );
    let live = Live::start(&sh_server("parent", &script)).await;
    let mut events = live.events("family").await;
    let mut ws = live.ws("parent", "family").await.unwrap();
    let server = pid_of(&events.of_type("spawned").await);
    let mut grandchild = None;
    for _ in 0..400 {
        if let Ok(text) = std::fs::read_to_string(&pidfile)
            && let Ok(pid) = text.trim().parse::<u32>()
        {
            grandchild = Some(pid);
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let grandchild = grandchild.expect("the server wrote its child's pid");
    assert!(running(grandchild));
    ws.send("bye").await;
    wait_gone(server).await;
    events.of_type("exit").await;
    for _ in 0..200 {
        if !running(grandchild) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("the server's child {grandchild} outlived it");
}

#[tokio::test]
async fn a_page_that_stops_reading_gets_a_dropped_notice_not_a_stalled_server() {
    // 30,000 lines of 900 bytes (27 MB) against a queue of 2 × 1 KiB: far more than
    // the socket buffers on the way hold while the page reads nothing.
    let script = "yes \"$(head -c 900 /dev/zero | tr '\\0' x)\" | head -n 30000; \
                  echo done >&2; exec cat";
    let config = format!(
        "[limits]\nmax_message_bytes = 1024\n{}",
        sh_server("flood", script)
    );
    let live = Live::start(&config).await;
    let mut events = live.events("stall").await;
    let _ws = live.ws("flood", "stall").await.unwrap();
    let dropped = events.of_type("output_dropped").await;
    assert!(dropped["bytes"].as_u64().unwrap() >= 900, "{dropped}");
    assert!(dropped["lines"].as_u64().unwrap() >= 1, "{dropped}");
    // The server was never blocked by the stalled page: it finished writing.
    events
        .until("the server's stderr line", |v| {
            v["type"] == "stderr" && v["line"] == "done"
        })
        .await;
}
