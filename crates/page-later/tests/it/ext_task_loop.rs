//! The six-step loop following a task of the 2026-07-28 Tasks extension
//! (`io.modelcontextprotocol/tasks`) against the embedded demo's `count_task`, on
//! the virtual clock: the page declares the extension on the call and asks for no
//! task, the demo answers with a handle, step 5 shows it and the first poll,
//! the poll that finds the task ended carries the result (no `tasks/result`) and
//! step 6 follows; Cancel sends `tasks/cancel` and the loop ends cleanly; with
//! `ask` the task's question reaches the server-questions card and its answer goes
//! back as `tasks/update`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::JsonObject;
use mcpg_host::asks::{ElicitAction, Reply};
use mcpg_host::{Step, StepStatus};
use mcpg_page::{AskCommand, AskPlace, AskState, Command};
use serde_json::{Value, json};
use support::Shell;

/// A shell on the demo (2026-07-28, the default) whose loop has sent
/// `count_task` with `args` (steps 1 to 4, step mode).
fn called(args: &str) -> Shell {
    let mut s = Shell::demo();
    s.cmd(Command::SetPrompt(format!("call count_task {args}")));
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5]);
    s
}

/// The requests the page sent, parsed.
fn sent(s: &Shell) -> Vec<Value> {
    s.wire()
        .into_iter()
        .filter(|(out, _)| *out)
        .map(|(_, raw)| serde_json::from_str(&raw).unwrap())
        .collect()
}

fn sent_methods(s: &Shell, method: &str) -> Vec<Value> {
    sent(s)
        .into_iter()
        .filter(|m| m["method"] == method)
        .collect()
}

fn step5(s: &Shell) -> &Step {
    s.steps.iter().rev().find(|st| st.number == 5).unwrap()
}

fn labels(step: &Step) -> Vec<&str> {
    step.blocks.iter().map(|b| b.label.as_str()).collect()
}

fn count(labels: &[&str], prefix: &str) -> usize {
    labels.iter().filter(|l| l.starts_with(prefix)).count()
}

/// Steps past the call to step 6: the model's final turn ends the loop.
fn finish(s: &mut Shell) {
    s.cmd(Command::Step);
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(s.next_step, None, "the loop ended");
    assert!(!s.running);
}

#[test]
fn an_extension_task_is_followed_to_its_result_and_step_6_follows() {
    let mut s = called(r#"{"to": 3, "step_ms": 200}"#);
    let call = &sent_methods(&s, "tools/call")[0];
    assert!(
        call["params"].get("task").is_none(),
        "nothing asked: {call}"
    );
    assert_eq!(
        call["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"]["io.modelcontextprotocol/tasks"],
        json!({}),
        "the extension declared on the call"
    );
    // The demo answered at once with a handle; the first poll waits its interval.
    let running = step5(&s).clone();
    assert_eq!(running.status, StepStatus::Running);
    assert_eq!(
        labels(&running),
        [
            "← the task handle (CreateTaskResult): the server answers at once and works on (received)"
        ]
    );
    assert!(running.blocks[0].json.contains(r#""resultType": "task""#));
    assert!(
        running
            .explanation
            .contains("of the Tasks extension, which the host declared on the call"),
        "{}",
        running.explanation
    );
    assert!(running.explanation.contains("every 0.5 s"));
    assert_eq!(s.next_step, Some(5), "step 6 waits for the call");

    s.advance(3_000);
    let done = step5(&s);
    assert_eq!(done.status, StepStatus::Done, "{}", done.explanation);
    let l = labels(done);
    assert_eq!(l[0], labels(&running)[0]);
    assert_eq!(
        count(&l, "→ tasks/get"),
        1,
        "later polls counted, not shown: {l:?}"
    );
    assert_eq!(count(&l, "← tasks/get's answer (received)"), 1, "{l:?}");
    assert_eq!(
        l.last().copied(),
        Some("← tasks/get's answer: the task completed, with the tool's result inside (received)")
    );
    let last = done.blocks.last().unwrap();
    assert!(last.json.contains(r#""status": "completed""#));
    assert!(last.json.contains("Counted to 3."), "{}", last.json);
    assert!(
        done.explanation.contains("CallToolResult"),
        "{}",
        done.explanation
    );
    assert!(
        sent_methods(&s, "tasks/get").len() >= 2,
        "polled until it ended"
    );
    assert!(
        sent_methods(&s, "tasks/result").is_empty(),
        "no tasks/result under the extension"
    );
    assert!(l.iter().all(|l| !l.contains("tasks/result")), "{l:?}");

    finish(&mut s);
    assert!(s.all_done());
    let answer = s.answer.clone().unwrap_or_default();
    assert!(answer.contains("count_task"), "{answer}");
    // Nothing more is polled once the task ended.
    let polls = sent_methods(&s, "tasks/get").len();
    s.advance(5_000);
    assert_eq!(sent_methods(&s, "tasks/get").len(), polls);
}

#[test]
fn run_mode_follows_the_task_to_step_6_on_its_own() {
    let mut s = Shell::demo();
    s.cmd(Command::SetPrompt(
        r#"call count_task {"to": 2, "step_ms": 100}"#.into(),
    ));
    s.cmd(Command::Run);
    s.advance(20_000);
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(s.all_done());
    assert!(!s.running);
    assert!(
        labels(step5(&s))[0].starts_with("← the task handle"),
        "{:?}",
        labels(step5(&s))
    );
}

#[test]
fn cancel_sends_tasks_cancel_and_the_loop_ends_cleanly() {
    let mut s = called(r#"{"to": 5, "step_ms": 1000}"#);
    s.advance(1_200);
    assert_eq!(step5(&s).status, StepStatus::Running);
    s.cmd(Command::Cancel);
    let cancels = sent_methods(&s, "tasks/cancel");
    assert_eq!(cancels.len(), 1);
    assert_eq!(cancels[0]["params"]["taskId"], "task-1");
    assert!(
        sent_methods(&s, "notifications/cancelled").is_empty(),
        "a task is cancelled with tasks/cancel only"
    );
    let st = step5(&s);
    assert_eq!(st.status, StepStatus::Failed);
    let l = labels(st);
    assert_eq!(
        count(&l, "→ tasks/cancel: the host cancels the task"),
        1,
        "{l:?}"
    );
    assert_eq!(
        l.last().copied(),
        Some("← tasks/cancel's answer: the server acknowledges (received)")
    );
    assert!(
        st.explanation.contains("cancelled by the learner")
            && st
                .explanation
                .contains("the host sent tasks/cancel (not notifications/cancelled)"),
        "{}",
        st.explanation
    );
    // No more polls after the cancel, and the loop goes on to its end.
    let polls = sent_methods(&s, "tasks/get").len();
    s.advance(10_000);
    assert_eq!(sent_methods(&s, "tasks/get").len(), polls);
    finish(&mut s);
    let answer = s.answer.clone().unwrap_or_default();
    assert!(answer.contains("cancel"), "{answer}");
    assert!(s.asks.is_empty());
}

#[test]
fn a_task_question_reaches_the_card_and_goes_back_as_tasks_update() {
    let mut s = called(r#"{"to": 4, "step_ms": 200, "ask": true}"#);
    s.advance(1_000);
    assert_eq!(s.asks.len(), 1, "{:?}", s.asks);
    let ask = &s.asks[0];
    assert_eq!(ask.method, "elicitation/create");
    assert_eq!(ask.state, AskState::Waiting);
    assert!(
        ask.params["message"]
            .as_str()
            .unwrap()
            .contains("Go on counting?")
    );
    let step4 = s.steps.iter().rposition(|st| st.number == 4).unwrap();
    assert_eq!(
        ask.place,
        AskPlace::Step(step4),
        "nested in the call's step"
    );
    let st = step5(&s);
    assert_eq!(st.status, StepStatus::Running);
    assert!(
        st.explanation.contains("Now: input_required"),
        "{}",
        st.explanation
    );
    assert!(
        s.steps[step4]
            .explanation
            .contains("the host answers with tasks/update"),
        "{}",
        s.steps[step4].explanation
    );
    assert!(
        sent_methods(&s, "tasks/update").is_empty(),
        "nothing before the answer"
    );

    let mut content = JsonObject::new();
    content.insert("go_on".into(), json!(true));
    let id = ask.id;
    s.cmd(Command::Ask(AskCommand::Answer {
        id,
        reply: Reply::Elicited(ElicitAction::Accept(content)),
    }));
    let updates = sent_methods(&s, "tasks/update");
    assert_eq!(updates.len(), 1);
    let p = &updates[0]["params"];
    assert_eq!(p["taskId"], "task-1");
    assert_eq!(p["inputResponses"]["go_on"]["action"], "accept");
    assert_eq!(p["inputResponses"]["go_on"]["content"]["go_on"], true);
    assert!(sent_methods(&s, "tools/call").len() == 1, "no retried call");
    assert_eq!(
        count(
            &labels(step5(&s)),
            "→ tasks/update: the host sends the answers"
        ),
        1
    );

    s.advance(3_000);
    let done = step5(&s);
    assert_eq!(done.status, StepStatus::Done, "{}", done.explanation);
    assert!(done.blocks.last().unwrap().json.contains("Counted to 4."));
    assert_ne!(s.asks[0].state, AskState::Waiting);
    finish(&mut s);
    assert!(s.all_done());
}
