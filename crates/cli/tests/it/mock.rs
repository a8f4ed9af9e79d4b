//! `mcpg mock` serving a recorded demo session: `mcpg replay` finds no difference
//! (a 2026-07-28 recording and an `initialize`-generation one, from a file and a
//! link), an unrecorded call is refused with the nearest recorded call named, and a
//! hostile session is refused with the replay loader's errors; the server's
//! recorded question during a call is asked again.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

use mcpg_core::Timestamp;
use mcpg_core::client::{ClientConfig, GenerationMode};
use mcpg_demo::DemoServer;
use mcpg_recording::{Connection, Direction, Recording, WireRecord, encode_file, encode_link};
use serde_json::{Value, json};

use crate::replay::record_with;

fn mcpg(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `--stdio` for `mcpg mock SOURCE` (a temp path: no spaces or quotes in it).
fn mock_cmd(source: &str) -> String {
    format!("{} mock {source}", env!("CARGO_BIN_EXE_mcpg"))
}

pub(crate) fn write(dir: &Path, name: &str, s: &Recording) -> String {
    let file = dir.join(name);
    std::fs::write(&file, encode_file(s)).unwrap();
    file.to_str().unwrap().to_owned()
}

fn replays_clean(session: &str, generation: &str) {
    let (code, out, err) = mcpg(&["replay", session, "--stdio", &mock_cmd(session)]);
    assert_eq!(code, 0, "{generation}: {out}\n{err}");
    // The demo lists one tool more under `initialize` (26) than stateless (25).
    assert!(
        out.contains("ok    1. tools/list (2"),
        "{generation}: {out}"
    );
    assert!(out.contains(" in 5 pages recorded"), "{generation}: {out}");
    assert!(
        out.trim_end().ends_with("3 steps replayed, 0 differences"),
        "{generation}: {out}"
    );
}

#[test]
fn a_mocked_session_replays_clean_in_both_generations() {
    let dir = tempfile::tempdir().unwrap();
    let stateless = record_with(ClientConfig {
        mode: GenerationMode::Stateless,
        ..ClientConfig::default()
    });
    assert!(
        stateless.wire.iter().any(|w| w
            .text
            .as_deref()
            .is_some_and(|t| t.contains("server/discover"))),
        "a 2026-07-28 recording"
    );
    replays_clean(
        &write(dir.path(), "stateless.json", &stateless),
        "2026-07-28",
    );

    let initialize = record_with(ClientConfig {
        mode: GenerationMode::Initialize,
        ..ClientConfig::default()
    });
    assert!(
        initialize.wire.iter().any(|w| w
            .text
            .as_deref()
            .is_some_and(|t| t.contains("\"initialize\""))),
        "an initialize-generation recording"
    );
    replays_clean(
        &write(dir.path(), "initialize.json", &initialize),
        "2025-11-25",
    );
}

#[test]
fn a_link_is_served_with_the_demos_answers_regenerated() {
    let mut linked = record_with(ClientConfig::default());
    linked.elide_received(|_, _| true);
    // A bare fragment: no shell quoting needed in `--stdio`.
    let fragment = encode_link(&linked);
    let (code, out, err) = mcpg(&["replay", &fragment, "--stdio", &mock_cmd(&fragment)]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("0 differences"), "{out}");
}

#[test]
fn an_unrecorded_call_names_the_nearest_recorded_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "s.json", &record_with(ClientConfig::default()));
    let stdio = mock_cmd(&file);
    let (code, out, err) = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &stdio,
        "get_weather",
        "--args",
        r#"{"city":"Paris"}"#,
    ]);
    assert_ne!(code, 0, "{out}\n{err}");
    assert!(
        err.contains(r#"nearest recorded: get_weather {"city":"Austin"}"#),
        "{out}\n{err}"
    );
    // A recorded call is answered as recorded.
    let (code, out, err) = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &stdio,
        "get_weather",
        "--args",
        r#"{"city":"Austin"}"#,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("Austin: 91F, sunny"), "{out}");
}

#[test]
fn a_hostile_session_is_refused_with_the_replay_loaders_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = encode_file(&record_with(ClientConfig::default()));
    let oversized = format!(
        "{{\"pad\": \"{}\"}}",
        "x".repeat(mcpg_recording::MAX_INFLATED_BYTES)
    );
    let future = good.replacen("\"v\": ", "\"v\": 9999, \"old_v\": ", 1);
    let cut = good[..good.len() / 2].to_owned();
    for (name, text, words) in [
        ("oversized", oversized, "bytes; it was refused"),
        ("future", future, "made by a newer playground"),
        ("cut", cut, "could not be read"),
    ] {
        let file = dir.path().join(format!("{name}.json"));
        std::fs::write(&file, &text).unwrap();
        let file = file.to_str().unwrap();
        let (code, out, err) = mcpg(&["mock", file]);
        assert_eq!(code, 2, "{name}: {out}\n{err}");
        assert!(out.is_empty(), "{name}: nothing on stdout: {out}");
        assert!(err.contains(words), "{name}: {err}");
        // The same error as `mcpg replay` gives.
        let (_, _, replay_err) = mcpg(&["replay", file, "--stdio", "true"]);
        assert_eq!(err, replay_err, "{name}");
    }
}

/// Sends `line` to the demo and records both directions; returns what it said.
fn say(server: &mut DemoServer, s: &mut Recording, line: Value) -> Vec<Value> {
    let text = line.to_string();
    s.wire.push(WireRecord {
        direction: Direction::Sent,
        at_ms: 0,
        text: Some(text.clone()),
        hash: None,
    });
    server.handle_text(Timestamp::ZERO, &text);
    let mut out = Vec::new();
    while let Some(m) = server.poll_transmit() {
        s.wire.push(WireRecord {
            direction: Direction::Received,
            at_ms: 0,
            text: Some(m.raw().into()),
            hash: None,
        });
        out.push(serde_json::from_str(m.raw()).unwrap());
    }
    out
}

/// An `initialize`-generation session where the demo asked for the party size
/// during a `reserve_table` call (and the client accepted: 4 at 19:30).
pub(crate) fn asks_session() -> Recording {
    let mut server = DemoServer::new();
    let mut s = Recording::new(Connection::Embedded);
    let rpc = |id: u64, method: &str, params: Value| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    say(
        &mut server,
        &mut s,
        rpc(
            1,
            "initialize",
            json!({
                "protocolVersion": "2025-11-25",
                "capabilities": {"elicitation": {"form": {}}},
                "clientInfo": {"name": "t", "version": "1"},
            }),
        ),
    );
    say(
        &mut server,
        &mut s,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    );
    let asked = say(
        &mut server,
        &mut s,
        rpc(
            2,
            "tools/call",
            json!({"name": "reserve_table", "arguments": {}}),
        ),
    );
    assert_eq!(asked[0]["method"], "elicitation/create", "{asked:?}");
    let answer = json!({"jsonrpc": "2.0", "id": asked[0]["id"], "result": {
        "action": "accept", "content": {"party": 4, "time": "19:30"},
    }});
    let done = say(&mut server, &mut s, answer);
    assert!(done.iter().any(|m| m["id"] == 2), "{done:?}");
    s
}

#[test]
fn the_servers_recorded_question_is_asked_again() {
    let s = asks_session();
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "asks.json", &s);
    let (code, out, err) = mcpg(&[
        "tools",
        "call",
        "reserve_table",
        "--stdio",
        &mock_cmd(&file),
        "--protocol",
        "initialize",
        "--on-elicit",
        "decline",
        "--verbose",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    // Asked again; the recorded answer follows, whatever this client answered.
    assert!(err.contains("server asks (elicitation/create)"), "{err}");
    assert!(
        out.contains("Pretend-booked a table for 4 at 19:30"),
        "{out}"
    );
}
