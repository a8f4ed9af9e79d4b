//! The server's side of 2025-11-25 tasks (`ServerConfig::tasks`): the capability
//! under 2025-11-25 only, a tool whose `execution.taskSupport` is `"required"`
//! listed and callable only there, each call checked against its tool's
//! `taskSupport`, `params.task` handed on with the call, and `tasks/*` handed on
//! to the application, which answers with `respond_result`. Natively and in
//! headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::raw;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::Tool;
use mcpg_core::server::{Server, ServerConfig, ServerEvent};
use raw::{GENS, Gen, Raw};
use serde_json::json;

fn tool(name: &str, support: Option<&str>) -> Tool {
    let mut t = json!({"name": name, "inputSchema": {"type": "object"}});
    if let Some(s) = support {
        t["execution"] = json!({ "taskSupport": s });
    }
    Tool::from_json(&t).unwrap()
}

fn server(tasks: bool) -> Server {
    let cfg = ServerConfig {
        tasks,
        ..Default::default()
    };
    let tools = vec![
        tool("plain", None),
        tool("either", Some("optional")),
        tool("task_only", Some("required")),
    ];
    Server::new(cfg, tools)
}

fn names(r: &mut Raw) -> Vec<String> {
    r.pages("tools/list", "tools", "name").concat()
}

#[test]
fn tasks_are_declared_listed_and_handed_on_under_2025_11_25_only() {
    for generation in GENS {
        let mut r = Raw::new(server(true), generation);
        let caps = match generation {
            // The initialize answer is the first frame.
            Gen::Initialize(_) => r.frames[0]["result"]["capabilities"].clone(),
            Gen::Stateless => {
                r.request("server/discover", json!({}))["result"]["capabilities"].clone()
            }
        };
        let has = generation == Gen::Initialize("2025-11-25");
        assert_eq!(caps.get("tasks").is_some(), has, "{generation:?}: {caps}");
        // 2026-07-28 declares the extension instead (`tasks_ext` below).
        let ext = generation == Gen::Stateless;
        assert_eq!(
            caps.pointer("/extensions/io.modelcontextprotocol~1tasks"),
            ext.then(|| json!({})).as_ref(),
            "{generation:?}: {caps}"
        );
        if has {
            assert_eq!(
                caps["tasks"],
                json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
            );
        }
        let listed = names(&mut r);
        assert_eq!(
            listed.contains(&"task_only".to_owned()),
            has,
            "{generation:?}"
        );
        assert!(listed.contains(&"either".to_owned()));
        let id = r.send("tasks/get", json!({"taskId": "t1"}));
        if has {
            assert_eq!(r.answer(&id), None, "handed on to the application");
            assert!(matches!(&r.take()[..], [ServerEvent::TaskRequest { .. }]));
        } else {
            // Under 2026-07-28 a request that does not declare the extension: -32021.
            let a = r.answer(&id).unwrap();
            let code = if ext { -32021 } else { -32601 };
            assert_eq!(Raw::code(a), Some(code), "{generation:?}: {a}");
        }
        // Where the tool is not offered, calling it is an unknown tool (or, under
        // 2026-07-28, one that needs the extension declared).
        if !has {
            let a = r.request("tools/call", json!({"name": "task_only", "task": {}}));
            let code = if ext { -32021 } else { -32602 };
            assert_eq!(Raw::code(&a), Some(code), "{generation:?}: {a}");
        }
    }
}

#[test]
fn calls_are_checked_against_task_support_and_tasks_requests_are_handed_on() {
    let mut r = Raw::new(server(true), Gen::Initialize("2025-11-25"));
    // Required without a task, and a task of a tool without support: -32601.
    let a = r.request("tools/call", json!({"name": "task_only"}));
    assert_eq!(Raw::code(&a), Some(-32601), "{a}");
    let a = r.request("tools/call", json!({"name": "plain", "task": {}}));
    assert_eq!(Raw::code(&a), Some(-32601), "{a}");
    let a = r.request("tools/call", json!({"name": "either", "task": 3}));
    assert_eq!(Raw::code(&a), Some(-32602), "{a}");
    assert!(r.take().is_empty(), "nothing reached the application");

    let call = r.send(
        "tools/call",
        json!({"name": "task_only", "task": {"ttl": 1000}}),
    );
    let plain = r.send("tools/call", json!({"name": "either"}));
    let get = r.send("tasks/get", json!({"taskId": "t1"}));
    let list = r.send("tasks/list", json!({}));
    let tasks: Vec<_> = r
        .take()
        .into_iter()
        .map(|e| match e {
            ServerEvent::CallTool { id, task, .. } => (id, format!("call {task:?}")),
            ServerEvent::TaskRequest { id, method, params } => (
                id,
                format!("{method} {}", serde_json::Value::Object(params)),
            ),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        tasks,
        [
            (
                call.clone(),
                r#"call Some({"ttl": Number(1000)})"#.to_owned()
            ),
            (plain.clone(), "call None".to_owned()),
            (get.clone(), r#"tasks/get {"taskId":"t1"}"#.to_owned()),
            (list.clone(), "tasks/list {}".to_owned()),
        ]
    );
    // The application answers with what it built.
    let task = json!({"taskId": "t1", "status": "working", "createdAt": "2025-11-25T00:00:00Z",
        "lastUpdatedAt": "2025-11-25T00:00:00Z", "ttl": 1000});
    r.server
        .respond_result(r.now, &call, json!({ "task": task }));
    r.server.respond_result(r.now, &get, task.clone());
    r.server
        .notify(r.now, "notifications/tasks/status", task.clone());
    r.drain();
    assert_eq!(r.answer(&call).unwrap()["result"]["task"], task);
    assert_eq!(r.answer(&get).unwrap()["result"], task);
    assert_eq!(
        r.notifications("notifications/tasks/status"),
        [&json!({"jsonrpc": "2.0", "method": "notifications/tasks/status", "params": task})]
    );
    assert!(r.server.is_open(&list), "tasks/list waits for its answer");
}

#[test]
fn without_the_configuration_task_is_ignored_and_nothing_is_declared() {
    let mut r = Raw::new(server(false), Gen::Initialize("2025-11-25"));
    assert!(!names(&mut r).contains(&"task_only".to_owned()));
    // A receiver that does not declare tasks processes the call normally.
    r.send("tools/call", json!({"name": "plain", "task": {}}));
    assert!(matches!(
        &r.take()[..],
        [ServerEvent::CallTool { task: None, .. }]
    ));
    let a = r.request("tasks/list", json!({}));
    assert_eq!(Raw::code(&a), Some(-32601));
}

/// The 2026-07-28 Tasks extension, as far as the core's server goes: a request
/// that declares it sees the tool that runs only as a task and may call it (the
/// application decides whether to answer with a task, from the call's context);
/// `tasks/get`, `tasks/update` and `tasks/cancel` are handed on; `tasks/result`
/// and `tasks/list` do not exist there; a request that does not declare it gets
/// `-32021` naming the extension; a server without tasks has none of it.
#[test]
fn tasks_ext() {
    let ext = json!({"extensions": {"io.modelcontextprotocol/tasks": {}}});
    let mut r = Raw::new(server(true), Gen::Stateless);
    r.caps = ext.clone();
    assert!(names(&mut r).contains(&"task_only".to_owned()));
    let call = r.send("tools/call", json!({"name": "task_only"}));
    let get = r.send("tasks/get", json!({"taskId": "t1"}));
    let update = r.send(
        "tasks/update",
        json!({"taskId": "t1", "inputResponses": {"k": {"action": "cancel"}}}),
    );
    let cancel = r.send("tasks/cancel", json!({"taskId": "t1"}));
    let seen: Vec<String> = r
        .take()
        .into_iter()
        .map(|e| match e {
            ServerEvent::CallTool { id, task, .. } => format!("{id} call {task:?}"),
            ServerEvent::TaskRequest { id, method, .. } => format!("{id} {method}"),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(
        seen,
        [
            format!("{call} call None"),
            format!("{get} tasks/get"),
            format!("{update} tasks/update"),
            format!("{cancel} tasks/cancel"),
        ]
    );
    let ctx = r.server.call_context(&call).unwrap();
    assert!(mcpg_core::server::declares_tasks_extension(
        &ctx.client_capabilities
    ));
    // The handle is the application's, tagged as it built it.
    let handle = json!({"resultType": "task", "taskId": "t1", "status": "working",
        "createdAt": "x", "lastUpdatedAt": "x", "ttlMs": null});
    r.server.respond_result(r.now, &call, handle);
    r.drain();
    assert_eq!(r.answer(&call).unwrap()["result"]["resultType"], "task");
    for method in ["tasks/result", "tasks/list"] {
        let a = r.request(method, json!({"taskId": "t1"}));
        assert_eq!(Raw::code(&a), Some(-32601), "{method}: {a}");
    }
    // Without the declaration: not listed, and -32021 with the extension named.
    r.caps = json!({"elicitation": {}});
    assert!(!names(&mut r).contains(&"task_only".to_owned()));
    let a = r.request("tools/call", json!({"name": "task_only"}));
    assert_eq!(Raw::code(&a), Some(-32021), "{a}");
    assert_eq!(
        a["error"]["data"]["requiredCapabilities"],
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    r.send("tools/call", json!({"name": "plain"}));
    assert!(
        matches!(&r.take()[..], [ServerEvent::CallTool { .. }]),
        "other tools need nothing"
    );
    // A server without tasks: nothing of the extension, the tool unknown.
    let mut r = Raw::new(server(false), Gen::Stateless);
    r.caps = ext;
    let caps = r.request("server/discover", json!({}))["result"]["capabilities"].clone();
    assert!(caps.get("extensions").is_none(), "{caps}");
    assert!(!names(&mut r).contains(&"task_only".to_owned()));
    let a = r.request("tasks/get", json!({"taskId": "t1"}));
    assert_eq!(Raw::code(&a), Some(-32601), "{a}");
}
