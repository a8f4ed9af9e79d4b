//! The demo's task tool (`count_task`, 2025-11-25 tasks) on virtual time: raw
//! `tools/call` with `params.task`, `tasks/get`, `tasks/result`, `tasks/list` and
//! `tasks/cancel`, the `input_required` question, the errors the spec names, the
//! revisions without tasks, every message checked against the official 2025-11-25
//! schema (natively), and the core's client following a task to its end. Runs
//! natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use std::time::Duration;

use mcpg_core::client::{
    CallOptions, CallOutcome, ClientConfig, Event, Failure, GenerationMode, OpId, TaskEvent,
    TaskRequest, TaskStatus,
};
use mcpg_core::model::JsonObject;
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};
use support::{Session, all, rpc_code, text_of};

const RELATED: &str = "io.modelcontextprotocol/related-task";

/// A client that can be asked (elicitation) and follows tasks.
fn caps() -> JsonObject {
    json!({"elicitation": {"form": {}}, "tasks": {}})
        .as_object()
        .unwrap()
        .clone()
}

/// A 2025-11-25 session (the `initialize` generation's newest).
fn classic() -> Session {
    let s = Session::with_config(ClientConfig {
        mode: GenerationMode::Initialize,
        capabilities: caps(),
        ..Default::default()
    });
    assert_eq!(
        s.client.negotiated().map(|n| n.version),
        Some(ProtocolVersion::V2025_11_25)
    );
    s
}

/// Sends a raw request; pump; its op (for requests held open).
fn send(s: &mut Session, method: &str, params: Value) -> OpId {
    let op = s.client.request(s.now, method, Some(params));
    s.pump();
    op
}

/// How raw request `op` ended, if it has.
fn ended(s: &Session, op: OpId) -> Option<Result<Value, i64>> {
    s.events.iter().find_map(|e| match e {
        Event::Response { op: o, outcome } if *o == op => Some(match outcome {
            Ok(v) => Ok(v.clone()),
            Err(mcpg_core::client::OpError::Rpc(e)) => Err(e.code),
            Err(other) => panic!("{other:?}"),
        }),
        _ => None,
    })
}

/// Calls `count_task` as a task (a raw `tools/call`, so every byte is the test's)
/// and returns its `Task`.
fn start(s: &mut Session, args: Value, task: Value) -> Value {
    let r = s.ok(
        "tools/call",
        json!({"name": "count_task", "arguments": args, "task": task}),
    );
    assert_eq!(r.as_object().unwrap().len(), 1, "only the task: {r}");
    r["task"].clone()
}

fn get(s: &mut Session, id: &str) -> Value {
    s.ok("tasks/get", json!({ "taskId": id }))
}

fn statuses(s: &Session) -> Vec<String> {
    s.notifications("notifications/tasks/status")
        .iter()
        .map(|t| {
            format!(
                "{} {}",
                t["status"].as_str().unwrap(),
                t["statusMessage"].as_str().unwrap()
            )
        })
        .collect()
}

fn advance_ms(s: &mut Session, ms: u64) {
    s.advance(Duration::from_millis(ms));
}

#[test]
fn a_task_counts_on_virtual_time_and_tasks_result_brings_its_result() {
    let mut s = classic();
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert_eq!(
        caps["tasks"],
        json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
    );
    let (tools, _) = all(&mut s, "tools/list", "tools");
    let last = tools.last().unwrap();
    assert_eq!(last["name"], "count_task", "listed last");
    assert_eq!(last["title"], "Count as a task");
    assert_eq!(last["execution"], json!({"taskSupport": "required"}));

    s.now = mcpg_core::Timestamp::from_millis(1_000);
    let task = start(
        &mut s,
        json!({"to": 5, "step_ms": 100}),
        json!({"ttl": 30000}),
    );
    assert_eq!(
        task,
        json!({"taskId": "task-1", "status": "working", "statusMessage": "counted 0 of 5",
            "createdAt": "2025-11-25T00:00:01.000Z", "lastUpdatedAt": "2025-11-25T00:00:01.000Z",
            "ttl": 30000, "pollInterval": 500})
    );
    // tasks/result before the end is held open until the task ends.
    let held = send(&mut s, "tasks/result", json!({"taskId": "task-1"}));
    assert_eq!(ended(&s, held), None);
    advance_ms(&mut s, 300);
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "working");
    assert_eq!(t["statusMessage"], "counted 3 of 5");
    assert_eq!(t["lastUpdatedAt"], "2025-11-25T00:00:01.300Z");
    assert_eq!(t["createdAt"], "2025-11-25T00:00:01.000Z");
    assert_eq!(ended(&s, held), None);
    advance_ms(&mut s, 200);
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "completed");
    assert_eq!(t["statusMessage"], "Counted to 5.");
    let result = json!({"content": [{"type": "text", "text": "Counted to 5."}],
        "_meta": {RELATED: {"taskId": "task-1"}}});
    assert_eq!(ended(&s, held), Some(Ok(result.clone())));
    // And again, at once, while the task is kept.
    assert_eq!(s.ok("tasks/result", json!({"taskId": "task-1"})), result);
    assert_eq!(statuses(&s), ["completed Counted to 5."]);
    assert_eq!(s.server.poll_timeout(), None, "nothing left to count");
    // Listed, with its own fields, and gone once its ttl is over.
    let listed = s.ok("tasks/list", json!({}));
    assert_eq!(listed, json!({"tasks": [get(&mut s, "task-1")]}));
    s.now = mcpg_core::Timestamp::from_millis(31_000);
    assert_eq!(
        rpc_code(s.request("tasks/get", json!({"taskId": "task-1"}))),
        -32602
    );
    assert_eq!(s.ok("tasks/list", json!({})), json!({"tasks": []}));
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

#[test]
fn progress_goes_on_for_a_task_and_carries_its_related_task() {
    let mut s = classic();
    let r = s.ok(
        "tools/call",
        json!({"name": "count_task", "arguments": {"to": 2, "step_ms": 50},
            "task": {}, "_meta": {"progressToken": "p1"}}),
    );
    assert_eq!(r["task"]["ttl"], 60_100, "the count's length and a minute");
    advance_ms(&mut s, 100);
    let progress = s.notifications("notifications/progress");
    assert_eq!(
        progress,
        [
            json!({"progressToken": "p1", "progress": 1.0, "total": 2.0, "message": "counted 1 of 2", "_meta": {RELATED: {"taskId": "task-1"}}}),
            json!({"progressToken": "p1", "progress": 2.0, "total": 2.0, "message": "counted 2 of 2", "_meta": {RELATED: {"taskId": "task-1"}}}),
        ]
    );
}

#[test]
fn cancelling_stops_the_count_and_an_ended_task_cannot_be_cancelled() {
    let mut s = classic();
    start(&mut s, json!({"to": 10, "step_ms": 100}), json!({}));
    advance_ms(&mut s, 250);
    let held = send(&mut s, "tasks/result", json!({"taskId": "task-1"}));
    let t = s.ok("tasks/cancel", json!({"taskId": "task-1"}));
    assert_eq!(t["status"], "cancelled");
    assert_eq!(
        t["statusMessage"],
        "Cancelled by request (counted 2 of 10)."
    );
    assert!(
        t.get("_meta").is_none(),
        "tasks/cancel carries no related-task"
    );
    assert_eq!(get(&mut s, "task-1"), t);
    // The held tasks/result ends: a cancelled task has no result.
    assert_eq!(ended(&s, held), Some(Err(-32602)));
    assert_eq!(
        rpc_code(s.request("tasks/result", json!({"taskId": "task-1"}))),
        -32602
    );
    assert_eq!(s.server.poll_timeout(), None, "the count stopped");
    advance_ms(&mut s, 2_000);
    assert_eq!(get(&mut s, "task-1"), t, "a cancelled task stays cancelled");
    assert_eq!(
        rpc_code(s.request("tasks/cancel", json!({"taskId": "task-1"}))),
        -32602
    );
    // A completed one cannot be cancelled either.
    start(&mut s, json!({"to": 1, "step_ms": 50}), json!({}));
    advance_ms(&mut s, 50);
    assert_eq!(get(&mut s, "task-2")["status"], "completed");
    assert_eq!(
        rpc_code(s.request("tasks/cancel", json!({"taskId": "task-2"}))),
        -32602
    );
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

/// The one elicitation waiting for the host.
fn question(s: &Session) -> (mcpg_core::jsonrpc::RequestId, Value) {
    let open: Vec<_> = s
        .events
        .iter()
        .filter_map(|e| match e {
            Event::ServerRequest {
                id,
                method,
                params,
                answered: false,
                ..
            } if method == "elicitation/create" => Some((id.clone(), params.clone().unwrap())),
            _ => None,
        })
        .collect();
    assert_eq!(open.len(), 1, "{:#?}", s.events);
    open[0].clone()
}

#[test]
fn ask_reaches_input_required_and_goes_on_once_answered() {
    let mut s = classic();
    start(
        &mut s,
        json!({"to": 4, "step_ms": 100, "ask": true}),
        json!({}),
    );
    advance_ms(&mut s, 200);
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "input_required");
    assert_eq!(
        t["statusMessage"],
        "counted 2 of 4: waiting for the answer to go on or stop"
    );
    let (id, params) = question(&s);
    assert_eq!(params["_meta"], json!({RELATED: {"taskId": "task-1"}}));
    assert_eq!(params["mode"], "form");
    assert_eq!(
        params["message"],
        "Half-way there: counted 2 of 4. Go on counting?"
    );
    assert_eq!(
        params["requestedSchema"]["properties"]["go_on"]["type"],
        "boolean"
    );
    // Nothing counts while it waits.
    assert_eq!(
        s.server
            .poll_timeout()
            .map(|t| t > s.now.after(Duration::from_secs(50))),
        Some(true),
        "only the ask's own timeout"
    );
    advance_ms(&mut s, 1_000);
    assert_eq!(get(&mut s, "task-1")["statusMessage"], t["statusMessage"]);
    // The requestor calls tasks/result at input_required; it is held.
    let held = send(&mut s, "tasks/result", json!({"taskId": "task-1"}));
    let accept = json!({"action": "accept", "content": {"go_on": true}});
    assert!(s.client.answer(s.now, &id, Ok(accept)));
    s.pump();
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "working");
    assert_eq!(t["statusMessage"], "counted 2 of 4: going on");
    advance_ms(&mut s, 200);
    assert_eq!(get(&mut s, "task-1")["status"], "completed");
    let r = ended(&s, held).unwrap().unwrap();
    assert_eq!(r["content"][0]["text"], "Counted to 4.");
    assert_eq!(
        statuses(&s),
        [
            "input_required counted 2 of 4: waiting for the answer to go on or stop",
            "working counted 2 of 4: going on",
            "completed Counted to 4.",
        ]
    );
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

#[test]
fn a_no_stops_the_count_and_a_client_that_cannot_be_asked_fails_the_task() {
    let mut s = classic();
    start(
        &mut s,
        json!({"to": 5, "step_ms": 100, "ask": true}),
        json!({}),
    );
    advance_ms(&mut s, 300);
    assert_eq!(get(&mut s, "task-1")["status"], "input_required");
    let (id, _) = question(&s);
    assert!(
        s.client
            .answer(s.now, &id, Ok(json!({"action": "decline"})))
    );
    s.pump();
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "completed");
    assert_eq!(
        t["statusMessage"],
        "Stopped at 3 of 5: you chose not to go on."
    );
    advance_ms(&mut s, 1_000);
    assert_eq!(get(&mut s, "task-1"), t, "no count after a no");

    // Without the elicitation capability, the task cannot ask: it fails, with a
    // tool error as its result.
    let mut s = Session::with_config(ClientConfig {
        mode: GenerationMode::Initialize,
        ..Default::default()
    });
    start(
        &mut s,
        json!({"to": 2, "step_ms": 100, "ask": true}),
        json!({}),
    );
    advance_ms(&mut s, 100);
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "failed");
    let r = s.ok("tasks/result", json!({"taskId": "task-1"}));
    assert_eq!(r["isError"], true);
    assert!(text_of_value(&r).contains("elicitation"), "{r}");
}

fn text_of_value(r: &Value) -> String {
    r["content"][0]["text"].as_str().unwrap().to_owned()
}

#[test]
fn bad_arguments_make_a_failed_task_and_unknown_ids_are_invalid_params() {
    let mut s = classic();
    let t = start(&mut s, json!({"to": 99}), json!({}));
    assert_eq!(t["status"], "working", "every task begins working");
    let t = get(&mut s, "task-1");
    assert_eq!(t["status"], "failed");
    let r = s.ok("tasks/result", json!({"taskId": "task-1"}));
    assert_eq!(r["isError"], true);
    assert_eq!(
        text_of_value(&r),
        "argument \"to\" must be an integer from 1 to 20"
    );
    let t = start(&mut s, json!({"ask": "yes"}), json!({}));
    assert_eq!(t["taskId"], "task-2");
    assert_eq!(get(&mut s, "task-2")["status"], "failed");
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        assert_eq!(
            rpc_code(s.request(method, json!({"taskId": "task-99"}))),
            -32602,
            "{method}"
        );
        assert_eq!(rpc_code(s.request(method, json!({}))), -32602, "{method}");
    }
    assert_eq!(
        rpc_code(s.request("tasks/list", json!({"cursor": "nope"}))),
        -32602
    );
}

#[test]
fn tasks_list_pages_six_at_a_time() {
    let mut s = classic();
    for _ in 0..7 {
        start(&mut s, json!({"to": 1, "step_ms": 50}), json!({}));
    }
    let first = s.ok("tasks/list", json!({}));
    assert_eq!(first["tasks"].as_array().unwrap().len(), 6);
    assert_eq!(first["nextCursor"], "tasks-6");
    let (tasks, pages) = all(&mut s, "tasks/list", "tasks");
    assert_eq!(pages, 2);
    let ids: Vec<&str> = tasks
        .iter()
        .map(|t| t["taskId"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "task-1", "task-2", "task-3", "task-4", "task-5", "task-6", "task-7"
        ]
    );
}

#[test]
fn the_task_tool_is_a_task_or_nothing_and_only_under_2025_11_25() {
    let mut s = classic();
    // taskSupport "required" without params.task: -32601, as the spec's tool-level
    // negotiation says.
    let plain = s.request("tools/call", json!({"name": "count_task", "arguments": {}}));
    assert_eq!(rpc_code(plain), -32601);
    // A task asked of a tool that does not support one: -32601 too (SHOULD).
    let forbidden = s.request(
        "tools/call",
        json!({"name": "count_slowly", "arguments": {}, "task": {}}),
    );
    assert_eq!(rpc_code(forbidden), -32601);
    // A `params.task` that is not an object is invalid params.
    let junk = s.request("tools/call", json!({"name": "count_task", "task": 5}));
    assert_eq!(rpc_code(junk), -32602);

    // 2026-07-28 moved tasks to an extension (`tasks_ext.rs`), which this client
    // does not declare: the tool is not listed, a call of it is -32021 (the tool
    // cannot run without a task) and so are the extension's task requests;
    // 2025-06-18 had no tasks at all.
    let stateless = Session::new(GenerationMode::Auto);
    let older = Session::with_config(ClientConfig {
        mode: GenerationMode::Initialize,
        versions: vec![ProtocolVersion::V2025_06_18],
        ..Default::default()
    });
    for mut s in [stateless, older] {
        let caps = &s.client.negotiated().unwrap().capabilities;
        assert!(!caps.contains_key("tasks"), "{caps:?}");
        let (tools, pages) = all(&mut s, "tools/list", "tools");
        assert_eq!((tools.len(), pages), (25, 5));
        assert!(!tools.iter().any(|t| t["name"] == "count_task"));
        let v2026 = s.client.negotiated().unwrap().version == ProtocolVersion::V2026_07_28;
        let call = s.request("tools/call", json!({"name": "count_task", "task": {}}));
        let (unknown, no_method) = if v2026 {
            (-32021, -32021)
        } else {
            (-32602, -32601)
        };
        assert_eq!(
            rpc_code(call),
            unknown,
            "an unknown tool, or one needing the extension"
        );
        assert_eq!(
            rpc_code(s.request("tasks/get", json!({"taskId": "task-1"}))),
            no_method
        );
        assert_eq!(rpc_code(s.request("tasks/list", json!({}))), -32601);
        // The prompt and the completion that name tools agree with the list.
        let tool = json!({"type": "ref/prompt", "name": "explain_tool"});
        let values = support::complete(&mut s, tool, "tool", "count", json!({}));
        assert_eq!(values, json!(["count_slowly", "count_words"]));
    }
    let mut s = classic();
    let tool = json!({"type": "ref/prompt", "name": "explain_tool"});
    let values = support::complete(&mut s, tool, "tool", "count", json!({}));
    assert_eq!(values, json!(["count_slowly", "count_words", "count_task"]));
}

#[test]
fn the_bonus_tool_comes_before_the_task_tool() {
    let mut s = classic();
    s.call("toggle_bonus_tool", json!({}));
    let (tools, pages) = all(&mut s, "tools/list", "tools");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names[24..], ["link_account", "secret_recipe", "count_task"]);
    assert_eq!(pages, 5);
}

/// The task a client call is followed as.
fn task_events(s: &Session, op: OpId) -> Vec<TaskEvent> {
    s.events
        .iter()
        .filter_map(|e| match e {
            Event::Task { op: o, event } if *o == op => Some(event.clone()),
            _ => None,
        })
        .collect()
}

fn outcome(s: &Session, op: OpId) -> Option<CallOutcome> {
    s.events.iter().find_map(|e| match e {
        Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
        _ => None,
    })
}

fn call_as_task(s: &mut Session, args: Value) -> OpId {
    s.client.list_tools(s.now);
    s.pump();
    let op = s.client.call_tool(
        s.now,
        "count_task",
        args.as_object().cloned(),
        CallOptions {
            task: Some(TaskRequest::default()),
            ..Default::default()
        },
    );
    s.pump();
    op
}

#[test]
fn the_core_client_follows_the_demos_task_to_its_result() {
    let mut s = classic();
    let op = call_as_task(&mut s, json!({"to": 3, "step_ms": 400}));
    assert_eq!(s.client.task_id(op), Some("task-1"));
    assert_eq!(outcome(&s, op), None);
    for _ in 0..30 {
        advance_ms(&mut s, 100);
    }
    let done = outcome(&s, op).expect("the call ended");
    assert!(matches!(done, CallOutcome::Success(_)), "{done:?}");
    assert_eq!(text_of(&done), "Counted to 3.");
    let ev = task_events(&s, op);
    assert_eq!(
        ev.first(),
        Some(&TaskEvent::Created {
            task_id: "task-1".into(),
            ttl: Some(Duration::from_millis(61_200)),
            poll_interval: Some(Duration::from_millis(500)),
        })
    );
    assert_eq!(
        ev.last(),
        Some(&TaskEvent::Status {
            status: TaskStatus::Completed,
            message: Some("Counted to 3.".into())
        })
    );
    // The client polled at the demo's interval, and read the result once.
    let sent = |m: &str| {
        s.wire
            .iter()
            .filter(|w| w.starts_with("> ") && w.contains(&format!("\"method\":\"{m}\"")))
            .count()
    };
    assert!(sent("tasks/get") >= 2, "{:#?}", s.wire);
    assert_eq!(sent("tasks/result"), 1);
    assert_eq!(s.client.task_id(op), None, "followed no more");
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

#[test]
fn the_core_client_answers_the_tasks_question_and_can_cancel_one() {
    let mut s = classic();
    let op = call_as_task(&mut s, json!({"to": 2, "step_ms": 100, "ask": true}));
    advance_ms(&mut s, 600);
    let (id, _) = question(&s);
    assert!(s.client.answer(
        s.now,
        &id,
        Ok(json!({"action": "accept", "content": {"go_on": true}}))
    ));
    s.pump();
    for _ in 0..10 {
        advance_ms(&mut s, 100);
    }
    let done = outcome(&s, op).expect("the call ended");
    assert_eq!(text_of(&done), "Counted to 2.");
    assert!(task_events(&s, op).contains(&TaskEvent::Status {
        status: TaskStatus::InputRequired,
        message: Some("counted 1 of 2: waiting for the answer to go on or stop".into())
    }));

    let op = call_as_task(&mut s, json!({"to": 20, "step_ms": 1000}));
    advance_ms(&mut s, 2_500);
    s.client.cancel(s.now, op, "the learner pressed Cancel");
    s.pump();
    assert_eq!(
        outcome(&s, op),
        Some(CallOutcome::Failed(Failure::Cancelled(
            "Cancelled by request (counted 2 of 20).".into()
        )))
    );
    assert_eq!(s.server.poll_timeout(), None);
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

/// Every message the demo sends about tasks, against the official 2025-11-25
/// schema (read from `../shared/spec-schemas`, as the core's own check does).
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_task_message_matches_the_official_2025_11_25_schema() {
    use std::collections::HashMap;

    let Some(schema) = official_schema("2025-11-25") else {
        return;
    };
    let mut s = classic();
    s.client.list_tools(s.now);
    s.pump();
    // A task to its result, with progress; one asked and answered; one cancelled;
    // one failed at once; the list; the errors.
    let r = s.ok(
        "tools/call",
        json!({"name": "count_task", "arguments": {"to": 2, "step_ms": 100},
            "task": {"ttl": 5000}, "_meta": {"progressToken": 7}}),
    );
    assert!(r.get("task").is_some());
    send(&mut s, "tasks/result", json!({"taskId": "task-1"}));
    advance_ms(&mut s, 200);
    s.ok("tasks/result", json!({"taskId": "task-1"}));
    start(
        &mut s,
        json!({"to": 2, "step_ms": 100, "ask": true}),
        json!({}),
    );
    advance_ms(&mut s, 100);
    get(&mut s, "task-2");
    let (id, _) = question(&s);
    s.client.answer(
        s.now,
        &id,
        Ok(json!({"action": "accept", "content": {"go_on": true}})),
    );
    s.pump();
    advance_ms(&mut s, 100);
    start(&mut s, json!({"to": 9}), json!({}));
    s.ok("tasks/cancel", json!({"taskId": "task-3"}));
    start(&mut s, json!({"to": 99}), json!({}));
    s.ok("tasks/result", json!({"taskId": "task-4"}));
    s.ok("tasks/list", json!({}));
    s.request("tasks/get", json!({"taskId": "nope"}));
    s.request("tools/call", json!({"name": "count_task"}));

    let mut asked: HashMap<Value, String> = HashMap::new();
    let mut checked: HashMap<&str, usize> = HashMap::new();
    for w in &s.wire {
        let (dir, text) = w.split_at(2);
        let msg: Value = serde_json::from_str(text).unwrap();
        if dir == "> " {
            if let (Some(id), Some(m)) = (msg.get("id"), msg["method"].as_str()) {
                asked.insert(id.clone(), m.to_owned());
            }
            continue;
        }
        let method = msg["method"].as_str();
        let answered = msg
            .get("id")
            .and_then(|id| asked.get(id))
            .map(String::as_str);
        let (defs, instance): (&[&str], Value) = match (method, answered) {
            (Some("notifications/tasks/status"), _) => (&["TaskStatusNotification"], msg.clone()),
            (Some("notifications/progress"), _) => (&["ProgressNotification"], msg.clone()),
            (Some("notifications/message"), _) => (&["LoggingMessageNotification"], msg.clone()),
            (Some("elicitation/create"), _) => (&["ElicitRequest"], msg.clone()),
            (Some(other), _) => panic!("unmapped {other}: {w}"),
            (None, _) if msg.get("error").is_some() => (&["JSONRPCErrorResponse"], msg.clone()),
            (None, Some("tools/call")) if msg["result"].get("task").is_some() => {
                (&["CreateTaskResult"], msg["result"].clone())
            }
            (None, Some("tools/call")) => (&["CallToolResult"], msg["result"].clone()),
            (None, Some("tasks/get")) => (&["GetTaskResult"], msg["result"].clone()),
            (None, Some("tasks/cancel")) => (&["CancelTaskResult"], msg["result"].clone()),
            (None, Some("tasks/list")) => (&["ListTasksResult"], msg["result"].clone()),
            (None, Some("tasks/result")) => (
                &["GetTaskPayloadResult", "CallToolResult"],
                msg["result"].clone(),
            ),
            (None, Some("initialize")) => (&["InitializeResult"], msg["result"].clone()),
            (None, Some("tools/list")) => (&["ListToolsResult"], msg["result"].clone()),
            (None, other) => panic!("unmapped answer to {other:?}: {w}"),
        };
        for def in defs {
            let errors: Vec<String> = validator(&schema, def)
                .iter_errors(&instance)
                .map(|e| format!("{e} at {}", e.instance_path()))
                .collect();
            assert!(errors.is_empty(), "{def}: {text}\n{errors:#?}");
            *checked.entry(def).or_default() += 1;
        }
        // Every message about a task, bar those the spec exempts, names it.
        let exempt = matches!(
            answered,
            Some("tasks/get" | "tasks/list" | "tasks/cancel" | "initialize" | "tools/list")
        ) || method == Some("notifications/tasks/status")
            || method == Some("notifications/message")
            || msg.get("error").is_some()
            || msg["result"].get("task").is_some();
        if !exempt {
            let meta = instance.get("params").unwrap_or(&instance)["_meta"][RELATED].clone();
            assert!(meta["taskId"].is_string(), "no related-task: {text}");
        }
    }
    for def in [
        "CreateTaskResult",
        "GetTaskResult",
        "CancelTaskResult",
        "ListTasksResult",
        "GetTaskPayloadResult",
        "TaskStatusNotification",
        "ProgressNotification",
        "ElicitRequest",
        "JSONRPCErrorResponse",
    ] {
        assert!(
            checked.get(def).is_some_and(|n| *n > 0),
            "no {def} checked: {checked:?}"
        );
    }
    // The validator can fail, or this proves nothing.
    let task = validator(&schema, "Task");
    assert!(!task.is_valid(
        &json!({"taskId": "t", "status": "done", "createdAt": "x", "lastUpdatedAt": "x", "ttl": 1})
    ));
    assert!(!task.is_valid(&json!({"taskId": "t", "status": "working"})));
}

/// The official schema of `revision`: under `MCPG_SPEC_SCHEMAS`, else
/// `../shared/spec-schemas` beside the checkout; skipped with a notice when absent
/// (a failure under `MCPG_REQUIRE_PEERS`), as the core's check does.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn official_schema(revision: &str) -> Option<Value> {
    use std::path::PathBuf;
    let dir = std::env::var_os("MCPG_SPEC_SCHEMAS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec-schemas"),
        PathBuf::from,
    );
    let file = dir.join(revision).join("schema.json");
    if !file.is_file() {
        let required = std::env::var("MCPG_REQUIRE_PEERS").is_ok_and(|v| !v.is_empty() && v != "0");
        assert!(
            !required,
            "{} is absent and MCPG_REQUIRE_PEERS is set",
            file.display()
        );
        println!(
            "SKIP: {} is absent; the official-schema check did not run (set MCPG_SPEC_SCHEMAS)",
            file.display()
        );
        return None;
    }
    Some(serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap())
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn validator(schema: &Value, def: &str) -> jsonschema::Validator {
    let mut root = schema.clone();
    root.as_object_mut()
        .unwrap()
        .insert("$ref".into(), Value::from(format!("#/$defs/{def}")));
    jsonschema::validator_for(&root).unwrap_or_else(|e| panic!("schema for {def}: {e}"))
}
