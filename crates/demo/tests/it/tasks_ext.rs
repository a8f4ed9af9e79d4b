//! `count_task` under 2026-07-28 as a task of the Tasks extension
//! (`io.modelcontextprotocol/tasks`, SEP-2663), on virtual time: the declaration in
//! `server/discover`, the tool listed only to a request that declares the
//! extension, `-32021` for one that does not, the core's client following a task
//! to its result, a question answered with `tasks/update`, `tasks/cancel`; every
//! message the demo sends checked member by member against the extension's shapes
//! and, natively, against what the official 2026-07-28 schema defines of them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use std::time::Duration;

use mcpg_core::client::{
    CallOptions, CallOutcome, ClientConfig, Event, Failure, GenerationMode, OpId, TASKS_EXTENSION,
    TaskEvent, TaskStatus,
};
use mcpg_core::model::JsonObject;
use mcpg_core::version::ProtocolVersion;
use serde_json::{Value, json};
use support::{Session, all, rpc_code, text_of};

/// A 2026-07-28 session whose client can be asked (elicitation) and speaks the
/// extension (`tasks_extension`), or not.
fn session(tasks_extension: bool) -> Session {
    let s = Session::with_config(ClientConfig {
        mode: GenerationMode::Auto,
        capabilities: json!({"elicitation": {"form": {}}})
            .as_object()
            .cloned()
            .unwrap(),
        tasks_extension,
        ..Default::default()
    });
    assert_eq!(
        s.client.negotiated().map(|n| n.version),
        Some(ProtocolVersion::V2026_07_28)
    );
    s
}

fn call(s: &mut Session, args: Value) -> OpId {
    let op = s.client.call_tool(
        s.now,
        "count_task",
        args.as_object().cloned(),
        CallOptions::default(),
    );
    s.pump();
    op
}

fn outcome(s: &Session, op: OpId) -> Vec<CallOutcome> {
    s.events
        .iter()
        .filter_map(|e| match e {
            Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
            _ => None,
        })
        .collect()
}

fn task_statuses(s: &Session) -> Vec<TaskStatus> {
    s.events
        .iter()
        .filter_map(|e| match e {
            Event::Task {
                event: TaskEvent::Status { status, .. },
                ..
            } => Some(*status),
            _ => None,
        })
        .collect()
}

/// Every frame the demo sent, parsed, with the method of the request it answers.
fn answers(s: &Session) -> Vec<(Option<String>, Value)> {
    let mut asked = std::collections::HashMap::new();
    let mut out = vec![];
    for w in &s.wire {
        let (dir, text) = w.split_at(2);
        let msg: Value = serde_json::from_str(text).unwrap();
        if dir == "> " {
            if let (Some(id), Some(m)) = (msg.get("id"), msg["method"].as_str()) {
                asked.insert(id.to_string(), m.to_owned());
            }
        } else {
            let to = msg
                .get("id")
                .and_then(|id| asked.get(&id.to_string()))
                .cloned();
            out.push((to, msg));
        }
    }
    out
}

/// The members of the extension's `Task`, checked one by one: `taskId` a string,
/// `status` one of five, `createdAt`/`lastUpdatedAt` strings, `ttlMs` an integer
/// or null, `pollIntervalMs` an integer when there, `statusMessage` a string when
/// there; `extra` names the members the shape adds (`resultType`, payload).
fn check_task(t: &Value, extra: &[&str]) {
    let o = t.as_object().unwrap();
    assert!(o["taskId"].is_string(), "{t}");
    let status = o["status"].as_str().unwrap();
    assert!(
        [
            "working",
            "input_required",
            "completed",
            "cancelled",
            "failed"
        ]
        .contains(&status),
        "{t}"
    );
    assert!(
        o["createdAt"].is_string() && o["lastUpdatedAt"].is_string(),
        "{t}"
    );
    assert!(o["ttlMs"].is_u64() || o["ttlMs"].is_null(), "{t}");
    assert!(o.get("pollIntervalMs").is_none_or(Value::is_u64), "{t}");
    assert!(o.get("statusMessage").is_none_or(Value::is_string), "{t}");
    let base = [
        "taskId",
        "status",
        "statusMessage",
        "createdAt",
        "lastUpdatedAt",
        "ttlMs",
        "pollIntervalMs",
        "_meta",
    ];
    for k in o.keys() {
        assert!(
            base.contains(&k.as_str()) || extra.contains(&k.as_str()),
            "unexpected member {k}: {t}"
        );
    }
    // What each status carries (DetailedTask), and nothing else.
    assert_eq!(
        o.contains_key("result"),
        status == "completed" && extra.contains(&"result"),
        "{t}"
    );
    assert_eq!(
        o.contains_key("inputRequests"),
        status == "input_required" && extra.contains(&"inputRequests"),
        "{t}"
    );
    assert!(!o.contains_key("error"), "the demo's tasks never fail: {t}");
}

#[test]
fn the_extension_is_declared_and_count_task_is_listed_only_to_those_who_declare_it() {
    let mut s = session(true);
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert_eq!(caps["extensions"][TASKS_EXTENSION], json!({}));
    assert!(
        caps.get("tasks").is_none(),
        "2025-11-25's capability: {caps:?}"
    );
    let (tools, pages) = all(&mut s, "tools/list", "tools");
    assert_eq!((tools.len(), pages), (26, 5));
    assert_eq!(tools.last().unwrap()["name"], "count_task", "listed last");
    // A client that does not declare it sees the 25 tools every link recorded.
    let mut plain = session(false);
    let (tools, pages) = all(&mut plain, "tools/list", "tools");
    assert_eq!((tools.len(), pages), (25, 5));
    assert!(tools.iter().all(|t| t["name"] != "count_task"));
}

#[test]
fn a_call_or_a_task_request_without_the_extension_is_minus_32021() {
    let mut s = session(false);
    for (method, params) in [
        ("tools/call", json!({"name": "count_task", "arguments": {}})),
        ("tasks/get", json!({"taskId": "task-1"})),
        (
            "tasks/update",
            json!({"taskId": "task-1", "inputResponses": {}}),
        ),
        ("tasks/cancel", json!({"taskId": "task-1"})),
    ] {
        let r = s.request(method, params);
        assert_eq!(rpc_code(r), -32021, "{method}");
    }
    let (_, err) = answers(&s).pop().unwrap();
    assert_eq!(
        err["error"]["data"],
        json!({"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}})
    );
    // The 2025-11-25 methods the extension dropped are not there at all.
    let mut s = session(true);
    for method in ["tasks/result", "tasks/list"] {
        assert_eq!(
            rpc_code(s.request(method, json!({"taskId": "task-1"}))),
            -32601
        );
    }
}

#[test]
fn the_client_follows_a_task_to_the_result_its_last_poll_carries() {
    let mut s = session(true);
    s.now = mcpg_core::Timestamp::from_millis(1_000);
    let op = call(&mut s, json!({"to": 3, "step_ms": 300}));
    let (to, handle) = answers(&s).pop().unwrap();
    assert_eq!(to.as_deref(), Some("tools/call"));
    let h = &handle["result"];
    assert_eq!(h["resultType"], "task");
    check_task(h, &["resultType"]);
    assert_eq!(h["taskId"], "task-1");
    assert_eq!(h["status"], "working");
    assert_eq!(h["statusMessage"], "counted 0 of 3");
    assert_eq!(h["createdAt"], "2025-11-25T00:00:01.000Z");
    assert_eq!(h["ttlMs"], 60_900, "the count and a minute more");
    assert_eq!(h["pollIntervalMs"], 500);
    assert!(outcome(&s, op).is_empty(), "the call is not over");
    assert_eq!(s.client.task_id(op), Some("task-1"));
    // Polls every 500 ms: the count ends at 900 ms, the second poll brings it.
    for _ in 0..4 {
        s.advance(Duration::from_millis(250));
    }
    let polls: Vec<Value> = answers(&s)
        .into_iter()
        .filter(|(to, _)| to.as_deref() == Some("tasks/get"))
        .map(|(_, m)| m["result"].clone())
        .collect();
    assert_eq!(polls.len(), 2, "{polls:#?}");
    assert_eq!(polls[0]["status"], "working");
    assert_eq!(polls[0]["statusMessage"], "counted 1 of 3");
    assert_eq!(polls[1]["status"], "completed");
    for p in &polls {
        assert_eq!(p["resultType"], "complete");
        check_task(p, &["resultType", "result"]);
    }
    assert_eq!(polls[1]["result"]["content"][0]["text"], "Counted to 3.");
    match &outcome(&s, op)[..] {
        [o @ CallOutcome::Success(_)] => assert_eq!(text_of(o), "Counted to 3."),
        other => panic!("{other:#?}"),
    }
    assert_eq!(
        task_statuses(&s),
        [
            TaskStatus::Working,
            TaskStatus::Working,
            TaskStatus::Completed
        ]
    );
    // No 2025-11-25 traffic: no tasks/result, no status notifications, no progress.
    assert!(s.wire.iter().all(|w| !w.contains("tasks/result")));
    assert!(s.notifications("notifications/tasks/status").is_empty());
    assert!(s.notifications("notifications/progress").is_empty());
    assert_eq!(s.server.poll_timeout(), None);
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

#[test]
fn a_question_rides_in_input_requests_and_tasks_update_answers_it() {
    for (go_on, text) in [
        (true, "Counted to 4."),
        (false, "Stopped at 2 of 4: you chose not to go on."),
    ] {
        let mut s = session(true);
        let op = call(&mut s, json!({"to": 4, "step_ms": 100, "ask": true}));
        s.advance(Duration::from_millis(500));
        let (_, poll) = answers(&s).pop().unwrap();
        let t = &poll["result"];
        check_task(t, &["resultType", "inputRequests"]);
        assert_eq!(t["status"], "input_required");
        let req = &t["inputRequests"]["go_on"];
        assert_eq!(req["method"], "elicitation/create");
        assert_eq!(req["params"]["mode"], "form");
        assert!(
            req["params"]["message"]
                .as_str()
                .unwrap()
                .contains("counted 2 of 4")
        );
        // The client surfaces it once, as an input_required outcome of the call.
        let asked = outcome(&s, op);
        let [CallOutcome::InputRequired(r)] = &asked[..] else {
            panic!("{asked:#?}")
        };
        assert_eq!(r["inputRequests"]["go_on"], *req);
        // Asked again on every poll until answered; surfaced no more.
        s.advance(Duration::from_millis(500));
        assert_eq!(outcome(&s, op).len(), 1);
        let answer = json!({"go_on": {"action": "accept", "content": {"go_on": go_on}}});
        assert!(
            s.client
                .continue_call(s.now, op, answer.as_object().cloned().unwrap())
        );
        s.pump();
        let (to, ack) = answers(&s).pop().unwrap();
        assert_eq!(to.as_deref(), Some("tasks/update"));
        assert_eq!(ack["result"]["resultType"], "complete");
        let mut keys: Vec<&String> = ack["result"].as_object().unwrap().keys().collect();
        keys.sort();
        assert_eq!(keys, ["_meta", "resultType"], "an empty acknowledgement");
        for _ in 0..4 {
            s.advance(Duration::from_millis(500));
        }
        let ends = outcome(&s, op);
        match &ends[..] {
            [_, o @ CallOutcome::Success(_)] => assert_eq!(text_of(o), text),
            other => panic!("{other:#?}"),
        }
        assert_eq!(s.server.poll_timeout(), None);
        assert_eq!(s.diagnostics(), Vec::<String>::new());
    }
}

#[test]
fn a_question_the_call_cannot_answer_completes_with_a_tool_error() {
    // A client that speaks the extension but declares no elicitation.
    let mut s = Session::with_config(ClientConfig {
        tasks_extension: true,
        ..Default::default()
    });
    let op = call(&mut s, json!({"to": 2, "step_ms": 100, "ask": true}));
    s.advance(Duration::from_millis(500));
    let (_, poll) = answers(&s).pop().unwrap();
    // isError completes an extension task: failed is for JSON-RPC errors.
    assert_eq!(poll["result"]["status"], "completed");
    assert_eq!(poll["result"]["result"]["isError"], true);
    assert!(matches!(&outcome(&s, op)[..], [CallOutcome::ToolError(_)]));
}

#[test]
fn tasks_cancel_stops_the_count_and_is_an_empty_acknowledgement() {
    let mut s = session(true);
    let op = call(&mut s, json!({"to": 20, "step_ms": 100}));
    s.advance(Duration::from_millis(200));
    s.client.cancel(s.now, op, "the learner pressed Cancel");
    s.pump();
    let (to, ack) = answers(&s).pop().unwrap();
    assert_eq!(to.as_deref(), Some("tasks/cancel"));
    assert_eq!(ack["result"]["resultType"], "complete");
    assert_eq!(
        outcome(&s, op),
        [CallOutcome::Failed(Failure::Cancelled(
            "the learner pressed Cancel".into()
        ))]
    );
    assert_eq!(s.server.poll_timeout(), None, "the count stopped");
    let t = s.ok("tasks/get", json!({"taskId": "task-1"}));
    check_task(&t, &["resultType"]);
    assert_eq!(t["status"], "cancelled");
    assert_eq!(
        t["statusMessage"],
        "Cancelled by request (counted 2 of 20)."
    );
    // Cancelling an ended task is acknowledged and changes nothing (cooperative).
    assert_eq!(
        s.ok("tasks/cancel", json!({"taskId": "task-1"}))["resultType"],
        "complete"
    );
    assert_eq!(
        rpc_code(s.request("tasks/get", json!({"taskId": "nope"}))),
        -32602
    );
    assert_eq!(s.diagnostics(), Vec::<String>::new());
}

/// What the official 2026-07-28 schema defines of the demo's extension messages:
/// the envelope (`JSONRPCResultResponse`, `JSONRPCErrorResponse`), `Result` (with
/// its `resultType`) for every task answer, `InputRequests` for a task's
/// questions, `CallToolResult` for a task's final result, `DiscoverResult` with
/// the extension, and `MissingRequiredClientCapabilityError`. The task shapes
/// themselves are the extension's, not in that schema: `check_task` has them.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn every_extension_message_matches_the_official_2026_07_28_schema() {
    use crate::tasks::{official_schema, validator};
    use std::collections::HashMap;

    let Some(schema) = official_schema("2026-07-28") else {
        return;
    };
    let mut s = session(true);
    s.client.list_tools(s.now);
    s.pump();
    let op = call(&mut s, json!({"to": 2, "step_ms": 100, "ask": true}));
    s.advance(Duration::from_millis(500));
    let answer = json!({"go_on": {"action": "accept", "content": {"go_on": true}}});
    s.client
        .continue_call(s.now, op, answer.as_object().cloned().unwrap());
    s.pump();
    s.advance(Duration::from_millis(500));
    s.advance(Duration::from_millis(500));
    let op = call(&mut s, json!({"to": 9}));
    s.client.cancel(s.now, op, "stop");
    s.pump();
    s.request("tasks/get", json!({"taskId": "nope"}));
    let mut plain = session(false);
    plain.request("tools/call", json!({"name": "count_task", "arguments": {}}));

    let mut checked: HashMap<&str, usize> = HashMap::new();
    let mut check = |def: &'static str, v: &Value| {
        let errors: Vec<String> = validator(&schema, def)
            .iter_errors(v)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{def}: {v}\n{errors:#?}");
        *checked.entry(def).or_default() += 1;
    };
    for (to, msg) in answers(&s).into_iter().chain(answers(&plain)) {
        if msg.get("error").is_some() {
            check("JSONRPCErrorResponse", &msg);
            if msg["error"]["code"] == -32021 {
                check("MissingRequiredClientCapabilityError", &msg);
            }
            continue;
        }
        if msg.get("method").is_some() {
            continue;
        }
        check("JSONRPCResultResponse", &msg);
        let r = &msg["result"];
        match to.as_deref() {
            Some("server/discover") => check("DiscoverResult", r),
            Some("tools/call") => {
                assert_eq!(r["resultType"], "task", "{r}");
                check("Result", r);
            }
            Some("tasks/get") => {
                check("Result", r);
                if let Some(q) = r.get("inputRequests") {
                    check("InputRequests", q);
                }
                if let Some(res) = r.get("result") {
                    check("CallToolResult", res);
                }
            }
            Some("tasks/update" | "tasks/cancel") => check("Result", r),
            _ => {}
        }
    }
    for def in [
        "DiscoverResult",
        "Result",
        "InputRequests",
        "CallToolResult",
        "JSONRPCErrorResponse",
        "MissingRequiredClientCapabilityError",
    ] {
        assert!(
            checked.get(def).is_some_and(|n| *n > 0),
            "no {def} checked: {checked:?}"
        );
    }
    // The validator can fail, or this proves nothing.
    assert!(
        !validator(&schema, "InputRequests").is_valid(&json!({"go_on": {"method": "tools/call"}}))
    );
    assert!(!validator(&schema, "Result").is_valid(&json!({"taskId": "t"})));
}

/// The 2025-11-25 task is as it was: the extension changes nothing there.
#[test]
fn under_2025_11_25_nothing_of_the_extension_shows() {
    let mut s = Session::with_config(ClientConfig {
        mode: GenerationMode::Initialize,
        tasks_extension: true,
        capabilities: JsonObject::new(),
        ..Default::default()
    });
    let caps = &s.client.negotiated().unwrap().capabilities;
    assert!(caps.get("extensions").is_none(), "{caps:?}");
    assert_eq!(
        rpc_code(s.request("tasks/update", json!({"taskId": "t"}))),
        -32601
    );
}
