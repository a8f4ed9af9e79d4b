//! The naive host's mistakes, one at a time, through the page's own driver with the
//! embedded demo and the mock model under a virtual clock: each one switched on
//! shows the mistake, and switched off (the careful host) the correct behaviour.
//! Every step card where the pitfall mattered says whose choice it was.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::{Step, StepStatus};
use mcpg_loop_data::{BlockKind, Pitfall, Pitfalls, Provider};
use mcpg_page::{Command, Pin};
use serde_json::json;
use support::Shell;
use support::peer::{Peer, connect};

/// Plays `prompt` to the loop's end on the demo, with `pitfalls` and `provider`.
fn play(pitfalls: Pitfalls, provider: Provider, prompt: &str) -> Shell {
    let mut s = Shell::demo();
    s.cmd(Command::SetPitfalls(pitfalls));
    s.cmd(Command::SetProvider(provider));
    s.cmd(Command::SetPrompt(prompt.to_owned()));
    finish(&mut s);
    s
}

/// Steps until the loop is over, letting virtual time pass for slow tools.
fn finish(s: &mut Shell) {
    for _ in 0..40 {
        s.cmd(Command::Step);
        s.advance(1_000);
        if s.next_step.is_none() {
            return;
        }
    }
    panic!("the loop did not end: {:?}", s.numbers());
}

fn naive(p: Pitfall) -> Pitfalls {
    Pitfalls::only(p)
}

fn careful() -> Pitfalls {
    Pitfalls::NONE
}

fn step(s: &Shell, n: u8) -> &Step {
    s.steps.iter().rev().find(|x| x.number == n).unwrap()
}

/// The choices about `p` on step `n`: (naive, text).
fn choices(s: &Shell, n: u8, p: Pitfall) -> Vec<(bool, String)> {
    step(s, n)
        .choices
        .iter()
        .filter(|c| c.pitfall == p)
        .map(|c| (c.naive, c.text.clone()))
        .collect()
}

fn sent(s: &Shell) -> Vec<String> {
    s.wire().into_iter().filter(|w| w.0).map(|w| w.1).collect()
}

#[test]
fn the_setting_is_echoed_and_the_default_is_the_careful_host() {
    let mut s = Shell::demo();
    assert!(s.d.pitfalls.is_careful());
    s.cmd(Command::SetPitfalls(naive(Pitfall::RawNames)));
    assert!(s.d.pitfalls.has(Pitfall::RawNames));
}

#[test]
fn first_page_only_hides_later_tools_from_the_model() {
    let prompt = "What is the square of 7?";
    let n = play(naive(Pitfall::FirstPageOnly), Provider::Anthropic, prompt);
    let lists = sent(&n)
        .iter()
        .filter(|w| w.contains("\"method\":\"tools/list\""))
        .count();
    // Five of the page's own Tools panel at connect (every page), one of the loop.
    assert_eq!(lists, 6, "the naive loop sends one tools/list, no cursor");
    let s1 = step(&n, 1);
    assert_eq!(s1.status, StepStatus::Done);
    assert_eq!(s1.blocks.len(), 2, "one request, one page");
    assert!(s1.blocks[1].json.contains("\"nextCursor\""));
    let c = choices(&n, 1, Pitfall::FirstPageOnly);
    assert!(
        c[0].0 && c[0].1.contains("read page 1 only (6 tools)"),
        "{c:?}"
    );
    // math.square is on page 4: the model never saw it.
    assert!(!step(&n, 2).blocks[0].json.contains("math"));
    assert!(!n.steps.iter().any(|x| x.number == 4), "{:?}", n.numbers());
    assert!(
        n.answer.as_deref().unwrap().contains("None of the 6 tools"),
        "{:?}",
        n.answer
    );

    let c = play(careful(), Provider::Anthropic, prompt);
    assert_eq!(step(&c, 1).blocks.len(), 10, "five requests, five pages");
    let ch = choices(&c, 1, Pitfall::FirstPageOnly);
    assert_eq!(
        ch,
        [(
            false,
            "followed nextCursor through 5 pages and got all 26 tools".to_owned()
        )]
    );
    assert!(step(&c, 4).blocks[0].json.contains("math.square"));
    assert_eq!(c.answer.as_deref(), Some("math.square says: 49"));
}

#[test]
fn raw_names_get_the_providers_400_in_its_own_shape() {
    let prompt = "What is the square of 7?";
    for (provider, marker) in [
        (Provider::Anthropic, "\"invalid_request_error\""),
        (Provider::OpenAiChat, "tools[19].function.name"),
        (Provider::OpenAiResponses, "tools[19].name"),
    ] {
        let n = play(naive(Pitfall::RawNames), provider, prompt);
        assert_eq!(n.numbers(), [1, 2, 3], "{provider:?}");
        assert!(step(&n, 2).blocks[0].json.contains("\"math.square\""));
        let c2 = choices(&n, 2, Pitfall::RawNames);
        assert!(c2[0].0 && c2[0].1.contains("\"math.square\""), "{c2:?}");
        let s3 = step(&n, 3);
        assert_eq!(s3.status, StepStatus::Failed);
        assert!(s3.explanation.contains("HTTP 400"), "{}", s3.explanation);
        assert!(s3.explanation.contains("math.square → math_square"));
        let reply = s3
            .blocks
            .iter()
            .find(|b| b.kind == BlockKind::Received)
            .unwrap();
        assert!(reply.json.contains(marker), "{provider:?}: {}", reply.json);
        assert!(choices(&n, 3, Pitfall::RawNames)[0].0);
        assert_eq!(n.answer, None);
        assert!(n.next_step.is_none(), "the loop ends there");

        let c = play(careful(), provider, prompt);
        assert!(c.all_done(), "{provider:?}");
        let ch = choices(&c, 2, Pitfall::RawNames);
        assert!(
            !ch[0].0 && ch[0].1.contains("math.square → math_square"),
            "{ch:?}"
        );
        assert_eq!(c.answer.as_deref(), Some("math.square says: 49"));
    }
    // Gemini allows dots: nothing to rewrite, so the pitfall does not matter there.
    let g = play(naive(Pitfall::RawNames), Provider::Gemini, prompt);
    assert!(g.all_done());
    assert!(choices(&g, 2, Pitfall::RawNames).is_empty());
}

#[test]
fn error_as_success_makes_the_model_report_the_error_as_the_weather() {
    let prompt = "What's the weather in Atlantis?";
    let n = play(naive(Pitfall::ErrorAsSuccess), Provider::Anthropic, prompt);
    assert!(step(&n, 5).blocks[0].json.contains("\"isError\": true"));
    let fed = &step(&n, 6).blocks[0].json;
    assert!(!fed.contains("is_error"), "{fed}");
    assert_eq!(
        n.answer.as_deref(),
        Some("get_weather says: city not found: Atlantis")
    );
    let ch = choices(&n, 6, Pitfall::ErrorAsSuccess);
    assert!(ch[0].0 && ch[0].1.contains("is_error: true"), "{ch:?}");

    let c = play(careful(), Provider::Anthropic, prompt);
    assert!(step(&c, 6).blocks[0].json.contains("\"is_error\": true"));
    assert!(
        c.answer
            .as_deref()
            .unwrap()
            .contains("failed: city not found")
    );
    assert!(!choices(&c, 6, Pitfall::ErrorAsSuccess)[0].0);

    // Each provider's own marker is the one dropped.
    let n = play(naive(Pitfall::ErrorAsSuccess), Provider::Gemini, prompt);
    let fed = &step(&n, 6).blocks[0].json;
    assert!(
        fed.contains("\"output\"") && !fed.contains("\"error\""),
        "{fed}"
    );
    let n = play(naive(Pitfall::ErrorAsSuccess), Provider::OpenAiChat, prompt);
    assert!(!step(&n, 6).blocks[0].json.contains("Error:"));
    let c = play(careful(), Provider::OpenAiChat, prompt);
    assert!(step(&c, 6).blocks[0].json.contains("Error: city not found"));

    // Not relevant to a result that did not fail.
    let ok = play(
        naive(Pitfall::ErrorAsSuccess),
        Provider::Anthropic,
        "What's the weather in Austin?",
    );
    assert!(step(&ok, 6).choices.is_empty());
}

#[test]
fn ignore_list_changed_keeps_the_stale_list() {
    let prompt = "Toggle the bonus tool";
    let after = |s: &Shell| {
        let w = s.wire();
        let at = w
            .iter()
            .position(|(_, raw)| raw.contains("\"method\":\"notifications/tools/list_changed\""))
            .expect("the server announces the change");
        w[at..]
            .iter()
            .filter(|(sent, raw)| *sent && raw.contains("\"method\":\"tools/list\""))
            .count()
    };
    let n = play(
        naive(Pitfall::IgnoreListChanged),
        Provider::Anthropic,
        prompt,
    );
    assert_eq!(after(&n), 0, "no tools/list after the notification");
    let ch = choices(&n, 5, Pitfall::IgnoreListChanged);
    assert!(ch[0].0 && ch[0].1.contains("stale"), "{ch:?}");
    assert!(n.notes().iter().any(|t| t.contains("ignores it")));
    // 26: count_task too, listed to the page, which declares the Tasks extension.
    assert_eq!(n.d.pages.iter().map(|p| p.tools.len()).sum::<usize>(), 26);

    let c = play(careful(), Provider::Anthropic, prompt);
    assert!(after(&c) >= 1, "the careful host lists again");
    assert!(!choices(&c, 5, Pitfall::IgnoreListChanged)[0].0);
    assert_eq!(c.d.pages.iter().map(|p| p.tools.len()).sum::<usize>(), 27);
}

#[test]
fn a_running_loop_keeps_the_host_it_started_with() {
    let mut s = Shell::demo();
    s.cmd(Command::SetPitfalls(naive(Pitfall::IgnoreListChanged)));
    s.cmd(Command::SetPrompt("Toggle the bonus tool".into()));
    s.cmd(Command::Step);
    // Switched back mid-loop: this loop's host stays naive, the next one is careful.
    s.cmd(Command::SetPitfalls(careful()));
    finish(&mut s);
    assert!(choices(&s, 5, Pitfall::IgnoreListChanged)[0].0);
    s.cmd(Command::Reset);
    finish(&mut s);
    assert!(!choices(&s, 5, Pitfall::IgnoreListChanged)[0].0);
}

/// A server whose result has structuredContent that its text does not mirror.
fn summary_peer() -> Peer {
    Peer {
        tools_only: true,
        call_result: Some(json!({
            "content": [{"type": "text", "text": "Forecast ready."}],
            "structuredContent": {"city": "Austin", "days": [{"day": 1, "high": 91, "low": 79}]}
        })),
        ..Peer::default()
    }
}

fn play_peer(pitfalls: Pitfalls) -> Shell {
    let mut peer = summary_peer();
    let mut s = connect(&mut peer, Pin::Auto);
    s.cmd(Command::SetPitfalls(pitfalls));
    s.cmd(Command::SetPrompt("What's the weather in Austin?".into()));
    for _ in 0..10 {
        s.cmd(Command::Step);
        peer.serve(&mut s);
        if s.next_step.is_none() {
            break;
        }
    }
    s
}

#[test]
fn drop_structured_hides_the_data_the_text_does_not_carry() {
    let n = play_peer(naive(Pitfall::DropStructured));
    let fed = &step(&n, 6).blocks[0].json;
    assert!(!fed.contains("\\\"high\\\""), "{fed}");
    assert_eq!(
        n.answer.as_deref(),
        Some("get_weather says: Forecast ready.")
    );
    let ch = choices(&n, 6, Pitfall::DropStructured);
    assert!(ch[0].0 && ch[0].1.contains("never sees"), "{ch:?}");

    let c = play_peer(careful());
    let fed = &step(&c, 6).blocks[0].json;
    assert!(fed.contains("\\\"high\\\":91"), "{fed}");
    let ch = choices(&c, 6, Pitfall::DropStructured);
    assert!(!ch[0].0, "{ch:?}");

    // The demo's forecast mirrors its structuredContent as text: nothing lost.
    let d = play(
        naive(Pitfall::DropStructured),
        Provider::Anthropic,
        "Forecast for Paris for 3 days",
    );
    let ch = choices(&d, 6, Pitfall::DropStructured);
    assert!(ch[0].0 && ch[0].1.contains("nothing was lost"), "{ch:?}");
    assert!(d.answer.as_deref().unwrap().contains("Paris"));
}

#[test]
fn accept_invented_tool_sends_what_the_careful_host_refuses() {
    let prompt = "call no_such_tool";
    let n = play(
        naive(Pitfall::AcceptInventedTool),
        Provider::Anthropic,
        prompt,
    );
    assert!(
        sent(&n)
            .iter()
            .any(|w| w.contains("\"name\":\"no_such_tool\""))
    );
    assert!(step(&n, 5).blocks[0].json.contains("-32602"));
    assert!(choices(&n, 4, Pitfall::AcceptInventedTool)[0].0);

    let c = play(careful(), Provider::Anthropic, prompt);
    assert!(!sent(&c).iter().any(|w| w.contains("tools/call")));
    let s4 = step(&c, 4);
    assert_eq!(s4.status, StepStatus::Failed);
    assert_eq!(s4.blocks[0].kind, BlockKind::Built);
    assert!(!choices(&c, 4, Pitfall::AcceptInventedTool)[0].0);
    assert_eq!(step(&c, 5).status, StepStatus::Skipped);
    assert!(step(&c, 6).blocks[0].json.contains("\"is_error\": true"));
    assert!(!choices(&c, 6, Pitfall::AcceptInventedTool)[0].0);
}

#[test]
fn a_wrong_type_for_a_known_tool_is_sent_by_the_careful_host_and_is_a_tool_error() {
    let c = play(
        careful(),
        Provider::Anthropic,
        r#"call add_numbers {"a": "two", "b": 3}"#,
    );
    assert!(
        sent(&c)
            .iter()
            .any(|w| w.contains("\"name\":\"add_numbers\""))
    );
    // 2026-07-28 (auto with the demo): SEP-1303's tool error, not -32602.
    let s5 = step(&c, 5);
    assert!(
        s5.blocks[0].json.contains("\"isError\": true"),
        "{}",
        s5.blocks[0].json
    );
    assert!(
        step(&c, 4).choices.is_empty(),
        "a listed tool: no choice to note"
    );
}

#[test]
fn after_a_run_the_provider_refused_the_next_run_starts_a_new_loop() {
    let mut s = Shell::demo();
    s.cmd(Command::SetPitfalls(naive(Pitfall::RawNames)));
    s.cmd(Command::SetProvider(Provider::OpenAiChat));
    s.cmd(Command::SetPrompt("What is the square of 7?".into()));
    s.cmd(Command::Run);
    s.advance(10_000);
    assert_eq!(s.numbers(), [1, 2, 3], "the loop ends at step 3");
    assert!(s.next_step.is_none());
    // The careful host, run again: a whole new loop, not "busy".
    s.cmd(Command::SetPitfalls(careful()));
    s.cmd(Command::Run);
    s.advance(10_000);
    assert!(s.all_done(), "{:?}", s.numbers());
    assert!(s.answer.is_some());
}
