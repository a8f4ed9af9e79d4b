//! The server role beyond tools: capabilities, resources, templates and prompts, in
//! both generations, driven by raw frames under a virtual clock (completions,
//! subscriptions and logs are in `server_notices.rs`). Runs natively and, through
//! wasm-bindgen-test, in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::raw;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::jsonrpc::code;
use mcpg_core::server::{Server, ServerConfig, ServerEvent, blob_contents};
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
        // SEP-2164: 2026-07-28 says "not found" with -32602; earlier revisions -32002.
        let not_found = if generation == Gen::Stateless {
            code::INVALID_PARAMS
        } else {
            code::RESOURCE_NOT_FOUND
        };
        let missing = r.request("resources/read", json!({"uri": "note://n/8"}));
        assert_eq!(Raw::code(&missing), Some(not_found), "{missing}");
        assert_eq!(missing["error"]["data"]["uri"], "note://n/8");
        let odd = r.request("resources/read", json!({"uri": "weather://a/b/today"}));
        assert_eq!(Raw::code(&odd), Some(not_found));
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
        // The application's -32002 too, in the revision's words.
        assert_eq!(Raw::code(r.answer(&templated).unwrap()), Some(not_found));
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
