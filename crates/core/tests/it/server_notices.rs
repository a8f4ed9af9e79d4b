//! The server role's completions, subscriptions and log levels, in both
//! generations, driven by raw frames under a virtual clock. Runs natively and,
//! through wasm-bindgen-test, in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::raw;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::jsonrpc::code;
use mcpg_core::model::LoggingLevel;
use mcpg_core::server::{CompletionTarget, MAX_COMPLETIONS, Server, ServerConfig, ServerEvent};
use raw::{GENS, Gen, Raw, full_server};
use serde_json::{Value, json};

#[test]
fn completions_name_a_known_argument_and_are_capped() {
    for generation in GENS {
        let mut r = Raw::new(full_server(3), generation);
        let bad = [
            json!({"ref": {"type": "ref/prompt", "name": "nope"}, "argument": {"name": "city", "value": ""}}),
            json!({"ref": {"type": "ref/prompt", "name": "plan_trip"}, "argument": {"name": "country", "value": ""}}),
            json!({"ref": {"type": "ref/resource", "uri": "weather://{town}/today"}, "argument": {"name": "town", "value": ""}}),
            json!({"ref": {"type": "ref/resource", "uri": "weather://{city}/today"}, "argument": {"name": "day", "value": ""}}),
            json!({"ref": {"type": "ref/tool", "name": "x"}, "argument": {"name": "a", "value": ""}}),
            json!({"ref": {"type": "ref/prompt", "name": "plan_trip"}, "argument": {"name": "city"}}),
        ];
        for p in bad {
            let a = r.request("completion/complete", p.clone());
            assert_eq!(Raw::code(&a), Some(code::INVALID_PARAMS), "{p}: {a}");
        }
        let p = r.send(
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "plan_trip"}, "argument": {"name": "days", "value": "1"}, "context": {"arguments": {"city": "Paris"}}}),
        );
        let t = r.send(
            "completion/complete",
            json!({"ref": {"type": "ref/resource", "uri": "weather://{city}/today"}, "argument": {"name": "city", "value": "Pa"}}),
        );
        let ev = r.take();
        assert_eq!(
            ev[0],
            ServerEvent::Complete {
                id: p.clone(),
                reference: CompletionTarget::Prompt("plan_trip".into()),
                argument: "days".into(),
                value: "1".into(),
                context: json!({"city": "Paris"}).as_object().cloned().unwrap(),
            }
        );
        assert!(
            matches!(&ev[1], ServerEvent::Complete { reference: CompletionTarget::Template(u), value, context, .. }
            if u == "weather://{city}/today" && value == "Pa" && context.is_empty())
        );
        let many: Vec<String> = (0..150).map(|i| format!("v{i}")).collect();
        r.server.respond_completion(r.now, &p, many);
        r.server.respond_completion(r.now, &t, vec!["Paris".into()]);
        r.drain();
        let c = &r.answer(&p).unwrap()["result"]["completion"];
        assert_eq!(c["values"].as_array().unwrap().len(), MAX_COMPLETIONS);
        assert_eq!(
            (c["total"].clone(), c["hasMore"].clone()),
            (json!(150), json!(true))
        );
        let c = &r.answer(&t).unwrap()["result"]["completion"];
        assert_eq!(
            *c,
            json!({"values": ["Paris"], "total": 1, "hasMore": false})
        );
    }
}

#[test]
fn subscriptions_in_the_initialize_generation() {
    let mut r = Raw::new(full_server(3), Gen::Initialize("2025-06-18"));
    let missing = r.request("resources/subscribe", json!({"uri": "note://zz"}));
    assert_eq!(Raw::code(&missing), Some(code::RESOURCE_NOT_FOUND));
    r.server.resource_updated(r.now, "note://n/1");
    r.drain();
    assert!(
        r.notifications("notifications/resources/updated")
            .is_empty(),
        "not subscribed yet"
    );
    assert_eq!(
        r.request("resources/subscribe", json!({"uri": "note://n/1"}))["result"],
        json!({})
    );
    assert_eq!(
        r.request(
            "resources/subscribe",
            json!({"uri": "weather://Paris/today"})
        )["result"],
        json!({})
    );
    r.server.resource_updated(r.now, "note://n/1");
    r.server.resource_updated(r.now, "note://n/2");
    r.server.resource_updated(r.now, "weather://Paris/today");
    r.drain();
    let sent: Vec<Value> = r
        .notifications("notifications/resources/updated")
        .into_iter()
        .map(|n| n["params"].clone())
        .collect();
    assert_eq!(
        sent,
        vec![
            json!({"uri": "note://n/1"}),
            json!({"uri": "weather://Paris/today"})
        ]
    );
    assert_eq!(
        r.request("resources/unsubscribe", json!({"uri": "note://n/1"}))["result"],
        json!({})
    );
    r.server.resource_updated(r.now, "note://n/1");
    r.drain();
    assert_eq!(
        r.notifications("notifications/resources/updated").len(),
        2,
        "no update after unsubscribe"
    );
    // List changes go to the initialized client as declared.
    r.server.set_resources(r.now, vec![], vec![]);
    r.server.set_prompts(r.now, vec![]);
    r.drain();
    assert_eq!(
        r.notifications("notifications/resources/list_changed")
            .len(),
        1
    );
    assert_eq!(
        r.notifications("notifications/prompts/list_changed").len(),
        1
    );
}

#[test]
fn subscriptions_through_listen_under_2026_07_28() {
    let mut r = Raw::new(full_server(3), Gen::Stateless);
    for m in [
        "resources/subscribe",
        "resources/unsubscribe",
        "logging/setLevel",
    ] {
        let a = r.request(m, json!({"uri": "note://n/1", "level": "info"}));
        assert_eq!(
            Raw::code(&a),
            Some(code::METHOD_NOT_FOUND),
            "{m} is gone in 2026-07-28"
        );
    }
    let only_tools = r.send(
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let updates = r.send(
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": ["note://n/3", "nope://x", "weather://Oslo/today"], "promptsListChanged": true}}),
    );
    let acks = r.notifications("notifications/subscriptions/acknowledged");
    assert_eq!(
        acks[0]["params"]["notifications"],
        json!({"toolsListChanged": true})
    );
    assert_eq!(
        acks[1]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        updates.to_value()
    );
    assert_eq!(
        acks[1]["params"]["notifications"],
        json!({"promptsListChanged": true, "resourceSubscriptions": ["note://n/3", "weather://Oslo/today"]}),
        "the unknown URI is not honoured"
    );
    assert!(r.answer(&updates).is_none(), "a listen request stays open");
    r.server.resource_updated(r.now, "note://n/3");
    r.server.resource_updated(r.now, "note://n/4");
    r.server.set_prompts(r.now, vec![]);
    r.server.set_resources(r.now, vec![], vec![]);
    r.drain();
    let up = r.notifications("notifications/resources/updated");
    assert_eq!(up.len(), 1);
    assert_eq!(
        up[0]["params"],
        json!({"uri": "note://n/3", "_meta": {"io.modelcontextprotocol/subscriptionId": updates.to_value()}})
    );
    let pl = r.notifications("notifications/prompts/list_changed");
    assert_eq!(pl.len(), 1, "only the stream that opted in");
    assert_eq!(
        pl[0]["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        updates.to_value()
    );
    assert!(
        r.notifications("notifications/resources/list_changed")
            .is_empty(),
        "nobody opted in"
    );
    // Cancelling the stream closes it.
    r.notify(
        "notifications/cancelled",
        json!({"requestId": updates.to_value()}),
    );
    r.server.resource_updated(r.now, "note://n/3");
    r.drain();
    assert_eq!(r.notifications("notifications/resources/updated").len(), 1);
    let _ = only_tools;
}

fn log_all(r: &mut Raw, id: Option<&mcpg_core::jsonrpc::RequestId>) -> Vec<String> {
    let before = r.notifications("notifications/message").len();
    for l in LoggingLevel::ALL {
        r.server.log(r.now, id, l, Some("test"), json!(l.as_str()));
    }
    r.drain();
    r.notifications("notifications/message")[before..]
        .iter()
        .map(|n| n["params"]["level"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn log_messages_respect_the_level_set() {
    let mut r = Raw::new(full_server(3), Gen::Initialize("2025-11-25"));
    assert!(
        log_all(&mut r, None).is_empty(),
        "nothing before a level is chosen"
    );
    let bad = r.request("logging/setLevel", json!({"level": "verbose"}));
    assert_eq!(Raw::code(&bad), Some(code::INVALID_PARAMS));
    assert_eq!(
        r.request("logging/setLevel", json!({"level": "error"}))["result"],
        json!({})
    );
    assert!(
        r.take()
            .contains(&ServerEvent::LogLevelSet(LoggingLevel::Error))
    );
    assert_eq!(
        log_all(&mut r, None),
        ["error", "critical", "alert", "emergency"]
    );
    r.request("logging/setLevel", json!({"level": "debug"}));
    assert_eq!(log_all(&mut r, None).len(), 8);
    let n = &r.notifications("notifications/message")[4];
    assert_eq!(
        n["params"],
        json!({"level": "debug", "logger": "test", "data": "debug"})
    );
    // A server that did not declare logging sends nothing.
    let mut quiet = Raw::new(
        Server::new(ServerConfig::default(), vec![]),
        Gen::Initialize("2025-11-25"),
    );
    assert_eq!(
        Raw::code(&quiet.request("logging/setLevel", json!({"level": "debug"}))),
        Some(code::METHOD_NOT_FOUND)
    );
    assert!(log_all(&mut quiet, None).is_empty());
}

#[test]
fn log_messages_follow_the_request_level_under_2026_07_28() {
    let mut r = Raw::new(full_server(3), Gen::Stateless);
    let plain = r.send("prompts/get", json!({"name": "greet"}));
    assert!(
        log_all(&mut r, Some(&plain)).is_empty(),
        "no level in _meta: no messages"
    );
    assert!(log_all(&mut r, None).is_empty(), "no request: no messages");
    r.log_level = Some("warning");
    let warned = r.send("prompts/get", json!({"name": "greet"}));
    assert_eq!(
        log_all(&mut r, Some(&warned)),
        ["warning", "error", "critical", "alert", "emergency"]
    );
    r.server.respond_prompt(r.now, &warned, None, vec![]);
    r.drain();
    assert!(
        log_all(&mut r, Some(&warned)).is_empty(),
        "the request is over"
    );
    r.log_level = Some("loud");
    let bad = r.request("resources/list", json!({}));
    assert_eq!(Raw::code(&bad), Some(code::INVALID_PARAMS), "{bad}");
}
