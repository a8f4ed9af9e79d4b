//! A shared session in which the server asked: the replay answers each question the
//! way the learner did (the answers are the responses and retries the recording
//! sent), in both generations, with no network and the same frames. Natively and
//! in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::ProtocolVersion;
use mcpg_host::asks::{ElicitAction, Reply, Sampled};
use mcpg_page::{AskCommand, AskState, Command, Pin};
use mcpg_recording::{decode_link, encode_link};
use support::Shell;

/// The demo, pinned to `pin`, runs `prompt` until the server asks, the learner
/// answers with `reply`, and the loop runs to its end.
fn live(pin: Option<ProtocolVersion>, prompt: &str, reply: Reply) -> Shell {
    let mut live = Shell::demo();
    if let Some(v) = pin {
        live.cmd(Command::Pin(Pin::Revision(v)));
        live.advance(1_000);
    }
    live.cmd(Command::SetPrompt(prompt.into()));
    live.cmd(Command::Run);
    live.advance(5_000);
    assert_eq!(live.asks.len(), 1, "{:?}", live.notes());
    assert_eq!(live.asks[0].state, AskState::Waiting);
    let id = live.asks[0].id;
    live.cmd(Command::Ask(AskCommand::Answer { id, reply }));
    live.advance(5_000);
    assert!(live.all_done(), "{:?}", live.notes());
    live
}

/// Shares `live` by link, replays it (pinned as it was: a session does not record
/// the pin), and checks the replay answered as it did.
fn replays_the_same(live: &Shell) {
    let link = encode_link(&mcpg_page::link_session(&live.d.record()));
    let mut replay = Shell::new();
    replay.cmd(Command::Pin(live.d.pin()));
    replay.cmd(Command::OpenShared {
        session: Box::new(decode_link(&link).expect("a good link")),
        from: "link".into(),
    });
    replay.cmd(Command::Run);
    replay.advance(5_000);
    assert_eq!(replay.notice, None, "{:?}", replay.notes());
    replay.assert_replays(live);
    assert_eq!(replay.asks.len(), 1);
    assert_eq!(replay.asks[0].state, live.asks[0].state);
    assert!(
        replay
            .notes()
            .iter()
            .any(|n| n.contains("answered as recorded") || n.contains("recorded inputResponses")),
        "{:?}",
        replay.notes()
    );
}

#[test]
fn a_classic_sampling_request_is_answered_in_the_replay_as_the_learner_did() {
    let reply = Reply::Sampled(Sampled::text("A note on errors, by hand", "you"));
    let live = live(
        Some(ProtocolVersion::V2025_11_25),
        "Summarize the note about errors",
        reply,
    );
    assert!(live.answer.as_deref().unwrap_or("").contains("by hand"));
    replays_the_same(&live);
}

#[test]
fn an_input_required_booking_declined_is_declined_again_in_the_replay() {
    let live = live(
        None,
        "Reserve a table for dinner",
        Reply::Elicited(ElicitAction::Decline),
    );
    assert!(live.answer.as_deref().unwrap_or("").contains("declined"));
    replays_the_same(&live);
}
