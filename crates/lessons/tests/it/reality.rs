//! Every lesson against what the page really shows: its loop is played by the
//! page's driver with the embedded demo server, and every pointer must name a
//! field that its step shows. Plus the facts the checks' answers rest on.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::StepStatus;
use mcpg_lessons::{Check, LESSONS, find};
use serde_json::json;
use support::{field, play};

#[test]
fn every_pointer_names_a_field_its_step_shows() {
    for lesson in LESSONS {
        for p in lesson.notice {
            let prompt = p.prompt.unwrap_or(lesson.setup.prompt);
            let played = play(&lesson.setup, prompt);
            assert!(
                played.steps.iter().any(|s| s.number == p.step),
                "{}: the loop for {prompt:?} has no step {}",
                lesson.slug,
                p.step
            );
            assert!(
                field(&played, p.step, p.field).is_some(),
                "{}: step {} shows no {} for {prompt:?}",
                lesson.slug,
                p.step,
                p.field
            );
        }
    }
}

fn lesson(slug: &str) -> &'static mcpg_lessons::Lesson {
    find(slug).unwrap().1
}

fn right_choice(slug: &str) -> &'static str {
    match lesson(slug).check {
        Check::Choice { choices, .. } => choices.iter().find(|c| c.right).unwrap().text,
        Check::Short { answer, .. } => answer,
    }
}

#[test]
fn the_steps_over_mcp_are_the_six_steps_answer() {
    let l = lesson("six-steps");
    let played = play(&l.setup, l.setup.prompt);
    let over: Vec<String> = played
        .steps
        .iter()
        .filter(|s| s.over_mcp)
        .map(|s| s.number.to_string())
        .collect();
    assert_eq!(over, ["1", "4", "5"]);
    assert!(l.check.judge(None, &over.join(" ")).right);
}

#[test]
fn pagination_follows_the_cursor_the_lesson_quotes() {
    let l = lesson("pagination");
    let played = play(&l.setup, l.setup.prompt);
    assert_eq!(
        field(&played, 1, "result.nextCursor"),
        Some(json!("page-6"))
    );
    assert!(right_choice("pagination").contains("\"page-6\""));
    assert_eq!(played.tools, 26, "the choice's feedback says 26 tools");
}

#[test]
fn is_error_and_the_protocol_error_are_what_the_lesson_says() {
    let l = lesson("is-error");
    let played = play(&l.setup, l.setup.prompt);
    assert_eq!(field(&played, 5, "result.isError"), Some(json!(true)));
    let naive = mcpg_loop_data::Pitfalls::only(mcpg_lessons::Pitfall::AcceptInventedTool);
    let refused = support::play_with(&l.setup, "call no_such_tool", naive);
    assert_eq!(field(&refused, 5, "error.code"), Some(json!(-32602)));
    assert_eq!(
        field(&refused, 5, "result"),
        None,
        "no result with an error"
    );
}

#[test]
fn reshape_renames_math_square_and_maps_it_back() {
    let l = lesson("reshape");
    let played = play(&l.setup, l.setup.prompt);
    assert_eq!(
        field(&played, 2, "[19].function.name"),
        Some(json!("math_square"))
    );
    assert_eq!(
        field(&played, 3, "choices[0].message.tool_calls[0].function.name"),
        Some(json!("math_square"))
    );
    assert_eq!(field(&played, 4, "params.name"), Some(json!("math.square")));
    assert!(l.check.judge(None, "math.square").right);
    assert!(l.check.judge(None, " Math.Square ").right, "lenient");
    assert!(!l.check.judge(None, "math_square").right);
}

#[test]
fn parallel_calls_are_two_tools_calls() {
    let l = lesson("parallel");
    let played = play(&l.setup, l.setup.prompt);
    let calls = played.steps.iter().filter(|s| s.number == 4).count();
    assert_eq!(calls, 2);
    assert!(right_choice("parallel").starts_with("Two"));
    let sent_calls = played
        .wire
        .iter()
        .filter(|w| w.contains("\"method\":\"tools/call\""))
        .count();
    assert_eq!(sent_calls, 2);
}

#[test]
fn structured_output_fits_and_has_its_text_twin() {
    let l = lesson("structured");
    let played = play(&l.setup, l.setup.prompt);
    let sc = field(&played, 5, "result.structuredContent").unwrap();
    let text = field(&played, 5, "result.content[0].text").unwrap();
    let twin: serde_json::Value = serde_json::from_str(text.as_str().unwrap()).unwrap();
    assert_eq!(twin, sc);
}

#[test]
fn progress_carries_the_token_of_the_call() {
    let l = lesson("progress");
    let played = play(&l.setup, l.setup.prompt);
    let token = field(&played, 4, "params._meta.progressToken").unwrap();
    let progress: Vec<&String> = played
        .wire
        .iter()
        .filter(|w| w.contains("notifications/progress"))
        .collect();
    assert!(!progress.is_empty(), "the slow count reports progress");
    for p in progress {
        let v: serde_json::Value = serde_json::from_str(p).unwrap();
        assert_eq!(v["params"]["progressToken"], token);
    }
}

#[test]
fn list_changed_makes_the_host_list_again() {
    let l = lesson("list-changed");
    let played = play(&l.setup, l.setup.prompt);
    let at = played
        .wire
        .iter()
        .position(|w| w.contains("notifications/tools/list_changed"))
        .expect("the server announces the change");
    assert!(
        played.wire[at..]
            .iter()
            .any(|w| w.contains("\"method\":\"tools/list\"")),
        "a tools/list follows the notification"
    );
    assert_eq!(
        played.tools, 27,
        "the feedback says the Tools panel counts 27"
    );
}

#[test]
fn playing_the_model_the_host_makes_the_call() {
    let l = lesson("play-model");
    let played = play(&l.setup, l.setup.prompt);
    assert_eq!(
        field(&played, 3, "content[0].input.city"),
        Some(json!("Austin"))
    );
    assert_eq!(field(&played, 4, "params.name"), Some(json!("get_weather")));
    assert!(played.steps.iter().all(|s| s.status == StepStatus::Done));
}

#[test]
fn the_reykjavik_forecast_breaks_its_schema_and_the_host_says_so() {
    let l = lesson("output-schema");
    let played = play(&l.setup, l.setup.prompt);
    let s5 = played.steps.iter().find(|s| s.number == 5).unwrap();
    assert!(
        s5.explanation
            .contains("does not fit the tool's outputSchema"),
        "{}",
        s5.explanation
    );
    assert_eq!(
        field(&played, 4, "params.arguments.days"),
        Some(json!(3)),
        "the arguments fit: 3 days"
    );
    // The structured-output lesson's city has no gap.
    let fits = lesson("structured");
    let paris = play(&fits.setup, fits.setup.prompt);
    let s5 = paris.steps.iter().find(|s| s.number == 5).unwrap();
    assert!(s5.explanation.contains("fits the tool's outputSchema"));
}
