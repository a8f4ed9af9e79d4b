//! A server made without its `RequestHandlers` (the page's first load): the
//! handshake and the tool list answer as with them, with the same capabilities;
//! a tool call, and every request about resources, prompts, completions,
//! subscriptions or the log level, is a JSON-RPC error saying its code is not
//! loaded yet, never a panic; once the handlers and the catalogue are handed in, the same server answers them
//! as `Server::new` does. Both generations, natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::raw;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::jsonrpc::code;
use mcpg_core::model::Tool;
use mcpg_core::server::{RequestHandlers, Server};
use raw::{GENS, Gen, Raw, full_server};
use serde_json::{Value, json};

/// The full test server's configuration and catalogue, on a server without handlers.
fn bare(full: &Server) -> Server {
    let tools =
        vec![Tool::from_json(&json!({"name": "t", "inputSchema": {"type": "object"}})).unwrap()];
    let mut s = Server::without_request_handlers(full.config().clone(), tools);
    s.set_catalogue(
        full.resources().to_vec(),
        full.resource_templates().to_vec(),
        full.prompts().to_vec(),
    );
    s
}

/// The full server with the same tool as [`bare`].
fn full() -> Server {
    let f = full_server(3);
    let tools = bare(&f).tools().to_vec();
    Server::new(f.config().clone(), tools)
        .with_resources(f.resources().to_vec(), f.resource_templates().to_vec())
        .with_prompts(f.prompts().to_vec())
}

/// The greeting (capabilities and all) as the raw client sees it.
fn greeting(r: &mut Raw) -> Value {
    let mut a = match r.generation {
        Gen::Initialize(v) => r.request(
            "initialize",
            json!({"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}),
        ),
        Gen::Stateless => r.request("server/discover", json!({})),
    };
    a["id"] = Value::Null;
    a
}

/// The requests the handlers answer or check, each with params that succeed on
/// the full server, in the generations that have them.
fn content_requests(generation: Gen) -> Vec<(&'static str, Value)> {
    let mut v = vec![
        ("tools/call", json!({"name": "t", "arguments": {}})),
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("prompts/list", json!({})),
        ("resources/read", json!({"uri": "note://n/1"})),
        ("prompts/get", json!({"name": "greet"})),
        (
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "plan_trip"}, "argument": {"name": "city", "value": "A"}}),
        ),
    ];
    if generation == Gen::Stateless {
        v.push((
            "subscriptions/listen",
            json!({"notifications": {"resourceSubscriptions": ["note://n/1"]}}),
        ));
    } else {
        v.push(("resources/subscribe", json!({"uri": "note://n/1"})));
        v.push(("logging/setLevel", json!({"level": "info"})));
    }
    v
}

#[test]
fn without_its_handlers_the_server_greets_and_lists_tools_alike_and_says_the_rest_is_not_loaded() {
    for generation in GENS {
        let mut with = Raw::new(full(), generation);
        let mut without = Raw::new(bare(&full_server(3)), generation);
        assert_eq!(
            greeting(&mut without),
            greeting(&mut with),
            "{generation:?}"
        );
        let tools = |r: &mut Raw| {
            let mut a = r.request("tools/list", json!({}));
            a["id"] = Value::Null;
            a
        };
        assert_eq!(tools(&mut without), tools(&mut with), "{generation:?}");
        assert_eq!(Raw::code(&without.request("ping", json!({}))), None);

        for (method, params) in content_requests(generation) {
            let a = without.request(method, params);
            assert_eq!(Raw::code(&a), Some(code::INTERNAL_ERROR), "{method}: {a}");
            let message = a["error"]["message"].as_str().unwrap();
            assert!(message.contains("not loaded yet"), "{method}: {message}");
        }
        if generation == Gen::Stateless {
            // The stream a client opens at connect, for the tool list's changes.
            let listen = without.send(
                "subscriptions/listen",
                json!({"notifications": {"toolsListChanged": true}}),
            );
            assert!(without.answer(&listen).is_none(), "the stream stays open");
            let acks = without.notifications("notifications/subscriptions/acknowledged");
            let last = acks.last().unwrap();
            assert_eq!(
                last["params"]["notifications"],
                json!({"toolsListChanged": true})
            );
        }
    }
}

#[test]
fn once_handed_in_the_handlers_answer_as_a_server_made_with_them() {
    for generation in GENS {
        let mut with = Raw::new(full(), generation);
        let mut without = Raw::new(bare(&full_server(3)), generation);
        let before = greeting(&mut without);
        // What the page does once its engine is in (`Memory::set_handlers`).
        without.server.set_request_handlers(RequestHandlers::ALL);
        assert!(without.server.has_request_handlers());
        assert_eq!(greeting(&mut without), before, "capabilities do not change");
        // The same requests on both, so the request ids in the events line up.
        assert_eq!(greeting(&mut with), before);
        assert_eq!(greeting(&mut with), before);
        for (method, params) in content_requests(generation) {
            let mut a = without.request_or_event(method, params.clone());
            let mut b = with.request_or_event(method, params);
            a["id"] = Value::Null;
            b["id"] = Value::Null;
            assert_eq!(a, b, "{generation:?} {method}");
            assert_eq!(Raw::code(&a), None, "{method}: {a}");
        }
        assert_eq!(
            without.server.log_level(),
            with.server.log_level(),
            "logging/setLevel took"
        );
    }
}

impl Raw {
    /// A request's answer frame, or for one the application answers (or a listen
    /// stream, which is never answered) the event or acknowledgement it made, as JSON.
    fn request_or_event(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        if let Some(a) = self.answer(&id) {
            return a.clone();
        }
        if method == "subscriptions/listen" {
            let acks = self.notifications("notifications/subscriptions/acknowledged");
            return acks
                .last()
                .map(|a| a["params"]["notifications"].clone())
                .unwrap();
        }
        let events = self.take();
        json!({"event": format!("{:?}", events.last().unwrap())})
    }
}
