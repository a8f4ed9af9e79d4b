//! The 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`) against the
//! rmcp peer, whose task tools run on rmcp's own task manager: `tools call`
//! follows `slow_sum` to its result (stdio and HTTP), Ctrl-C cancels it with
//! `tasks/cancel`, `slow_sum_confirm` asks for input inside the task (answered
//! with `tasks/update`), `tasks get` reads a task back, and `tasks list` /
//! `tasks result`, which the extension does not have, are refused.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::asks_support;
use crate::mcpg_run;
use crate::peers;

use mcpg_run::{Run, Stream, interrupt_when, mcpg};
use peers::Peer;
use serde_json::Value;

/// `--stdio` value for the rmcp peer, or `None` (skipped).
fn rmcp() -> Option<String> {
    let (program, args) = peers::stdio_command(Peer::Rmcp)?;
    Some(peers::shell_line(&program, &args))
}

/// The `task status: ...` lines on stderr, in order.
fn statuses(r: &Run) -> Vec<&str> {
    r.stderr
        .lines()
        .filter_map(|l| l.strip_prefix("task status: "))
        .collect()
}

/// The id of the task a run created (its `task ID: created ...` line).
fn created_id(r: &Run) -> String {
    r.stderr
        .lines()
        .find_map(|l| {
            l.strip_prefix("task ")?
                .strip_suffix(")")?
                .split_once(": created (")
        })
        .map(|(id, _)| id.to_owned())
        .unwrap_or_else(|| panic!("no task created: {r:?}"))
}

/// What a completed `slow_sum` of 2 and 3 prints, and the statuses its steps show.
fn assert_followed_to_the_sum(r: &Run, steps: u32) {
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("5\n"), "{r:?}");
    assert!(r.stdout.contains("\"result\": 5"), "{r:?}");
    // rmcp's task manager: the ttl and poll interval the peer chose.
    assert!(
        r.stderr
            .lines()
            .next()
            .unwrap()
            .ends_with(": created (ttl 60 s, poll interval 0.1 s)"),
        "{r:?}"
    );
    let statuses = statuses(r);
    let last = format!("completed: step {steps} of {steps}");
    assert_eq!(statuses.last(), Some(&last.as_str()), "{r:?}");
    // Polling at 100 ms sees the steps of 150 ms go by.
    assert!(
        statuses
            .iter()
            .any(|s| s.starts_with("working: step ") && s.ends_with(&format!(" of {steps}"))),
        "{r:?}"
    );
}

#[test]
fn a_task_is_followed_to_its_result_over_stdio() {
    let Some(line) = rmcp() else {
        return;
    };
    let args = r#"{"a": 2, "b": 3, "steps": 3}"#;
    let r = mcpg(&[
        "tools", "call", "--stdio", &line, "slow_sum", "--args", args, "--task",
    ]);
    assert_followed_to_the_sum(&r, 3);
    // Under 2026-07-28 the server decides: a plain call becomes the same task.
    let r = mcpg(&[
        "tools", "call", "--stdio", &line, "slow_sum", "--args", args,
    ]);
    assert_followed_to_the_sum(&r, 3);
    // Without the extension (2025-11-25) rmcp answers inline: no task at all.
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "slow_sum",
        "--args",
        args,
        "--protocol-version",
        "2025-11-25",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("5\n"), "{r:?}");
    assert!(!r.stderr.contains("task"), "{r:?}");
}

#[test]
fn a_task_over_http_is_read_back_with_tasks_get() {
    let Some(server) = peers::start_http(Peer::Rmcp) else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "call",
        "--url",
        &server.url,
        "slow_sum",
        "--args",
        r#"{"a": 2, "b": 3, "steps": 2}"#,
        "--task",
    ]);
    assert_followed_to_the_sum(&r, 2);
    let id = created_id(&r);
    // Another mcpg run, another connection: the server keeps the task for its ttl.
    let r = mcpg(&["tasks", "get", "--url", &server.url, &id]);
    assert_eq!(r.code, 0, "{r:?}");
    let task: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(task["taskId"], id.as_str(), "{task:#}");
    assert_eq!(task["status"], "completed", "{task:#}");
    assert_eq!(task["result"]["structuredContent"]["result"], 5, "{task:#}");
    // An id the server never gave: its JSON-RPC error (invalid params).
    let r = mcpg(&["tasks", "get", "--url", &server.url, "no-such-task"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.error_line().contains("unknown task"), "{r:?}");
}

#[test]
fn ctrl_c_cancels_the_task_with_tasks_cancel() {
    let Some(line) = rmcp() else {
        return;
    };
    let args = [
        "tools",
        "call",
        "--stdio",
        &line,
        "slow_sum",
        "--args",
        r#"{"a": 2, "b": 3, "steps": 100}"#,
        "--task",
        "--verbose",
    ];
    let r = interrupt_when(&args, Stream::Err, "task status: working: step 1 of 100");
    assert_eq!(r.code, 4, "{r:?}");
    let sent = |method: &str| {
        r.stderr
            .lines()
            .any(|l| l.starts_with(">> ") && l.contains(&format!(r#""method":"{method}""#)))
    };
    assert!(sent("tasks/cancel"), "{r:?}");
    assert!(!sent("notifications/cancelled"), "{r:?}");
    assert!(
        r.stderr.contains("interrupted: cancelling the task"),
        "{r:?}"
    );
    assert_eq!(
        r.stderr.lines().last(),
        Some("mcpg: tools/call was cancelled: interrupted (Ctrl-C)"),
        "{r:?}"
    );
    assert_eq!(r.stdout, "", "{r:?}");
    // The server got the cancel before it was closed: it did not die of the signal.
    assert!(!r.stderr.contains("SIGINT"), "{r:?}");
}

#[test]
fn a_task_asking_for_input_is_answered_with_tasks_update() {
    let Some(line) = rmcp() else {
        return;
    };
    let (_dir, yes) = asks_support::answers(r#"{"confirm": true}"#);
    let args = r#"{"a": 2, "b": 3, "steps": 2}"#;
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "slow_sum_confirm",
        "--args",
        args,
        "--task",
        "--on-elicit",
        &yes,
        "--verbose",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("5\n"), "{r:?}");
    let at = |needle: &str| {
        r.stderr
            .find(needle)
            .unwrap_or_else(|| panic!("{needle}: {}", r.stderr))
    };
    // (The wire log shows the question first, inside the tasks/get answer.)
    let asked = r#"server asks (elicitation/create): "Add 2 and 3?""#;
    assert!(at("task status: input_required: waiting for confirmation") < at(asked));
    assert!(at(asked) < at(r#""method":"tasks/update""#));
    assert!(at(r#""inputResponses":{"confirm":{"action":"accept""#) < at("task status: completed"));
    // Declined: the task ends with the tool's own error result.
    let (_dir, no) = asks_support::answers(r#"{"confirm": false}"#);
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "slow_sum_confirm",
        "--args",
        args,
        "--on-elicit",
        &no,
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(r.stdout.contains("the sum was not confirmed"), "{r:?}");
    // No --on-elicit: the client declares no elicitation, and rmcp asks nothing.
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "slow_sum_confirm",
        "--args",
        args,
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    assert!(
        r.stdout.contains("declare the elicitation capability"),
        "{r:?}"
    );
}

#[test]
fn methods_the_extension_lacks_are_refused_as_usage_errors() {
    let Some(line) = rmcp() else {
        return;
    };
    let r = mcpg(&["tasks", "list", "--stdio", &line]);
    assert_eq!(r.code, 2, "{r:?}");
    let e = r.error_line();
    assert!(e.contains("io.modelcontextprotocol/tasks"), "{r:?}");
    assert!(e.contains("no tasks/list"), "{r:?}");
    // No task is started for a listing that cannot be sent.
    let r = mcpg(&[
        "tasks",
        "list",
        "--stdio",
        &line,
        "--start",
        r#"slow_sum {"a": 1, "b": 1, "steps": 1}"#,
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(!r.stderr.contains("started task"), "{r:?}");
    let r = mcpg(&["tasks", "result", "--stdio", &line, "some-id"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.error_line().contains("no tasks/result"), "{r:?}");
    assert!(r.error_line().contains("mcpg tasks get ID"), "{r:?}");
    // The server chooses a task's ttl under the extension.
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "slow_sum",
        "--args",
        r#"{"a": 1, "b": 1, "steps": 1}"#,
        "--task",
        "--ttl",
        "5000",
    ]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.error_line().starts_with("mcpg: --ttl: "), "{r:?}");
}
