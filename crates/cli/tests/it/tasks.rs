//! 2025-11-25 tasks against server-everything over stdio: `tools call --task`
//! follows `simulate-research-query` to its result, Ctrl-C cancels it with
//! `tasks/cancel`, and `tasks list` shows a task started in the same session.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::peers;

use crate::asks_support;
use crate::mcpg_run;

use mcpg_run::{Stream, interrupt_when, mcpg};
use peers::Peer;
use serde_json::Value;

/// `--stdio` value for a peer, or `None` (skipped).
fn stdio(peer: Peer) -> Option<String> {
    let (program, args) = peers::stdio_command(peer)?;
    Some(peers::shell_line(&program, &args))
}

#[test]
fn a_task_call_prints_each_status_and_the_result() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "simulate-research-query",
        "--args",
        r#"{"topic": "tides"}"#,
        "--task",
        "--ttl",
        "60000",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stdout.starts_with("# Research Report: tides\n"),
        "{}",
        r.stdout
    );
    let statuses: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("task status: "))
        .collect();
    // The server moves through four stages, one a second; the client sees each
    // (from its notifications or the polls) and ends on `completed`.
    for stage in [
        "working: Gathering sources...",
        "working: Generating report...",
    ] {
        assert!(
            statuses.iter().any(|s| s.ends_with(stage)),
            "{stage}: {}",
            r.stderr
        );
    }
    assert!(
        statuses
            .last()
            .unwrap()
            .starts_with("task status: completed"),
        "{}",
        r.stderr
    );
    // server-everything keeps a task 5 minutes whatever the client asked.
    assert!(
        r.stderr
            .lines()
            .next()
            .unwrap()
            .ends_with(": created (ttl 300 s, poll interval 1 s)"),
        "{}",
        r.stderr
    );
}

#[test]
fn an_input_required_task_gets_its_answer_and_goes_on() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let (_dir, answers) = asks_support::answers(r#"{"interpretation": "historical"}"#);
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "simulate-research-query",
        "--args",
        r#"{"topic": "tides", "ambiguous": true}"#,
        "--task",
        "--on-elicit",
        &answers,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    // The elicitation comes on the tasks/result the client sent at input_required.
    let at = |needle: &str| {
        r.stderr
            .find(needle)
            .unwrap_or_else(|| panic!("{needle}: {}", r.stderr))
    };
    assert!(at("task status: input_required") < at("mcpg answered: accept"));
    assert!(at("mcpg answered: accept") < at("task status: completed"));
    assert!(
        r.stdout
            .starts_with("# Research Report: tides (historical)\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn ctrl_c_cancels_the_task_before_mcpg_exits() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let args = [
        "tools",
        "call",
        "--stdio",
        &line,
        "simulate-research-query",
        "--args",
        r#"{"topic": "tides"}"#,
        "--task",
        "--verbose",
    ];
    let r = interrupt_when(&args, Stream::Err, "task status: working");
    assert_eq!(r.code, 4, "{r:?}");
    assert!(r.stderr.contains(r#""method":"tasks/cancel""#), "{r:?}");
    assert!(
        r.stderr
            .contains("task status: cancelled: Client cancelled task execution."),
        "{r:?}"
    );
    assert_eq!(
        r.stderr.lines().last(),
        Some("mcpg: tools/call was cancelled: Client cancelled task execution."),
        "{r:?}"
    );
    // The server saw the cancel before it was closed: it did not die of the signal.
    assert!(!r.stderr.contains("SIGINT"), "{r:?}");
}

#[test]
fn tasks_list_shows_a_task_started_in_the_same_session() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&[
        "tasks",
        "list",
        "--stdio",
        &line,
        "--start",
        r#"simulate-research-query {"topic": "tides"}"#,
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    let started = r
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("started task "))
        .and_then(|l| l.split_once(' '))
        .map(|(id, _)| id.to_owned())
        .unwrap_or_else(|| panic!("{r:?}"));
    let listed: Value = serde_json::from_str(&r.stdout).unwrap();
    let tasks = listed["tasks"].as_array().unwrap();
    assert_eq!(tasks.len(), 1, "{listed:#}");
    assert_eq!(tasks[0]["taskId"], started.as_str());
    assert_eq!(tasks[0]["status"], "working");
}

#[test]
fn task_commands_report_the_servers_refusal_and_bad_flags() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&["tasks", "get", "--stdio", &line, "no-such-task"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.error_line().contains("Task not found"), "{r:?}");
    // A tool that forbids tasks: server-everything answers with a JSON-RPC error.
    let r = mcpg(&[
        "tools",
        "call",
        "--stdio",
        &line,
        "echo",
        "--args",
        r#"{"message": "hi"}"#,
        "--task",
    ]);
    assert_eq!(r.code, 3, "{r:?}");
    // --ttl means nothing without --task.
    let r = mcpg(&["tools", "call", "--stdio", "false", "echo", "--ttl", "5"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = mcpg(&["tasks", "list", "--stdio", "false", "--start", " "]);
    assert_eq!(r.code, 2, "{r:?}");
}

/// `mcpg loop` asks a tool whose `execution.taskSupport` is `required` as a task,
/// as the page does: step 4 sends `params.task`, step 5 shows the handle, the first
/// poll and `tasks/result`, and the loop answers with the report.
#[test]
fn the_loop_asks_a_task_tool_as_a_task() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&[
        "loop",
        r#"call simulate-research-query {"topic": "tides"}"#,
        "--stdio",
        &line,
        "--width",
        "120",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    for label in [
        "the task handle (CreateTaskResult)",
        "→ tasks/get: the host polls the task",
        "→ tasks/result: the host asks for the tool's result",
    ] {
        assert!(r.stdout.contains(label), "{label}: {}", r.stdout);
    }
    assert!(
        r.stdout.contains("\"task\": {"),
        "step 4 asks a task: {}",
        r.stdout
    );
    assert!(r.stdout.contains("Research Report: tides"), "{}", r.stdout);
}
