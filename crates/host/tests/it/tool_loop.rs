//! The six-step loop driven end to end against the demo server over an in-memory
//! transport with a virtual clock, exactly as the page drives it. Runs natively and
//! in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{CallOutcome, Failure};
use mcpg_host::provider::Provider;
use mcpg_host::script::Script;
use mcpg_host::tool_loop::{Action, BlockKind, Pitfall, Pitfalls, StepStatus};
use support::{Driver, Model};

#[test]
fn the_seed_walkthrough_in_step_mode() {
    let mut d = Driver::new(
        "What's the weather in Austin?",
        Provider::Anthropic,
        Model::Mock,
    );
    let mut seen = Vec::new();
    while d.step() {
        seen.push(d.run.steps().len());
    }
    // One click per step, except that step 5 arrives with the server's answer.
    assert_eq!(seen, [1, 2, 3, 5, 6]);
    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6]);
    let mcp: Vec<bool> = d.run.steps().iter().map(|s| s.over_mcp).collect();
    assert_eq!(mcp, [true, false, false, true, true, false]);
    assert!(d.run.steps().iter().all(|s| s.status == StepStatus::Done));
    assert!(
        d.run
            .steps()
            .iter()
            .all(|s| !s.explanation.is_empty() && !s.blocks.is_empty())
    );

    // Step 1: every page, request and response.
    let s1 = d.step_n(1);
    assert_eq!(d.run.pages().len(), 5);
    assert_eq!(d.run.tools().len(), 25);
    assert_eq!(s1.blocks.len(), 10);
    assert!(s1.explanation.contains("all 5 pages"), "{}", s1.explanation);
    // Step 2: Anthropic-shaped tools.
    let s2 = d.step_n(2);
    assert!(s2.blocks[0].json.contains("\"input_schema\""));
    assert!(!s2.blocks[0].json.contains("\"inputSchema\""));
    // Step 3: the model's tool_use.
    let s3 = d.step_n(3);
    assert!(
        s3.blocks[1].json.contains("\"tool_use\""),
        "{}",
        s3.blocks[1].json
    );
    assert!(s3.explanation.contains("get_weather"));
    // Step 4: the exact tools/call.
    let s4 = d.step_n(4);
    assert!(s4.blocks[0].json.contains("\"tools/call\""));
    assert!(s4.blocks[0].json.contains("\"city\": \"Austin\""));
    // Step 5: the CallToolResult.
    let s5 = d.step_n(5);
    assert!(s5.blocks[0].json.contains("Austin: 91F, sunny"));
    // Step 6: tool_result then the answer.
    let s6 = d.step_n(6);
    assert!(s6.blocks[0].json.contains("\"tool_result\""));
    assert_eq!(d.run.answer(), Some("get_weather says: Austin: 91F, sunny"));
    assert!(d.run.is_done());
}

#[test]
fn an_is_error_result_is_a_tool_failure() {
    let mut d = Driver::new("weather in Atlantis", Provider::Anthropic, Model::Mock);
    d.run_all();
    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6]);
    let s5 = d.step_n(5);
    assert_eq!(s5.status, StepStatus::Failed);
    assert!(
        s5.explanation.starts_with("isError: true"),
        "{}",
        s5.explanation
    );
    assert!(matches!(d.run.outcome(), Some(CallOutcome::ToolError(_))));
    assert!(d.step_n(6).blocks[0].json.contains("\"is_error\": true"));
    let answer = d.run.answer().unwrap();
    assert!(
        answer.contains("failed: city not found: Atlantis"),
        "{answer}"
    );
}

#[test]
fn a_json_rpc_error_is_a_protocol_failure() {
    // The naive host sends a call the server never listed; the server refuses it.
    let mut d = Driver::new("call no_such_tool", Provider::Anthropic, Model::Mock);
    d.run = d
        .run
        .clone()
        .with_pitfalls(Pitfalls::only(Pitfall::AcceptInventedTool));
    d.run_all();
    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(
        d.step_n(3).explanation.contains("never listed"),
        "{}",
        d.step_n(3).explanation
    );
    let s5 = d.step_n(5);
    assert_eq!(s5.status, StepStatus::Failed);
    assert!(
        s5.explanation.starts_with("A JSON-RPC error (-32602"),
        "{}",
        s5.explanation
    );
    assert!(s5.blocks[0].json.contains("\"error\""));
    // No CallToolResult came: the card's title says what did.
    assert_eq!(s5.title, mcpg_host::tool_loop::TITLE_RPC_ERROR);
    assert_eq!(d.step_n(1).title, mcpg_host::tool_loop::TITLES[0]);
    assert!(matches!(
        d.run.outcome(),
        Some(CallOutcome::ProtocolError(_))
    ));
    assert!(d.step_n(6).explanation.contains("no CallToolResult"));
    assert!(d.run.answer().unwrap().contains("refused"));
    assert!(d.step_n(4).choices[0].naive);
}

#[test]
fn the_careful_host_refuses_a_tool_the_server_never_listed() {
    let mut d = Driver::new("call no_such_tool", Provider::Anthropic, Model::Mock);
    let mut seen = Vec::new();
    while d.step() {
        seen.push(d.run.steps().len());
    }
    assert_eq!(
        seen,
        [1, 2, 3, 5, 6],
        "one click refuses: steps 4 and 5 together"
    );
    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(
        d.step_n(3).explanation.contains("will not send that call"),
        "{}",
        d.step_n(3).explanation
    );
    let s4 = d.step_n(4);
    assert_eq!(s4.status, StepStatus::Failed);
    assert_eq!(s4.blocks[0].kind, BlockKind::Built);
    assert!(s4.blocks[0].json.contains("\"no_such_tool\""));
    assert!(
        s4.explanation.starts_with("Refused by the host"),
        "{}",
        s4.explanation
    );
    assert!(!s4.choices[0].naive);
    assert_eq!(d.step_n(5).status, StepStatus::Skipped);
    let sent = &d.sent;
    assert!(
        !sent.iter().any(|w| w.contains("tools/call")),
        "no tools/call went out: {sent:#?}"
    );
    // Step 6 tells the model, in Anthropic's error form.
    let s6 = d.step_n(6);
    assert!(
        s6.blocks[0].json.contains("\"is_error\": true"),
        "{}",
        s6.blocks[0].json
    );
    assert!(
        s6.blocks[0].json.contains("no tool named"),
        "{}",
        s6.blocks[0].json
    );
    assert!(
        s6.explanation.contains("does not exist"),
        "{}",
        s6.explanation
    );
    assert!(d.run.answer().unwrap().contains("no tool named"));
}

#[test]
fn a_wrong_type_for_a_known_tool_is_a_tool_error_the_careful_host_still_sends() {
    // Since 2025-11-25 (SEP-1303) the server reports invalid arguments as a tool
    // error the model can read and correct, not as -32602.
    let mut d = Driver::new(
        r#"call add_numbers {"a": "two", "b": 3}"#,
        Provider::Anthropic,
        Model::Mock,
    );
    d.run_all();
    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(
        d.step_n(3)
            .explanation
            .contains("do not fit the tool's inputSchema"),
        "{}",
        d.step_n(3).explanation
    );
    let s5 = d.step_n(5);
    let json = &s5.blocks[0].json;
    assert!(json.contains("\"isError\": true"), "{json}");
    assert!(json.contains("must be number"), "{json}");
    assert!(!json.contains("-32602"), "{json}");
}

#[test]
fn no_tool_fits_ends_after_step_3() {
    let mut d = Driver::new("tell me a joke", Provider::Anthropic, Model::Mock);
    d.run_all();
    assert_eq!(d.numbers(), [1, 2, 3]);
    assert!(
        d.step_n(3)
            .explanation
            .contains("steps 4 to 6 do not happen")
    );
    assert!(d.run.is_done());
    assert!(d.run.answer().is_some());
}

#[test]
fn structured_content_is_checked() {
    let mut d = Driver::new(
        "forecast for Paris for 2 days",
        Provider::Anthropic,
        Model::Mock,
    );
    d.run_all();
    let s5 = d.step_n(5);
    assert_eq!(s5.status, StepStatus::Done);
    assert!(
        s5.explanation.contains("fits the tool's outputSchema"),
        "{}",
        s5.explanation
    );
}

#[test]
fn progress_then_cancel() {
    let mut d = Driver::new("count slowly to 10", Provider::Anthropic, Model::Mock);
    for _ in 0..4 {
        d.step();
    }
    assert_eq!(d.step_n(5).status, StepStatus::Running);
    assert_eq!(d.run.next(), Action::Wait);
    d.advance(500);
    d.advance(500);
    let p = d.run.progress().unwrap();
    assert_eq!((p.progress, p.total), (2.0, Some(10.0)));
    assert!(d.step_n(5).explanation.contains("progress 2 of 10"));
    let op = d.run.call_in_flight().unwrap();
    d.client.cancel(d.now, op, "the learner pressed cancel");
    d.pump();
    let s5 = d.step_n(5);
    assert_eq!(s5.status, StepStatus::Failed);
    assert!(
        s5.blocks
            .iter()
            .any(|b| b.label.contains("notifications/cancelled"))
    );
    assert!(matches!(
        d.run.outcome(),
        Some(CallOutcome::Failed(Failure::Cancelled(_)))
    ));
    d.run_all();
    assert!(d.run.answer().unwrap().contains("did not finish"));
}

#[test]
fn run_mode_finishes_a_slow_call_when_time_passes() {
    let mut d = Driver::new("count slowly to 2", Provider::Anthropic, Model::Mock);
    d.run_all();
    assert_eq!(d.run.next(), Action::Wait);
    d.advance(500);
    d.advance(500);
    d.run_all();
    assert_eq!(d.run.answer(), Some("count_slowly says: Counted to 2."));
}

#[test]
fn a_recorded_script_replays_the_same_steps() {
    let mut d = Driver::new(
        "What's the weather in Austin?",
        Provider::Anthropic,
        Model::Mock,
    );
    d.run_all();
    let values: Vec<_> = d.run.played().iter().map(|t| t.to_value()).collect();
    assert_eq!(values.len(), 2, "step 3 and step 6");
    // Through JSON text, as a session stores it.
    let text = serde_json::to_string(&values).unwrap();
    let script = Script::from_values(&Script::parse(&text).unwrap()).unwrap();
    let mut r = Driver::new(
        "What's the weather in Austin?",
        Provider::Anthropic,
        Model::Mock,
    );
    r.script = Some(script);
    r.run_all();
    assert_eq!(r.run.steps(), d.run.steps());
    assert_eq!(r.run.answer(), d.run.answer());
    assert!(r.script.as_ref().unwrap().ran_out());
}

#[test]
fn a_hand_written_script_steers_the_loop_then_the_mock_takes_over() {
    let script = Script::parse(
        r#"[{"calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}], "why": "Scripted: Paris."}]"#,
    )
    .unwrap();
    let mut d = Driver::new(
        "What's the weather in Austin?",
        Provider::Anthropic,
        Model::Mock,
    );
    d.script = Some(Script::from_values(&script).unwrap());
    d.run_all();
    assert_eq!(d.numbers(), vec![1, 2, 3, 4, 5, 6]);
    assert!(d.step_n(3).explanation.contains("Scripted: Paris."));
    assert!(d.step_n(4).blocks[0].json.contains("\"city\": \"Paris\""));
    // Step 6 had no scripted turn left: the mock answered from the Paris result.
    let answer = d.run.answer().unwrap();
    assert!(answer.contains("Paris"), "{answer}");
    assert!(d.script.as_ref().unwrap().ran_out());
}

#[test]
fn step_status_has_a_word_for_shared_sessions() {
    use mcpg_host::StepStatus;
    let all = [
        StepStatus::Running,
        StepStatus::Done,
        StepStatus::Failed,
        StepStatus::Skipped,
    ];
    let words: Vec<String> = all.iter().map(ToString::to_string).collect();
    assert_eq!(words, ["running", "done", "failed", "skipped"]);
    // The same words the page recorded from the Debug form before (lower-cased), so
    // sessions shared earlier read the same.
    for s in all {
        assert_eq!(s.as_str(), format!("{s:?}").to_ascii_lowercase());
    }
}
