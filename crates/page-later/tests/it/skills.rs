//! The Skills panel's driver against the embedded demo (2026-07-28 declares the
//! Skills extension): the listing, each file read and verified against its
//! entry's size and digest, "use in the loop" adding the verified SKILL.md to the
//! system prompt shown in step 2; nothing asked of a 2025-11-25 session, and a
//! skill that was not verified is not used. Natively and in Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::ProtocolVersion;
use mcpg_loop_data::BlockKind;
use mcpg_page::features::view::{FileCheck, ListState};
use mcpg_page::{Command, FeatureCommand, Pin};
use support::Shell;

fn feature(s: &mut Shell, c: FeatureCommand) {
    s.cmd(Command::Feature(c));
}

#[test]
fn a_skill_is_listed_read_verified_and_used_in_the_loop() {
    let mut s = Shell::demo();
    feature(&mut s, FeatureCommand::ListSkills);
    let v = s.panels.skills.clone();
    assert_eq!(v.state, ListState::Done, "{v:?}");
    assert_eq!(v.skills.len(), 1);
    let skill = &v.skills[0];
    assert_eq!(skill.name, "weather-report");
    assert!(skill.invalid.is_none());
    let paths: Vec<&str> = skill.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "references/cities.md"]);
    assert!(skill.files.iter().all(|f| f.check == FileCheck::Unread));
    assert!(skill.files[0].digest.starts_with("sha256:"));

    // Not read yet: not usable.
    feature(
        &mut s,
        FeatureCommand::UseSkill {
            name: "weather-report".into(),
            on: true,
        },
    );
    assert!(!s.panels.skills.skills[0].used);
    assert!(
        s.notes()
            .iter()
            .any(|n| n.contains("not been read and verified"))
    );

    feature(&mut s, FeatureCommand::ReadSkill("weather-report".into()));
    let skill = s.panels.skills.skills[0].clone();
    assert!(
        skill.files.iter().all(|f| f.check == FileCheck::Verified),
        "{skill:?}"
    );
    let md = skill.instructions.clone().unwrap();
    assert!(md.starts_with("---\nname: weather-report"), "{md}");

    feature(
        &mut s,
        FeatureCommand::UseSkill {
            name: "weather-report".into(),
            on: true,
        },
    );
    assert!(s.panels.skills.skills[0].used);
    s.cmd(Command::Step);
    s.cmd(Command::Step);
    let step2 = s.steps.iter().find(|st| st.number == 2).unwrap();
    let system = step2
        .blocks
        .iter()
        .find(|b| b.kind == BlockKind::Built && b.label.contains("system prompt"))
        .expect("step 2 shows the system prompt with the skill");
    assert!(system.label.contains("weather-report"), "{}", system.label);
    assert!(system.json.contains("# Skill: weather-report"));
    assert!(system.json.contains("name: weather-report"));

    // Stopped: the next loop's step 2 has no such block.
    feature(
        &mut s,
        FeatureCommand::UseSkill {
            name: "weather-report".into(),
            on: false,
        },
    );
    s.cmd(Command::Reset);
    s.cmd(Command::Step);
    s.cmd(Command::Step);
    let step2 = s.steps.iter().find(|st| st.number == 2).unwrap();
    assert!(
        !step2
            .blocks
            .iter()
            .any(|b| b.label.contains("system prompt"))
    );
}

#[test]
fn a_2025_11_25_session_is_not_asked_for_skills() {
    let mut s = Shell::demo();
    s.cmd(Command::Pin(Pin::Revision(ProtocolVersion::V2025_11_25)));
    let sent_before = s.wire().len();
    feature(&mut s, FeatureCommand::ListSkills);
    match &s.panels.skills.state {
        ListState::Undeclared(why) => {
            assert!(why.contains("io.modelcontextprotocol/skills"), "{why}")
        }
        other => panic!("{other:?}"),
    }
    assert!(
        !s.wire()[sent_before..]
            .iter()
            .any(|(sent, raw)| *sent && raw.contains("skills/list")),
        "nothing asked"
    );
}
