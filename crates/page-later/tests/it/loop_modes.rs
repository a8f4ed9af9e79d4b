//! The six-step loop against the embedded demo, in step mode and in run mode, under a
//! virtual clock; and the guard against a second loop.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_page::{Command, RUN_PACE};
use support::Shell;

/// The `tools/call` frame step 4 sends for "What's the weather in Austin?" (the
/// page declares sampling, elicitation, roots, the MCP Apps extension and, on
/// every 2026-07-28 request, the Tasks extension).
const CALL: &str = r#"{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Austin"},"_meta":{"progressToken":"mcpg-5","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true},"extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]},"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/clientInfo":{"name":"mcp-playground","version":"0.1.0"}}}}"#;

#[test]
fn step_mode_performs_one_step_per_command() {
    let mut s = Shell::demo();
    let mut seen = Vec::new();
    for _ in 0..5 {
        s.cmd(Command::Step);
        seen.push(s.steps.len());
    }
    assert_eq!(seen, [1, 2, 3, 5, 6], "step 4 and 5 arrive together");
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(s.all_done());
    assert_eq!(
        s.answer.as_deref(),
        Some("get_weather says: Austin: 91F, sunny")
    );
    let sent: Vec<String> = s.wire().into_iter().filter(|w| w.0).map(|w| w.1).collect();
    assert!(sent.iter().any(|w| w == CALL), "{sent:#?}");
    let s4 = &s.steps[3];
    assert!(s4.blocks[0].json.contains("\"city\": \"Austin\""));
    let s5 = &s.steps[4];
    assert!(s5.blocks[0].json.contains("Austin: 91F, sunny"));
    assert_eq!(s.next_step, None);
    assert!(!s.running);
}

#[test]
fn run_mode_is_paced_by_the_virtual_clock() {
    let mut s = Shell::demo();
    let start = s.now;
    s.cmd(Command::Run);
    assert!(s.running);
    assert_eq!(s.steps.len(), 1, "the first step is at once");
    assert_eq!(
        s.d.poll_timeout(),
        Some(start.after(RUN_PACE)),
        "the next step waits one pace"
    );
    s.advance(RUN_PACE.as_millis() as u64 - 1);
    assert_eq!(s.steps.len(), 1, "not before the pace");
    s.advance(1);
    assert_eq!(s.steps.len(), 2);
    s.advance(10 * RUN_PACE.as_millis() as u64);
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(s.all_done());
    assert!(!s.running, "run mode ends with the loop");
    // get_weather links a view: the one deadline left is its handshake's (no
    // frame answers in this shell), and once it passed nothing is left.
    assert_eq!(s.apps.len(), 1);
    s.advance(mcpg_apps::INIT_MS);
    assert!(s.apps.is_empty());
    assert_eq!(s.d.poll_timeout(), None, "nothing left to wake for");
    assert!(s.wire().iter().any(|w| w.1 == CALL));
}

#[test]
fn run_and_step_never_start_a_second_loop_while_one_runs() {
    let mut s = Shell::demo();
    s.cmd(Command::Run);
    // A new loop would send a new tools/list, with a new id, as its step 1.
    let sent = s.steps[0].blocks[0].clone();
    s.cmd(Command::Run);
    assert!(
        s.notice
            .as_deref()
            .unwrap_or("")
            .contains("already running")
    );
    s.cmd(Command::Step);
    assert_eq!(s.steps[0].blocks[0], sent, "no new loop");
    assert_eq!(s.steps.len(), 1, "no extra step");
    assert_eq!(
        s.notes()
            .iter()
            .filter(|n| n.contains("already running"))
            .count(),
        2,
        "both refusals are in the log"
    );
    // Pausing lets the learner step again, in the same loop.
    s.cmd(Command::Pause);
    s.cmd(Command::Step);
    assert_eq!(s.steps[0].blocks[0], sent);
    assert_eq!(s.steps.len(), 2);
}

#[test]
fn a_finished_loop_then_run_starts_the_next_loop_and_records_both() {
    let mut s = Shell::demo();
    s.cmd(Command::Run);
    s.advance(5_000);
    assert!(s.all_done());
    s.cmd(Command::SetPrompt("What's the weather in Atlantis?".into()));
    s.cmd(Command::Run);
    s.advance(5_000);
    assert!(
        s.answer
            .as_deref()
            .unwrap_or("")
            .contains("city not found: Atlantis")
    );
    let rec = s.d.record();
    assert_eq!(
        rec.messages,
        [
            "What's the weather in Austin?",
            "What's the weather in Atlantis?"
        ]
    );
    assert_eq!(rec.script.len(), 4, "two turns per loop: {:?}", rec.script);
}
