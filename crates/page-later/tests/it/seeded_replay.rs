//! A loop seeded by a prompt (**Use in the loop**) shared by link and replayed with
//! no network: the replay shows the recorded steps, seeded messages included.
//! Natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::JsonObject;
use mcpg_page::{Command, FeatureCommand};
use mcpg_recording::{SeedRole, decode_link, encode_link};
use serde_json::json;
use support::Shell;

/// The embedded demo's `plan_trip` for Austin, used in the loop and run to its end.
fn live_seeded_loop() -> Shell {
    let mut live = Shell::demo();
    let mut arguments = JsonObject::new();
    arguments.insert("city".into(), json!("Austin"));
    arguments.insert("days".into(), json!("2"));
    live.cmd(Command::Feature(FeatureCommand::GetPrompt {
        name: "plan_trip".into(),
        arguments,
    }));
    live.cmd(Command::Feature(FeatureCommand::UsePrompt));
    live.advance(5_000);
    assert_eq!(live.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(live.all_done());
    live
}

#[test]
fn a_prompt_seeded_loop_replays_from_its_link_with_the_same_steps() {
    let live = live_seeded_loop();
    let recorded = live.d.record();
    let seed = recorded
        .seeds
        .first()
        .cloned()
        .flatten()
        .expect("the loop's seed");
    assert_eq!(seed.len(), 1);
    assert_eq!(seed[0].role, SeedRole::User);
    assert!(seed[0].text.contains("Austin"), "{}", seed[0].text);
    let link = encode_link(&mcpg_page::link_session(&recorded));
    let opened = decode_link(&link).expect("a good link");
    assert_eq!(opened.seeds, recorded.seeds);

    let mut replay = Shell::replaying(opened);
    replay.cmd(Command::Run);
    replay.advance(5_000);
    assert_eq!(replay.notice, None, "{:?}", replay.notes());
    replay.assert_replays(&live);
    // Step 2 shows the prompt's messages, as the live loop did.
    let step2 = &replay.steps[1].blocks;
    assert!(
        step2.iter().any(|b| b.json.contains(&seed[0].text)),
        "{step2:?}"
    );
}

#[test]
fn a_loop_from_a_message_records_no_seed() {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(5_000);
    assert!(live.all_done());
    let recorded = live.d.record();
    assert!(recorded.seeds.is_empty());
    assert!(recorded.to_json().get("seeds").is_none());
}
