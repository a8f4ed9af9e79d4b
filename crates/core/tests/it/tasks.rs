//! 2025-11-25 task-augmented tool calls against a scripted server on a virtual
//! clock: the handle, polling at the server's interval, status notifications,
//! `tasks/result`, `tasks/cancel`, the ttl and the diagnostics.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::client::{
    CallOptions, CallOutcome, ClientConfig, Event, Failure, OpId, TaskEvent, TaskRequest,
    TaskStatus,
};
use mcpg_core::diag::{Rule, Severity};
use serde_json::{Value, json};
use support::tasks::{count, gives_up_after_the_ttl, statuses, task_events};
use support::{Scripted, findings, outcomes};

/// The server's task capability, as server-everything declares it.
fn server_caps() -> Value {
    json!({"tools": {}, "tasks": {"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}}})
}

/// The client's `tasks` capability (2025-11-25): empty, as no server request is
/// run as a task here.
pub fn tasks_capability() -> mcpg_core::model::JsonObject {
    json!({"tasks": {}}).as_object().cloned().unwrap()
}

/// A 2025-11-25 session whose server lists `research` (tasks optional) and
/// `echo` (tasks forbidden, by saying nothing).
fn session() -> Scripted {
    let mut s = Scripted::new(ClientConfig {
        capabilities: tasks_capability(),
        ..Default::default()
    });
    s.connect_with("2025-11-25", server_caps());
    s.client.list_tools(s.now);
    s.drain();
    s.reply(
        "tools/list",
        json!({"tools": [
            {"name": "research", "inputSchema": {"type": "object"}, "execution": {"taskSupport": "optional"}},
            {"name": "echo", "inputSchema": {"type": "object"}}
        ]}),
    );
    s.take();
    s
}

fn task(id: &str, status: &str, message: Option<&str>, poll_ms: Option<u64>) -> Value {
    let mut t = json!({"taskId": id, "status": status, "ttl": 60000,
        "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:01Z"});
    if let Some(m) = message {
        t["statusMessage"] = json!(m);
    }
    if let Some(p) = poll_ms {
        t["pollInterval"] = json!(p);
    }
    t
}

fn ask_task(s: &mut Scripted, name: &str, ttl_ms: Option<u64>) -> OpId {
    let op = s.client.call_tool(
        s.now,
        name,
        json!({"topic": "tides"}).as_object().cloned(),
        CallOptions {
            task: Some(TaskRequest {
                ttl: ttl_ms.map(Duration::from_millis),
            }),
            ..Default::default()
        },
    );
    s.drain();
    op
}

/// `research` asked as a task and answered with task `t1`, working, to be polled
/// every `poll_ms`.
fn started(s: &mut Scripted, poll_ms: u64) -> OpId {
    let op = ask_task(s, "research", None);
    s.reply(
        "tools/call",
        json!({"task": task("t1", "working", None, Some(poll_ms))}),
    );
    op
}

fn done() -> Value {
    json!({"content": [{"type": "text", "text": "report"}]})
}

#[test]
fn the_initialize_declares_tasks_only_when_configured_in_the_capabilities() {
    let s = session();
    let caps = &s.last_request_like("initialize")["capabilities"];
    assert_eq!(caps["tasks"], json!({}));
    let mut plain = Scripted::new(ClientConfig::default());
    plain.connect_with("2025-11-25", server_caps());
    let caps = &plain.last_request_like("initialize")["capabilities"];
    assert!(caps.get("tasks").is_none(), "{caps}");
}

#[test]
fn a_task_polls_at_the_servers_interval_and_ends_with_the_result() {
    let mut s = session();
    let op = ask_task(&mut s, "research", Some(60_000));
    assert_eq!(
        s.last_request_like("tools/call")["task"],
        json!({"ttl": 60000})
    );
    s.reply(
        "tools/call",
        json!({"task": task("t1", "working", Some("Gathering"), Some(500))}),
    );
    let ev = s.take();
    assert_eq!(
        task_events(&ev),
        [
            TaskEvent::Created {
                task_id: "t1".into(),
                ttl: Some(Duration::from_secs(60)),
                poll_interval: Some(Duration::from_millis(500)),
            },
            TaskEvent::Status {
                status: TaskStatus::Working,
                message: Some("Gathering".into())
            }
        ]
    );
    assert!(
        outcomes(&ev, op).is_empty(),
        "the call is not over: {ev:#?}"
    );
    assert_eq!(s.client.task_id(op), Some("t1"));
    assert_eq!(
        s.client.poll_timeout(),
        Some(s.now.after(Duration::from_millis(500)))
    );
    s.advance(Duration::from_millis(499));
    assert_eq!(count(&s, "tasks/get"), 0, "polled before the interval");
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 1);
    assert_eq!(s.last_request_like("tasks/get"), json!({"taskId": "t1"}));
    // No second poll while the first is unanswered, however long it takes.
    s.advance(Duration::from_millis(2000));
    assert_eq!(count(&s, "tasks/get"), 1);
    s.reply(
        "tasks/get",
        task("t1", "working", Some("Analyzing"), Some(500)),
    );
    assert_eq!(statuses(&s.take()), [TaskStatus::Working]);
    s.advance(Duration::from_millis(499));
    assert_eq!(count(&s, "tasks/get"), 1);
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 2);
    s.reply("tasks/get", task("t1", "completed", None, Some(500)));
    assert_eq!(statuses(&s.take()), [TaskStatus::Completed]);
    assert_eq!(s.last_request_like("tasks/result"), json!({"taskId": "t1"}));
    s.reply("tasks/result", done());
    let ev = s.take();
    match &outcomes(&ev, op)[..] {
        [CallOutcome::Success(r)] => assert_eq!(r.content.len(), 1),
        other => panic!("{other:#?}"),
    }
    assert_eq!(s.client.task_id(op), None);
    s.advance(Duration::from_secs(10));
    assert_eq!(count(&s, "tasks/get"), 2, "polled after the end");
}

#[test]
fn the_poll_interval_is_bounded_and_defaults_when_absent() {
    let mut s = session();
    ask_task(&mut s, "research", None);
    assert_eq!(s.last_request_like("tools/call")["task"], json!({}));
    // pollInterval 0 would spin: the configured minimum (100 ms) holds.
    s.reply(
        "tools/call",
        json!({"task": task("t1", "working", None, Some(0))}),
    );
    s.advance(Duration::from_millis(99));
    assert_eq!(count(&s, "tasks/get"), 0);
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 1);
    // No hint at all: the interval stays as it was.
    s.reply("tasks/get", task("t1", "working", None, None));
    s.advance(Duration::from_millis(100));
    assert_eq!(count(&s, "tasks/get"), 2);
    let mut s = session();
    ask_task(&mut s, "research", None);
    s.reply(
        "tools/call",
        json!({"task": task("t2", "working", None, None)}),
    );
    s.advance(Duration::from_millis(999));
    assert_eq!(count(&s, "tasks/get"), 0, "the default is 1 s");
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 1);
}

#[test]
fn a_status_notification_is_seen_before_the_next_poll() {
    let mut s = session();
    let op = started(&mut s, 5000);
    s.take();
    s.notify(
        "notifications/tasks/status",
        task("t1", "working", Some("Synthesizing"), Some(5000)),
    );
    let ev = s.take();
    assert_eq!(
        task_events(&ev),
        [TaskEvent::Status {
            status: TaskStatus::Working,
            message: Some("Synthesizing".into())
        }]
    );
    s.notify(
        "notifications/tasks/status",
        task("t1", "completed", None, Some(5000)),
    );
    assert_eq!(statuses(&s.take()), [TaskStatus::Completed]);
    assert_eq!(count(&s, "tasks/get"), 0);
    assert_eq!(
        count(&s, "tasks/result"),
        1,
        "asked at once, not at the next poll"
    );
    s.reply("tasks/result", done());
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Success(_)]
    ));
    // A status about a task nobody follows is a plain notification.
    s.notify(
        "notifications/tasks/status",
        task("other", "working", None, None),
    );
    assert!(matches!(&s.take()[..], [Event::Notification { .. }]));
}

#[test]
fn cancelling_sends_tasks_cancel_and_ends_the_call() {
    let mut s = session();
    let op = started(&mut s, 1000);
    s.take();
    s.client.cancel(s.now, op, "the user pressed Ctrl-C");
    s.drain();
    assert_eq!(s.last_request_like("tasks/cancel"), json!({"taskId": "t1"}));
    assert_eq!(count(&s, "notifications/cancelled"), 0);
    s.reply(
        "tasks/cancel",
        task(
            "t1",
            "cancelled",
            Some("Client cancelled task execution."),
            None,
        ),
    );
    let ev = s.take();
    assert_eq!(statuses(&ev), [TaskStatus::Cancelled]);
    assert_eq!(
        outcomes(&ev, op),
        [CallOutcome::Failed(Failure::Cancelled(
            "Client cancelled task execution.".into()
        ))]
    );
    s.advance(Duration::from_secs(5));
    assert_eq!(count(&s, "tasks/get"), 0, "polled a cancelled task");
    assert!(!s.client.cancel_task(s.now, op), "nothing left to cancel");
}

#[test]
fn a_refused_cancel_is_reported_and_polling_goes_on() {
    let mut s = session();
    let op = started(&mut s, 1000);
    assert!(s.client.cancel_task(s.now, op));
    s.drain();
    s.take();
    s.reply_error("tasks/cancel", -32602, "Task already completed", None);
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Warning)]);
    assert!(outcomes(&ev, op).is_empty());
    s.advance(Duration::from_secs(1));
    assert_eq!(count(&s, "tasks/get"), 1);
}

#[test]
fn a_failed_task_ends_with_what_tasks_result_says() {
    let mut s = session();
    let op = started(&mut s, 1000);
    s.take();
    s.advance(Duration::from_secs(1));
    s.reply("tasks/get", task("t1", "failed", Some("disk full"), None));
    let ev = s.take();
    assert_eq!(
        task_events(&ev),
        [TaskEvent::Status {
            status: TaskStatus::Failed,
            message: Some("disk full".into())
        }]
    );
    s.reply(
        "tasks/result",
        json!({"content": [{"type": "text", "text": "disk full"}], "isError": true}),
    );
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::ToolError(_)]
    ));
    // And a tasks/result refused with a JSON-RPC error is a protocol error.
    let op = ask_task(&mut s, "research", None);
    s.reply(
        "tools/call",
        json!({"task": task("t2", "failed", None, None)}),
    );
    s.reply_error("tasks/result", -32603, "boom", None);
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::ProtocolError(e)] if e.code == -32603
    ));
}

#[test]
fn a_task_that_outlives_its_ttl_fails_clearly() {
    let mut s = session();
    let op = ask_task(&mut s, "research", Some(2000));
    let mut t = task("t1", "working", None, Some(1000));
    t["ttl"] = json!(2000);
    s.reply("tools/call", json!({ "task": t }));
    s.take();
    // The ttl (2 s) plus the default slack (5 s): polls at 1, 2, … 6 s, then gives up at 7 s.
    gives_up_after_the_ttl(&mut s, op, &t);
}

#[test]
fn a_status_going_back_from_terminal_is_a_finding() {
    let mut s = session();
    let op = started(&mut s, 1000);
    s.notify(
        "notifications/tasks/status",
        task("t1", "completed", None, None),
    );
    s.take();
    s.notify(
        "notifications/tasks/status",
        task("t1", "working", None, None),
    );
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Error)]);
    assert!(statuses(&ev).is_empty(), "the terminal status stands");
    s.reply("tasks/result", done());
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Success(_)]
    ));
}

#[test]
fn a_task_handle_for_a_tool_that_forbids_tasks_is_a_finding() {
    let mut s = session();
    // The client asked no task: a handle is wrong twice over.
    let op = s
        .client
        .call_tool(s.now, "echo", None, CallOptions::default());
    s.drain();
    s.reply(
        "tools/call",
        json!({"task": task("t1", "working", None, None)}),
    );
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Error)]);
    assert_eq!(s.client.task_id(op), Some("t1"), "followed all the same");
    // Asking a task of a tool that forbids it is the client's own mistake.
    ask_task(&mut s, "echo", None);
    assert_eq!(findings(&s.take()), [(Rule::Task, Severity::Warning)]);
    ask_task(&mut s, "research", None);
    assert!(findings(&s.take()).is_empty());
}

#[test]
fn a_task_lacking_required_members_is_a_finding() {
    let mut s = session();
    let op = ask_task(&mut s, "research", None);
    s.reply(
        "tools/call",
        json!({"task": {"taskId": "t1", "status": "working"}}),
    );
    let ev = s.take();
    let d = ev
        .iter()
        .find_map(|e| match e {
            Event::Diagnostic(d) if d.rule == Rule::Task => Some(d.message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(d.contains("createdAt, lastUpdatedAt, ttl"), "{d}");
    assert_eq!(s.client.task_id(op), Some("t1"));
    // Without a status the handle is unusable: the call fails.
    let op = ask_task(&mut s, "research", None);
    s.reply("tools/call", json!({"task": {"taskId": "t2"}}));
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Failed(Failure::Malformed(_))]
    ));
}

#[test]
fn input_required_asks_for_the_result_and_keeps_polling() {
    let mut s = session();
    let op = started(&mut s, 1000);
    s.take();
    s.advance(Duration::from_secs(1));
    s.reply(
        "tasks/get",
        task("t1", "input_required", Some("Which python?"), None),
    );
    assert_eq!(statuses(&s.take()), [TaskStatus::InputRequired]);
    assert_eq!(count(&s, "tasks/result"), 1);
    // The server's elicitation comes as a server request, as any other.
    s.feed(
        &json!({"jsonrpc": "2.0", "id": 7, "method": "elicitation/create",
            "params": {"message": "Which?", "requestedSchema": {"type": "object", "properties": {}}}})
        .to_string(),
    );
    assert!(s.take().iter().any(
        |e| matches!(e, Event::ServerRequest { method, .. } if method == "elicitation/create")
    ));
    s.advance(Duration::from_secs(1));
    assert_eq!(count(&s, "tasks/get"), 2, "polling goes on");
    s.reply("tasks/get", task("t1", "completed", None, None));
    assert_eq!(
        count(&s, "tasks/result"),
        1,
        "the result was already asked for"
    );
    s.reply("tasks/result", done());
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Success(_)]
    ));
}

#[test]
fn a_closed_connection_ends_a_task_between_polls() {
    let mut s = session();
    let op = started(&mut s, 1000);
    s.take();
    s.client.handle_closed(s.now, "EOF");
    s.drain();
    assert_eq!(
        outcomes(&s.take(), op),
        [CallOutcome::Failed(Failure::Transport("EOF".into()))]
    );
}

#[test]
fn a_task_asked_outside_2025_11_25_is_a_finding() {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with("2025-06-18", json!({"tools": {}}));
    ask_task(&mut s, "research", None);
    let ev = s.take();
    assert!(
        findings(&ev).contains(&(Rule::Task, Severity::Warning)),
        "{ev:#?}"
    );
    // And the server declared no task support either.
    assert!(
        findings(&ev).contains(&(Rule::CapabilityNotDeclared, Severity::Warning)),
        "{ev:#?}"
    );
}
