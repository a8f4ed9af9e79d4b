//! The server role beyond tools: resources, templates, prompts, completions,
//! subscriptions and logging, in both generations, driven by raw frames under a
//! virtual clock. Runs natively and, through wasm-bindgen-test, in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod raw;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use mcpg_core::jsonrpc::code;
use mcpg_core::model::LoggingLevel;
use mcpg_core::server::{
    CompletionTarget, MAX_COMPLETIONS, Server, ServerConfig, ServerEvent, blob_contents,
};
use raw::{GENS, Gen, Raw, full_server};
use serde_json::{Value, json};

fn caps_of(r: &mut Raw) -> Value {
    let a = match r.generation {
        Gen::Initialize(v) => r.request(
            "initialize",
            json!({"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}),
        ),
        Gen::Stateless => r.request("server/discover", json!({})),
    };
    a["result"]["capabilities"].clone()
}

#[test]
fn capabilities_are_exactly_the_configured_features() {
    for generation in GENS {
        let mut plain = Raw::new(Server::new(ServerConfig::default(), vec![]), generation);
        assert_eq!(caps_of(&mut plain), json!({"tools": {"listChanged": true}}));
        for m in ["resources/list", "resources/templates/list", "prompts/list"] {
            assert_eq!(
                Raw::code(&plain.request(m, json!({}))),
                Some(code::METHOD_NOT_FOUND),
                "{m}"
            );
        }
        let read = plain.request("resources/read", json!({"uri": "note://n/1"}));
        assert_eq!(Raw::code(&read), Some(code::METHOD_NOT_FOUND));
        let c = plain.request("completion/complete", json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a", "value": ""}}));
        assert_eq!(Raw::code(&c), Some(code::METHOD_NOT_FOUND));

        let mut full = Raw::new(full_server(3), generation);
        let mut want = json!({
            "completions": {}, "logging": {}, "prompts": {"listChanged": true},
            "resources": {"subscribe": true, "listChanged": true},
            "tools": {"listChanged": true}
        });
        if generation == Gen::Initialize("2024-11-05") {
            // `completions` came with 2025-03-26; before, completion/complete had no capability.
            want.as_object_mut().unwrap().remove("completions");
        }
        assert_eq!(caps_of(&mut full), want);
    }
}

#[test]
fn lists_page_with_opaque_cursors_in_both_generations() {
    for generation in GENS {
        let mut r = Raw::new(full_server(3), generation);
        let pages = r.pages("resources/list", "resources", "uri");
        assert_eq!(
            pages.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![3, 3, 1]
        );
        assert_eq!(pages[2], vec!["note://n/7"]);
        let t = r.pages(
            "resources/templates/list",
            "resourceTemplates",
            "uriTemplate",
        );
        assert_eq!(
            t,
            vec![vec![
                "weather://{city}/today",
                "file:///{+path}",
                "note://n/{topic}/v{version}"
            ]]
        );
        let mut small = Raw::new(full_server(2), generation);
        let p = small.pages("prompts/list", "prompts", "name");
        assert_eq!(p, vec![vec!["plan_trip", "greet"], vec!["explain"]]);
        let t = small.pages("resources/templates/list", "resourceTemplates", "name");
        assert_eq!(t, vec![vec!["today", "files"], vec!["versions"]]);

        let first = r.request("resources/list", json!({}));
        if generation == Gen::Stateless {
            let res = &first["result"];
            assert_eq!(res["resultType"], "complete");
            assert_eq!(res["ttlMs"], 0);
            assert_eq!(res["cacheScope"], "public");
            assert!(res["_meta"]["io.modelcontextprotocol/serverInfo"].is_object());
        } else {
            assert!(first["result"].get("resultType").is_none(), "{first}");
        }
        let titled =
            json!({"uri": "a://titled", "name": "a", "title": "A", "icons": [{"src": "data:,"}]});
        small.server.set_resources(small.now, vec![titled], vec![]);
        small.drain();
        let seen = &small.request("resources/list", json!({}))["result"]["resources"][0];
        let keys: Vec<&str> = seen
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        let want: &[&str] = match generation {
            Gen::Initialize("2024-11-05") => &["uri", "name"],
            _ => &["uri", "name", "title", "icons"],
        };
        assert_eq!(
            keys, want,
            "members the revision does not define are left out"
        );
    }
}

#[test]
fn a_bad_cursor_is_invalid_params() {
    for generation in GENS {
        let mut r = Raw::new(full_server(3), generation);
        for (m, cursor) in [
            ("resources/list", json!("nonsense")),
            ("resources/list", json!("page-7")),
            ("resources/templates/list", json!(3)),
            ("prompts/list", json!("page-99")),
        ] {
            let a = r.request(m, json!({"cursor": cursor}));
            assert_eq!(
                Raw::code(&a),
                Some(code::INVALID_PARAMS),
                "{m} {cursor}: {a}"
            );
        }
    }
}

#[test]
fn reads_are_checked_then_handed_to_the_application() {
    for generation in GENS {
        let mut r = Raw::new(full_server(3), generation);
        let missing = r.request("resources/read", json!({"uri": "note://n/8"}));
        assert_eq!(
            Raw::code(&missing),
            Some(code::RESOURCE_NOT_FOUND),
            "{missing}"
        );
        assert_eq!(missing["error"]["data"]["uri"], "note://n/8");
        let odd = r.request("resources/read", json!({"uri": "weather://a/b/today"}));
        assert_eq!(Raw::code(&odd), Some(code::RESOURCE_NOT_FOUND));
        let no_uri = r.request("resources/read", json!({}));
        assert_eq!(Raw::code(&no_uri), Some(code::INVALID_PARAMS));
        assert!(r.take().is_empty(), "nothing reaches the application");

        let listed = r.send("resources/read", json!({"uri": "note://n/2"}));
        let templated = r.send(
            "resources/read",
            json!({"uri": "weather://New%20York/today"}),
        );
        let ev = r.take();
        assert_eq!(
            ev,
            vec![
                ServerEvent::ReadResource {
                    id: listed.clone(),
                    uri: "note://n/2".into(),
                    template: None,
                    variables: Default::default(),
                },
                ServerEvent::ReadResource {
                    id: templated.clone(),
                    uri: "weather://New%20York/today".into(),
                    template: Some("weather://{city}/today".into()),
                    variables: json!({"city": "New York"}).as_object().cloned().unwrap(),
                },
            ]
        );
        assert!(r.answer(&listed).is_none() && r.server.is_open(&listed));
        r.server.respond_read(
            r.now,
            &listed,
            vec![blob_contents("note://n/2", "image/png", "iVBORw0KGgo=")],
        );
        r.server.respond_error(
            r.now,
            &templated,
            mcpg_core::server::resource_not_found("weather://New%20York/today"),
        );
        r.drain();
        let a = r.answer(&listed).unwrap();
        assert_eq!(a["result"]["contents"][0]["blob"], "iVBORw0KGgo=");
        assert_eq!(
            a["result"].get("ttlMs").is_some(),
            generation == Gen::Stateless,
            "{a}"
        );
        assert_eq!(
            Raw::code(r.answer(&templated).unwrap()),
            Some(code::RESOURCE_NOT_FOUND)
        );
        let versioned = r.send("resources/read", json!({"uri": "note://n/intro/v2"}));
        assert!(
            matches!(&r.take()[..], [ServerEvent::ReadResource { id, variables, .. }]
            if *id == versioned && variables["topic"] == "intro" && variables["version"] == "2")
        );
    }
}

#[test]
fn prompts_are_checked_for_their_arguments() {
    for generation in GENS {
        let mut r = Raw::new(full_server(3), generation);
        for (params, why) in [
            (json!({"name": "nope"}), "unknown prompt"),
            (json!({"name": "plan_trip"}), "missing required argument"),
            (
                json!({"name": "plan_trip", "arguments": {"days": "2"}}),
                "missing required argument",
            ),
            (
                json!({"name": "plan_trip", "arguments": {"city": 3}}),
                "not a string",
            ),
            (
                json!({"name": "plan_trip", "arguments": "Paris"}),
                "arguments not an object",
            ),
        ] {
            let a = r.request("prompts/get", params);
            assert_eq!(Raw::code(&a), Some(code::INVALID_PARAMS), "{why}: {a}");
        }
        assert!(r.take().is_empty());
        let id = r.send(
            "prompts/get",
            json!({"name": "plan_trip", "arguments": {"city": "Paris"}}),
        );
        let greet = r.send("prompts/get", json!({"name": "greet"}));
        let ev = r.take();
        assert!(
            matches!(&ev[0], ServerEvent::GetPrompt { name, arguments, .. }
            if name == "plan_trip" && arguments["city"] == "Paris")
        );
        assert!(
            matches!(&ev[1], ServerEvent::GetPrompt { name, arguments, .. } if name == "greet" && arguments.is_empty())
        );
        let msg =
            json!({"role": "user", "content": {"type": "text", "text": "Plan a trip to Paris."}});
        r.server
            .respond_prompt(r.now, &id, Some("A trip"), vec![msg.clone()]);
        r.server.respond_prompt(r.now, &greet, None, vec![]);
        r.drain();
        let a = r.answer(&id).unwrap();
        assert_eq!(a["result"]["messages"], json!([msg]));
        assert_eq!(a["result"]["description"], "A trip");
        assert_eq!(
            a["result"].get("ttlMs"),
            None,
            "prompts/get is not cacheable"
        );
        assert!(
            r.answer(&greet).unwrap()["result"]
                .get("description")
                .is_none()
        );
    }
}

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
