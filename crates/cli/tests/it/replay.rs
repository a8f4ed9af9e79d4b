//! `mcpg replay` against the demo server: a faithful recording replays clean, a
//! recording whose answer changed is reported with the difference.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, ClientConfig, Event};
use mcpg_demo::DemoServer;
use mcpg_recording::{Connection, Direction, Recording, WireRecord, encode_file, encode_link};
use serde_json::json;

/// Records the walkthrough (every page of tools/list, then get_weather twice) as the page would.
fn record() -> Recording {
    record_with(ClientConfig::default())
}

/// [`record`] by a client configured as `config` (its generation, its revisions).
pub(crate) fn record_with(config: ClientConfig) -> Recording {
    let mut client = Client::new(config);
    let mut server = DemoServer::new();
    let mut s = Recording::new(Connection::Embedded);
    s.messages.push("What's the weather in Austin?".into());
    let now = Timestamp::ZERO;
    client.connect(now);
    client.list_tools(now);
    let mut calls = 0;
    loop {
        let mut moved = false;
        while let Some(o) = client.poll_transmit() {
            s.wire.push(WireRecord {
                direction: Direction::Sent,
                at_ms: 0,
                text: Some(o.message.raw().into()),
                hash: None,
            });
            server.handle_text(now, o.message.raw());
            moved = true;
        }
        while let Some(m) = server.poll_transmit() {
            s.wire.push(WireRecord {
                direction: Direction::Received,
                at_ms: 0,
                text: Some(m.raw().into()),
                hash: None,
            });
            client.handle_text(now, m.raw());
            moved = true;
        }
        while let Some(e) = client.poll_event() {
            if matches!(e, Event::ToolsListed { .. } | Event::CallFinished { .. }) && calls < 2 {
                let city = if calls == 0 { "Austin" } else { "Atlantis" };
                calls += 1;
                client.call_tool(
                    now,
                    "get_weather",
                    json!({ "city": city }).as_object().cloned(),
                    CallOptions::default(),
                );
            }
        }
        if !moved {
            return s;
        }
    }
}

fn replay(source: &str) -> (i32, String, String) {
    let mcpg = env!("CARGO_BIN_EXE_mcpg");
    let out = Command::new(mcpg)
        .args(["replay", source, "--stdio", &format!("{mcpg} demo")])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_faithful_recording_replays_clean_from_a_file_and_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let s = record();
    let file = dir.path().join("session.json");
    std::fs::write(&file, encode_file(&s)).unwrap();
    let (code, out, err) = replay(file.to_str().unwrap());
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("ok    1. tools/list (25 tools in 5 pages recorded, 25 live)"),
        "{out}"
    );
    assert!(out.contains("tools/call get_weather"), "{out}");
    assert!(
        out.trim_end().ends_with("3 steps replayed, 0 differences"),
        "{out}"
    );

    // A link leaves out the demo's answers; replay regenerates and checks them first.
    let mut linked = s.clone();
    linked.elide_received(|_, _| true);
    let link = format!("http://127.0.0.1:9/?token=x#{}", encode_link(&linked));
    let (code, out, err) = replay(&link);
    assert_eq!(code, 0, "{out}\n{err}");
}

#[test]
fn a_changed_answer_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = record();
    // Pretend the server answered differently when the session was recorded.
    let rec = s
        .wire
        .iter_mut()
        .find(|w| {
            w.text
                .as_deref()
                .is_some_and(|t| t.contains("Austin: 91F, sunny"))
        })
        .unwrap();
    rec.text = rec
        .text
        .as_ref()
        .map(|t| t.replace("Austin: 91F, sunny", "Austin: 75F, cloudy"));
    let file = dir.path().join("changed.json");
    std::fs::write(&file, encode_file(&s)).unwrap();
    let (code, out, err) = replay(file.to_str().unwrap());
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("DIFF  2. tools/call get_weather"), "{out}");
    assert!(
        out.contains("/content/0/text: \"Austin: 75F, cloudy\" → \"Austin: 91F, sunny\""),
        "{out}"
    );
    assert!(out.contains("3 steps replayed, 1 differences"), "{out}");
    assert_eq!(err.lines().count(), 1, "one line on stderr: {err}");
}

#[test]
fn a_bad_link_is_a_usage_error() {
    let (code, _, err) = replay("#s1.%%%");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("corrupted"), "{err}");
}
