//! A shared session replayed with no network, the bounded wire log and its export,
//! and pinning a protocol revision.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::ProtocolVersion;
use mcpg_page::{Command, Pin, Source, WireLog};
use mcpg_recording::{decode_link, encode_link};
use support::Shell;

#[test]
fn a_shared_walkthrough_replays_step_by_step_with_no_network_output() {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(5_000);
    assert!(live.all_done());
    let recorded = live.d.record();
    assert!(!recorded.wire.is_empty());
    let link = encode_link(&mcpg_page::link_session(&recorded));
    let opened = decode_link(&link).expect("a good link");

    let mut replay = Shell::replaying(opened);
    for _ in 0..5 {
        replay.cmd(Command::Step);
    }
    replay.assert_replays(&live);
}

/// A 2026-07-28 link recorded before the page declared the Tasks extension (its
/// frames without it, its demo answers regenerated from them: 25 tools) replays:
/// the replay declares what the recording did, so its frames are the recording's.
#[test]
fn a_link_recorded_before_the_tasks_extension_still_replays() {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(5_000);
    assert!(live.all_done());
    // The old page's session: the same frames without the declaration, and the
    // demo's answers to those.
    let mut old = live.d.record();
    let declared = support::recorded_without(&mut old, r#","io.modelcontextprotocol/tasks":{}"#);
    assert!(declared > 5, "the live page declared it: {declared}");
    let opened = decode_link(&encode_link(&mcpg_page::link_session(&old))).expect("a good link");
    let mut replay = Shell::replaying(opened);
    replay.cmd(Command::Run);
    replay.advance(5_000);
    assert_eq!(replay.numbers(), [1, 2, 3, 4, 5, 6], "{:?}", replay.notes());
    assert!(replay.all_done());
    assert_eq!(replay.answer, live.answer);
    assert!(replay.network().is_empty(), "{:?}", replay.network());
    let sent: Vec<String> = replay
        .wire()
        .into_iter()
        .filter(|w| w.0)
        .map(|w| w.1)
        .collect();
    assert!(!sent.is_empty());
    assert!(
        !sent
            .iter()
            .any(|w| w.contains("io.modelcontextprotocol/tasks")),
        "{sent:#?}"
    );
    let tools: usize = replay.d.pages.iter().map(|p| p.tools.len()).sum();
    assert_eq!(
        tools, 25,
        "the demo's answers regenerated as the old page got them"
    );
}

#[test]
fn a_replay_that_diverges_says_so_and_sends_nothing() {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(5_000);
    let recorded = live.d.record();
    let mut replay = Shell::new();
    replay.cmd(Command::OpenShared {
        session: Box::new(recorded),
        from: "file".into(),
    });
    // A second loop asks for things the recording never had.
    replay.cmd(Command::Run);
    replay.advance(5_000);
    replay.cmd(Command::SetPrompt("Tell me a joke".into()));
    replay.cmd(Command::Run);
    replay.advance(5_000);
    replay.cmd(Command::ListTools);
    assert!(
        replay
            .notice
            .as_deref()
            .unwrap_or("")
            .contains("not in the recorded session"),
        "{:?}",
        replay.notice
    );
    assert!(replay.network().is_empty());
}

#[test]
fn a_bad_shared_session_gives_one_notice_and_connects_nothing() {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(5_000);
    let mut bad = live.d.record();
    bad.script = vec![serde_json::json!({"nonsense": true})];
    let mut s = Shell::new();
    s.cmd(Command::OpenShared {
        session: Box::new(bad),
        from: "file".into(),
    });
    assert!(
        s.notice
            .as_deref()
            .unwrap_or("")
            .contains("cannot be replayed")
    );
    assert!(s.effects.is_empty());
    assert_eq!(s.d.conn(), 0, "no connection was made");
}

#[test]
fn the_wire_log_is_bounded_counts_what_it_dropped_and_exports_it() {
    let mut s = Shell::with_log(WireLog::with_capacity(50));
    s.cmd(Command::Connect(Source::Demo));
    let changes = s.view_changes;
    s.cmd(Command::ListToolsTimes(10));
    assert!(
        s.view_changes - changes <= 2,
        "one log change per input, not per row ({})",
        s.view_changes - changes
    );
    let log = s.d.log();
    assert_eq!(log.len(), 50);
    let meta = log.meta();
    assert!(meta.dropped > 0);
    assert_eq!(meta.appended, meta.dropped + 50);
    let json = log.to_json();
    assert_eq!(json["dropped"], meta.dropped);
    assert_eq!(json["rows"].as_array().map(Vec::len), Some(50));
    assert_eq!(
        json["rows"][49]["seq"], meta.appended,
        "the newest row is kept"
    );
    // A session still records every message, not only the kept ones.
    assert_eq!(s.d.record().wire.len() as u64, meta.appended);
}

#[test]
fn appending_ten_thousand_rows_keeps_the_newest_five_thousand() {
    let mut log = WireLog::default();
    for _ in 0..10_000 {
        let seq = log.next_seq();
        log.push(mcpg_page::LogRow::Note {
            seq,
            text: "x".into(),
        });
    }
    assert_eq!(log.len(), mcpg_page::LOG_CAPACITY);
    assert_eq!(log.dropped(), 5_000);
    assert_eq!(log.rows(0, 1)[0].seq(), 5_001);
    assert_eq!(log.rows(4_999, 9_999).len(), 1);
}

fn first_sent(s: &Shell) -> String {
    s.wire()
        .into_iter()
        .find(|w| w.0)
        .map(|w| w.1)
        .unwrap_or_default()
}

#[test]
fn pinning_a_revision_reconnects_and_changes_the_wire() {
    let mut s = Shell::demo();
    assert!(
        first_sent(&s).contains("server/discover"),
        "auto probes first"
    );
    s.cmd(Command::Pin(Pin::Revision(ProtocolVersion::V2025_11_25)));
    let first = first_sent(&s);
    assert!(first.contains("\"initialize\""), "{first}");
    assert!(first.contains("2025-11-25"));
    assert!(!s.wire().iter().any(|w| w.1.contains("server/discover")));
    assert_eq!(s.conn, mcpg_page::Conn::Ready);
    s.cmd(Command::Run);
    s.advance(5_000);
    assert!(s.all_done());
    assert!(
        s.wire()
            .iter()
            .filter(|w| w.0 && w.1.contains("tools/call"))
            .all(|w| !w.1.contains("io.modelcontextprotocol/protocolVersion")),
        "no stateless _meta under 2025-11-25"
    );
    s.cmd(Command::Pin(Pin::Revision(ProtocolVersion::V2026_07_28)));
    assert!(first_sent(&s).contains("server/discover"));
    assert!(!s.wire().iter().any(|w| w.1.contains("\"initialize\"")));
    assert_eq!(Pin::from_id("2026-07-28"), s.d.pin());
    assert_eq!(Pin::from_id("auto"), Pin::Auto);
}
