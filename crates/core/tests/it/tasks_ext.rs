//! The 2026-07-28 Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663)
//! against a scripted server on a virtual clock: the declaration, a `tools/call`
//! answered with a task handle, polling `tasks/get` at `pollIntervalMs`, the result
//! or error carried by the task, input requests answered with `tasks/update`,
//! `tasks/cancel`, the ttl and the diagnostics. The messages the client sends are
//! checked member by member against the extension's schema
//! (`schema/2026-07-28/schema.json` of modelcontextprotocol/ext-tasks).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::client::{
    CallOptions, CallOutcome, Client, ClientConfig, Event, Failure, OpId, TASKS_EXTENSION,
    TaskEvent, TaskRequest, TaskStatus,
};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::model::JsonObject;
use serde_json::{Value, json};
use support::tasks::{count, gives_up_after_the_ttl, statuses, task_events};
use support::{Scripted, findings, outcomes};

/// The server's capabilities: tools, and the extension declared.
fn server_caps() -> Value {
    json!({"tools": {}, "extensions": {TASKS_EXTENSION: {}}})
}

/// The client's capabilities: elicitation, so that a task may ask for input.
fn client_caps() -> JsonObject {
    json!({"elicitation": {}}).as_object().cloned().unwrap()
}

fn config(tasks_extension: bool) -> ClientConfig {
    ClientConfig {
        capabilities: client_caps(),
        tasks_extension,
        ..Default::default()
    }
}

/// A 2026-07-28 session whose client speaks the extension.
fn session() -> Scripted {
    let mut s = Scripted::new(config(true));
    s.connect_with("2026-07-28", server_caps());
    s
}

/// The members every `Task` has, as the server writes them.
fn task(id: &str, status: &str, poll_ms: Option<u64>) -> Value {
    let mut t = json!({"taskId": id, "status": status, "ttlMs": 60000,
        "createdAt": "2026-07-28T10:00:00Z", "lastUpdatedAt": "2026-07-28T10:00:01Z"});
    if let Some(p) = poll_ms {
        t["pollIntervalMs"] = json!(p);
    }
    t
}

/// A `CreateTaskResult`: a flat `Task` with `resultType: "task"`.
fn handle(id: &str, status: &str, poll_ms: Option<u64>) -> Value {
    let mut t = task(id, status, poll_ms);
    t["resultType"] = json!("task");
    t
}

/// A `GetTaskResult`: a `DetailedTask` with `resultType: "complete"`, plus `extra`
/// members (`result`, `error`, `inputRequests`, `statusMessage`).
fn detailed(id: &str, status: &str, poll_ms: Option<u64>, extra: Value) -> Value {
    let mut t = task(id, status, poll_ms);
    t["resultType"] = json!("complete");
    for (k, v) in extra.as_object().cloned().unwrap_or_default() {
        t[k] = v;
    }
    t
}

fn call(s: &mut Scripted, name: &str) -> OpId {
    let op = s.client.call_tool(
        s.now,
        name,
        json!({"topic": "tides"}).as_object().cloned(),
        CallOptions::default(),
    );
    s.drain();
    op
}

fn report() -> Value {
    json!({"content": [{"type": "text", "text": "report"}], "isError": false})
}

fn elicit_name() -> Value {
    json!({"method": "elicitation/create", "params": {"mode": "form",
        "message": "Please enter your name.",
        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}},
            "required": ["name"]}}})
}

/// The extension declared in a 2026-07-28 request's per-request capabilities:
/// `TasksExtensionCapability` is an empty object.
fn declared(params: &Value) -> Option<&Value> {
    params["_meta"]["io.modelcontextprotocol/clientCapabilities"]["extensions"].get(TASKS_EXTENSION)
}

/// The last `method` request as sent, envelope and all, checked against the
/// extension's `GetTaskRequest` / `UpdateTaskRequest` / `CancelTaskRequest`:
/// `jsonrpc` "2.0", an integer or string `id`, `method` the constant, `params` an
/// object with `taskId` a string (and, for `tasks/update`, `inputResponses` an object
/// of `InputResponse`s), nothing else but the per-request `_meta`; the request
/// declares the extension (servers refuse these methods from a client that does
/// not) and carries `Mcp-Method` and `Mcp-Name: <taskId>`.
fn checked_task_request(s: &Scripted, method: &str, task_id: &str) -> Value {
    let out = s.last_outgoing(method);
    let raw: Value = serde_json::from_str(out.message.raw()).unwrap();
    let env = raw.as_object().unwrap();
    let mut keys: Vec<&str> = env.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["id", "jsonrpc", "method", "params"], "{raw}");
    assert_eq!(raw["jsonrpc"], "2.0");
    assert!(raw["id"].is_i64() || raw["id"].is_string(), "{raw}");
    assert_eq!(raw["method"], method);
    let params = raw["params"].as_object().unwrap();
    assert_eq!(params["taskId"], json!(task_id), "{raw}");
    let allowed: &[&str] = if method == "tasks/update" {
        &["_meta", "inputResponses", "taskId"]
    } else {
        &["_meta", "taskId"]
    };
    let mut keys: Vec<&str> = params.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, allowed, "{raw}");
    if method == "tasks/update" {
        let responses = params["inputResponses"].as_object().unwrap();
        for r in responses.values() {
            // InputResponse: a CreateMessageResult, ListRootsResult or ElicitResult;
            // here always an ElicitResult, whose `action` is required.
            let action = r["action"].as_str().unwrap();
            assert!(["accept", "decline", "cancel"].contains(&action), "{r}");
            assert!(r.get("content").is_none_or(Value::is_object), "{r}");
        }
    }
    assert_eq!(declared(&raw["params"]), Some(&json!({})), "{raw}");
    let header = |name: &str| {
        out.headers
            .iter()
            .find(|(h, _)| *h == name)
            .map(|(_, v)| v.clone())
    };
    assert_eq!(header("Mcp-Method").as_deref(), Some(method));
    assert_eq!(header("Mcp-Name").as_deref(), Some(task_id));
    raw["params"].clone()
}

#[test]
fn the_extension_is_declared_per_request_only_when_configured() {
    let mut s = session();
    call(&mut s, "research");
    let params = s.last_request_like("tools/call");
    assert_eq!(declared(&params), Some(&json!({})), "{params}");
    // The configured capabilities stay as they are beside it.
    let caps = &params["_meta"]["io.modelcontextprotocol/clientCapabilities"];
    assert_eq!(caps["elicitation"], json!({}));
    // The client asks for no task: under the extension the server decides.
    assert!(params.get("task").is_none(), "{params}");
    // Off by default.
    let mut off = Scripted::new(ClientConfig::default());
    off.connect_with("2026-07-28", server_caps());
    call(&mut off, "research");
    let params = off.last_request_like("tools/call");
    assert!(declared(&params).is_none(), "{params}");
    // A client without its answer readers (the page before its later pack) declares
    // it all the same, so a request's text does not depend on when they came; a task
    // handle it cannot follow yet fails the call, saying why, and nothing is polled.
    let mut bare = Scripted::new(config(true));
    bare.client = Client::without_answer_readers(config(true));
    bare.connect_with("2026-07-28", server_caps());
    bare.client.list_tools(bare.now);
    bare.drain();
    let params = bare.last_request_like("tools/list");
    assert_eq!(declared(&params), Some(&json!({})), "{params}");
    let op = call(&mut bare, "research");
    bare.reply("tools/call", handle("t1", "working", Some(500)));
    match &outcomes(&bare.take(), op)[..] {
        [CallOutcome::Failed(Failure::Malformed(why))] => {
            assert!(why.contains("without its answer readers"), "{why}");
        }
        other => panic!("{other:#?}"),
    }
    bare.advance(Duration::from_secs(5));
    assert_eq!(count(&bare, "tasks/get"), 0, "no task to poll");
    assert_eq!(bare.client.task_id(op), None);
    // 2025-11-25 has no per-request capabilities, and its initialize gets no extensions.
    let mut old = Scripted::new(config(true));
    old.connect_with("2025-11-25", json!({"tools": {}}));
    let caps = &old.last_request_like("initialize")["capabilities"];
    assert!(caps.get("extensions").is_none(), "{caps}");
}

#[test]
fn a_task_is_polled_at_the_hint_and_ends_with_the_result_it_carries() {
    let mut s = session();
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(500)));
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
                message: None
            }
        ]
    );
    assert!(findings(&ev).is_empty(), "{ev:#?}");
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
    assert_eq!(count(&s, "tasks/get"), 0, "polled before the hint");
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 1);
    checked_task_request(&s, "tasks/get", "t1");
    // One poll in flight at a time, however long its answer takes.
    s.advance(Duration::from_secs(2));
    assert_eq!(count(&s, "tasks/get"), 1);
    s.reply(
        "tasks/get",
        detailed(
            "t1",
            "working",
            Some(800),
            json!({"statusMessage": "Analyzing"}),
        ),
    );
    assert_eq!(
        task_events(&s.take()),
        [TaskEvent::Status {
            status: TaskStatus::Working,
            message: Some("Analyzing".into())
        }]
    );
    // The hint may change over the task's life: the next poll follows it.
    s.advance(Duration::from_millis(799));
    assert_eq!(count(&s, "tasks/get"), 1);
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 2);
    s.reply(
        "tasks/get",
        detailed("t1", "completed", Some(800), json!({"result": report()})),
    );
    let ev = s.take();
    assert_eq!(statuses(&ev), [TaskStatus::Completed]);
    match &outcomes(&ev, op)[..] {
        [CallOutcome::Success(r)] => assert_eq!(r.content.len(), 1),
        other => panic!("{other:#?}"),
    }
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    assert_eq!(
        count(&s, "tasks/result"),
        0,
        "the extension has no tasks/result"
    );
    assert_eq!(s.client.task_id(op), None);
    s.advance(Duration::from_secs(10));
    assert_eq!(count(&s, "tasks/get"), 2, "polled after the end");
    assert_eq!(s.client.poll_timeout(), None);
}

#[test]
fn the_hint_is_bounded_as_for_2025_11_25() {
    let mut s = session();
    call(&mut s, "research");
    // pollIntervalMs 0 would spin: the configured minimum (100 ms) holds.
    s.reply("tools/call", handle("t1", "working", Some(0)));
    s.advance(Duration::from_millis(99));
    assert_eq!(count(&s, "tasks/get"), 0);
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 1);
    let mut s = session();
    call(&mut s, "research");
    s.reply("tools/call", handle("t2", "working", None));
    s.advance(Duration::from_millis(999));
    assert_eq!(count(&s, "tasks/get"), 0, "the default is 1 s");
    s.advance(Duration::from_millis(1));
    assert_eq!(count(&s, "tasks/get"), 1);
}

#[test]
fn a_completed_task_with_a_tool_error_and_a_failed_task_keep_apart() {
    let mut s = session();
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(1000)));
    s.take();
    s.advance(Duration::from_secs(1));
    // isError: true is a completed task (the tool ran), not a failed one.
    let tool_error =
        json!({"content": [{"type": "text", "text": "no such city"}], "isError": true});
    s.reply(
        "tasks/get",
        detailed("t1", "completed", None, json!({"result": tool_error})),
    );
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::ToolError(_)]
    ));
    // A JSON-RPC error during execution: the task fails and carries the error.
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t2", "working", Some(1000)));
    s.take();
    s.advance(Duration::from_secs(1));
    s.reply(
        "tasks/get",
        detailed(
            "t2",
            "failed",
            None,
            json!({"statusMessage": "Tool execution failed: API rate limit exceeded",
                "error": {"code": -32603, "message": "API rate limit exceeded"}}),
        ),
    );
    let ev = s.take();
    assert_eq!(
        task_events(&ev),
        [TaskEvent::Status {
            status: TaskStatus::Failed,
            message: Some("Tool execution failed: API rate limit exceeded".into())
        }]
    );
    match &outcomes(&ev, op)[..] {
        [CallOutcome::ProtocolError(e)] => {
            assert_eq!(
                (e.code, e.message.as_str()),
                (-32603, "API rate limit exceeded")
            );
        }
        other => panic!("{other:#?}"),
    }
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    s.advance(Duration::from_secs(5));
    assert_eq!(count(&s, "tasks/get"), 2, "polled a failed task");
    // A tasks/get refused (the task is gone) ends the call as a protocol error.
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t3", "working", Some(1000)));
    s.advance(Duration::from_secs(1));
    s.reply_error(
        "tasks/get",
        -32602,
        "Failed to retrieve task: Task not found",
        None,
    );
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::ProtocolError(e)] if e.code == -32602
    ));
}

#[test]
fn cancelling_sends_tasks_cancel_and_the_acknowledgement_ends_the_call() {
    let mut s = session();
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(1000)));
    s.take();
    s.client.cancel(s.now, op, "the user pressed Ctrl-C");
    s.drain();
    let params = checked_task_request(&s, "tasks/cancel", "t1");
    assert_eq!(params["taskId"], "t1");
    assert_eq!(
        count(&s, "notifications/cancelled"),
        0,
        "the spec forbids notifications/cancelled for a task"
    );
    // A second cancel while the first is unanswered sends nothing more.
    s.client.cancel(s.now, op, "again");
    s.drain();
    assert_eq!(count(&s, "tasks/cancel"), 1);
    // CancelTaskResult: an empty acknowledgement.
    s.reply("tasks/cancel", json!({"resultType": "complete"}));
    let ev = s.take();
    assert_eq!(
        outcomes(&ev, op),
        [CallOutcome::Failed(Failure::Cancelled(
            "the user pressed Ctrl-C".into()
        ))]
    );
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    s.advance(Duration::from_secs(5));
    assert_eq!(count(&s, "tasks/get"), 0, "polled a cancelled task");
    assert!(!s.client.cancel_task(s.now, op), "nothing left to cancel");
}

#[test]
fn a_refused_cancel_is_reported_and_polling_goes_on_until_the_server_cancels() {
    let mut s = session();
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(1000)));
    assert!(s.client.cancel_task(s.now, op));
    s.drain();
    s.take();
    s.reply_error("tasks/cancel", -32602, "Task not found", None);
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Warning)]);
    assert!(outcomes(&ev, op).is_empty());
    s.advance(Duration::from_secs(1));
    assert_eq!(count(&s, "tasks/get"), 1);
    // The server cancelled the task on its own: the call ends with its message.
    s.reply(
        "tasks/get",
        detailed(
            "t1",
            "cancelled",
            None,
            json!({"statusMessage": "The task was cancelled by request."}),
        ),
    );
    let ev = s.take();
    assert_eq!(statuses(&ev), [TaskStatus::Cancelled]);
    assert_eq!(
        outcomes(&ev, op),
        [CallOutcome::Failed(Failure::Cancelled(
            "The task was cancelled by request.".into()
        ))]
    );
}

#[test]
fn input_requests_are_surfaced_once_and_answered_with_tasks_update() {
    let mut s = session();
    let op = call(&mut s, "hello_world");
    s.reply("tools/call", handle("t1", "working", Some(1000)));
    s.take();
    s.advance(Duration::from_secs(1));
    s.reply(
        "tasks/get",
        detailed(
            "t1",
            "input_required",
            Some(1000),
            json!({"inputRequests": {"name": elicit_name()}}),
        ),
    );
    let ev = s.take();
    assert_eq!(statuses(&ev), [TaskStatus::InputRequired]);
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    // Surfaced as a 2026-07-28 input_required result is: the host needs nothing new.
    assert_eq!(
        outcomes(&ev, op),
        [CallOutcome::InputRequired(json!({
            "resultType": "input_required",
            "inputRequests": {"name": elicit_name()}
        }))]
    );
    // Polled on while the host thinks; the same request again is not surfaced again.
    s.advance(Duration::from_secs(1));
    assert_eq!(count(&s, "tasks/get"), 2);
    s.reply(
        "tasks/get",
        detailed(
            "t1",
            "input_required",
            Some(1000),
            json!({"inputRequests": {"name": elicit_name()}}),
        ),
    );
    assert!(s.take().is_empty(), "surfaced twice");
    let answer = json!({"name": {"action": "accept", "content": {"name": "Luca"}}});
    assert!(
        s.client
            .continue_call(s.now, op, answer.as_object().cloned().unwrap())
    );
    s.drain();
    let params = checked_task_request(&s, "tasks/update", "t1");
    assert_eq!(params["inputResponses"], answer);
    assert!(params.get("requestState").is_none(), "{params}");
    assert_eq!(
        count(&s, "tools/call"),
        1,
        "a task is not retried like MRTR"
    );
    // UpdateTaskResult: an empty acknowledgement.
    s.reply("tasks/update", json!({"resultType": "complete"}));
    let ev = s.take();
    assert!(outcomes(&ev, op).is_empty(), "{ev:#?}");
    assert!(findings(&ev).is_empty(), "{ev:#?}");
    // The same answer again is not sent again.
    assert!(
        !s.client
            .continue_call(s.now, op, answer.as_object().cloned().unwrap())
    );
    s.drain();
    assert_eq!(count(&s, "tasks/update"), 1);
    assert_eq!(findings(&s.take()), [(Rule::Task, Severity::Warning)]);
    // Nor an answer to a request the task never made: each key sent must be outstanding.
    let stray = json!({"age": {"action": "decline"}});
    assert!(
        !s.client
            .continue_call(s.now, op, stray.as_object().cloned().unwrap())
    );
    s.drain();
    assert_eq!(count(&s, "tasks/update"), 1);
    assert_eq!(findings(&s.take()), [(Rule::Task, Severity::Warning)]);
    // The acknowledgement is eventually consistent: the key may still be listed.
    s.advance(Duration::from_secs(1));
    s.reply(
        "tasks/get",
        detailed(
            "t1",
            "input_required",
            Some(1000),
            json!({"inputRequests": {"name": elicit_name()}}),
        ),
    );
    assert!(s.take().is_empty());
    s.advance(Duration::from_secs(1));
    s.reply(
        "tasks/get",
        detailed("t1", "working", Some(1000), json!({})),
    );
    assert_eq!(statuses(&s.take()), [TaskStatus::Working]);
    s.advance(Duration::from_secs(1));
    let hello = json!({"content": [{"type": "text", "text": "Hello, Luca!"}], "isError": false});
    s.reply(
        "tasks/get",
        detailed("t1", "completed", Some(1000), json!({"result": hello})),
    );
    match &outcomes(&s.take(), op)[..] {
        [CallOutcome::Success(r)] => assert_eq!(r.content.len(), 1),
        other => panic!("{other:#?}"),
    }
    assert!(!s.client.continue_call(s.now, op, JsonObject::new()));
}

#[test]
fn a_refused_update_asks_again_and_new_keys_are_surfaced_alone() {
    let mut s = session();
    let op = call(&mut s, "hello_world");
    s.reply("tools/call", handle("t1", "working", Some(1000)));
    s.advance(Duration::from_secs(1));
    let two = json!({"inputRequests": {"name": elicit_name(), "city": elicit_name()}});
    s.reply(
        "tasks/get",
        detailed("t1", "input_required", None, two.clone()),
    );
    s.take();
    // A partial answer is allowed; the rest stays open.
    let partial = json!({"name": {"action": "accept", "content": {"name": "Luca"}}});
    assert!(
        s.client
            .continue_call(s.now, op, partial.as_object().cloned().unwrap())
    );
    s.drain();
    assert_eq!(findings(&s.take()), [(Rule::Task, Severity::Info)]);
    s.reply_error("tasks/update", -32603, "store unavailable", None);
    assert_eq!(findings(&s.take()), [(Rule::Task, Severity::Warning)]);
    // The server still lists both: the one whose answer was refused comes again.
    s.advance(Duration::from_secs(1));
    s.reply("tasks/get", detailed("t1", "input_required", None, two));
    match &outcomes(&s.take(), op)[..] {
        [CallOutcome::InputRequired(r)] => {
            let keys: Vec<&String> = r["inputRequests"].as_object().unwrap().keys().collect();
            assert_eq!(keys, ["name"], "{r}");
        }
        other => panic!("{other:#?}"),
    }
    // A key that now names another request breaks the spec and is not surfaced.
    s.advance(Duration::from_secs(1));
    let other = json!({"method": "elicitation/create", "params": {"message": "Age?",
        "requestedSchema": {"type": "object", "properties": {}}}});
    s.reply(
        "tasks/get",
        detailed(
            "t1",
            "input_required",
            None,
            json!({"inputRequests": {"city": other}}),
        ),
    );
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Error)]);
    assert!(outcomes(&ev, op).is_empty());
}

#[test]
fn a_task_that_outlives_its_ttl_fails_clearly() {
    let mut s = session();
    let op = call(&mut s, "research");
    let mut h = handle("t1", "working", Some(1000));
    h["ttlMs"] = json!(2000);
    s.reply("tools/call", h);
    s.take();
    let mut working = detailed("t1", "working", Some(1000), json!({}));
    working["ttlMs"] = json!(2000);
    // The ttl (2 s) plus the default slack (5 s): polls at 1, 2, … 6 s, then gives up at 7 s.
    gives_up_after_the_ttl(&mut s, op, &working);
}

#[test]
fn a_task_handle_for_a_client_that_did_not_declare_the_extension_is_a_finding() {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with("2026-07-28", server_caps());
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(100)));
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Error)]);
    assert!(matches!(
        &outcomes(&ev, op)[..],
        [CallOutcome::Failed(Failure::Malformed(_))]
    ));
    assert_eq!(s.client.task_id(op), None);
    s.advance(Duration::from_secs(1));
    assert_eq!(count(&s, "tasks/get"), 0, "followed an undeclared task");
    // A server that did not declare the extension but answers a declaring client
    // with a task: a warning, and the task is followed.
    let mut s = Scripted::new(config(true));
    s.connect_with("2026-07-28", json!({"tools": {}}));
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(100)));
    assert_eq!(findings(&s.take()), [(Rule::Task, Severity::Warning)]);
    assert_eq!(s.client.task_id(op), Some("t1"));
}

#[test]
fn a_status_going_back_from_terminal_is_a_finding() {
    let mut s = session();
    let op = call(&mut s, "research");
    // A handle is a Task, not a DetailedTask: a completed one is polled for its result.
    s.reply("tools/call", handle("t1", "completed", Some(1000)));
    let ev = s.take();
    assert_eq!(statuses(&ev), [TaskStatus::Completed]);
    assert!(outcomes(&ev, op).is_empty(), "{ev:#?}");
    s.advance(Duration::from_secs(1));
    s.reply(
        "tasks/get",
        detailed("t1", "working", Some(1000), json!({})),
    );
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Error)]);
    assert!(statuses(&ev).is_empty(), "the terminal status stands");
    s.advance(Duration::from_secs(1));
    assert_eq!(count(&s, "tasks/get"), 2, "polled on for the result");
    s.reply(
        "tasks/get",
        detailed("t1", "completed", Some(1000), json!({"result": report()})),
    );
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Success(_)]
    ));
}

#[test]
fn a_task_lacking_required_members_is_a_finding() {
    let mut s = session();
    let op = call(&mut s, "research");
    // 2025-11-25's member names are not the extension's.
    s.reply(
        "tools/call",
        json!({"resultType": "task", "taskId": "t1", "status": "working", "ttl": 60000}),
    );
    let ev = s.take();
    let text = ev
        .iter()
        .find_map(|e| match e {
            Event::Diagnostic(d) if d.rule == Rule::Task => Some(d.message.clone()),
            _ => None,
        })
        .unwrap();
    assert!(text.contains("createdAt, lastUpdatedAt, ttlMs"), "{text}");
    assert_eq!(s.client.task_id(op), Some("t1"), "followed all the same");
    // A completed task without its result cannot end the call with one.
    s.advance(Duration::from_secs(1));
    s.reply("tasks/get", detailed("t1", "completed", None, json!({})));
    let ev = s.take();
    assert_eq!(findings(&ev), [(Rule::Task, Severity::Error)]);
    assert!(matches!(
        &outcomes(&ev, op)[..],
        [CallOutcome::Failed(Failure::Malformed(_))]
    ));
    // Nor a failed one without its error; and a tasks/get result must be "complete".
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t2", "working", None));
    s.advance(Duration::from_secs(1));
    let mut failed = detailed("t2", "failed", None, json!({}));
    failed["resultType"] = json!("task");
    s.reply("tasks/get", failed);
    let ev = s.take();
    assert_eq!(
        findings(&ev),
        [(Rule::Task, Severity::Error), (Rule::Task, Severity::Error)]
    );
    assert!(matches!(
        &outcomes(&ev, op)[..],
        [CallOutcome::Failed(Failure::Malformed(_))]
    ));
    // Without a status the handle is unusable: the call fails.
    let op = call(&mut s, "research");
    s.reply("tools/call", json!({"resultType": "task", "taskId": "t3"}));
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Failed(Failure::Malformed(_))]
    ));
}

#[test]
fn a_task_notification_ends_the_call_before_the_next_poll() {
    let mut s = session();
    let op = call(&mut s, "research");
    s.reply("tools/call", handle("t1", "working", Some(5000)));
    s.take();
    s.notify(
        "notifications/tasks",
        detailed("t1", "completed", Some(5000), json!({"result": report()})),
    );
    let ev = s.take();
    assert_eq!(statuses(&ev), [TaskStatus::Completed]);
    assert!(matches!(&outcomes(&ev, op)[..], [CallOutcome::Success(_)]));
    s.advance(Duration::from_secs(10));
    assert_eq!(count(&s, "tasks/get"), 0);
    // About a task nobody follows, or in 2025-11-25's name: a plain notification.
    s.notify(
        "notifications/tasks",
        detailed("other", "working", None, json!({})),
    );
    assert!(matches!(&s.take()[..], [Event::Notification { .. }]));
}

#[test]
fn a_2025_11_25_task_is_unaffected_by_the_switch() {
    let mut s = Scripted::new(ClientConfig {
        capabilities: json!({"tasks": {}}).as_object().cloned().unwrap(),
        tasks_extension: true,
        ..Default::default()
    });
    s.connect_with(
        "2025-11-25",
        json!({"tools": {}, "tasks": {"requests": {"tools": {"call": {}}}}}),
    );
    let op = s.client.call_tool(
        s.now,
        "research",
        None,
        CallOptions {
            task: Some(TaskRequest::default()),
            ..Default::default()
        },
    );
    s.drain();
    let params = s.last_request_like("tools/call");
    assert!(params.get("_meta").is_none(), "{params}");
    let t = json!({"taskId": "t1", "status": "working", "ttl": 60000, "pollInterval": 1000,
        "createdAt": "2025-11-25T10:00:00Z", "lastUpdatedAt": "2025-11-25T10:00:01Z"});
    s.reply("tools/call", json!({ "task": t }));
    assert!(findings(&s.take()).is_empty());
    s.advance(Duration::from_secs(1));
    let get = s.last_outgoing("tasks/get");
    assert!(
        get.headers.iter().all(|(h, _)| *h != "Mcp-Name"),
        "{:?}",
        get.headers
    );
    let mut done = t.clone();
    done["status"] = json!("completed");
    s.reply("tasks/get", done);
    assert_eq!(
        count(&s, "tasks/result"),
        1,
        "2025-11-25 still asks tasks/result"
    );
    s.reply(
        "tasks/result",
        json!({"content": [{"type": "text", "text": "report"}]}),
    );
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Success(_)]
    ));
    // And a 2025-11-25 result that says resultType "task" is no extension handle.
    let op = s
        .client
        .call_tool(s.now, "research", None, CallOptions::default());
    s.drain();
    s.reply("tools/call", handle("t2", "working", None));
    assert_eq!(s.client.task_id(op), None);
    assert!(matches!(
        &outcomes(&s.take(), op)[..],
        [CallOutcome::Success(_) | CallOutcome::ToolError(_) | CallOutcome::Failed(_)]
    ));
}

/// A raw request about a task (`mcpg tasks get ID` on a new connection) carries
/// `Mcp-Name: <taskId>` as the client's own task requests do: rmcp refuses a
/// `tasks/get` without it. Not without the extension, nor under 2025-11-25.
#[test]
fn a_raw_task_request_names_its_task_under_the_extension() {
    let mut s = session();
    for (method, params) in [
        ("tasks/get", json!({"taskId": "t9"})),
        ("tasks/cancel", json!({"taskId": "t9"})),
        (
            "tasks/update",
            json!({"taskId": "t9", "inputResponses": {"k": {"action": "decline"}}}),
        ),
    ] {
        s.client.request(s.now, method, Some(params));
        s.drain();
        checked_task_request(&s, method, "t9");
    }
    // Another method with a taskId is not the extension's: no name.
    s.client
        .request(s.now, "tasks/list", Some(json!({"taskId": "t9"})));
    s.drain();
    let out = s.last_outgoing("tasks/list");
    assert!(
        out.headers.iter().all(|(h, _)| *h != "Mcp-Name"),
        "{:?}",
        out.headers
    );
    let named = |s: &Scripted| {
        s.last_outgoing("tasks/get")
            .headers
            .iter()
            .any(|(h, _)| *h == "Mcp-Name")
    };
    let mut off = Scripted::new(config(false));
    off.connect_with("2026-07-28", server_caps());
    off.client
        .request(off.now, "tasks/get", Some(json!({"taskId": "t9"})));
    off.drain();
    assert!(!named(&off));
    let mut old = Scripted::new(config(true));
    old.connect_with("2025-11-25", json!({"tools": {}}));
    old.client
        .request(old.now, "tasks/get", Some(json!({"taskId": "t9"})));
    old.drain();
    assert!(!named(&old));
}
