//! The page's first load builds the demo without its `Handlers`, and with them
//! without its resources, prompts and logs. Byte for byte, the handshake and every
//! tool list page are what `DemoServer::new` sends; the rest says it is not loaded
//! yet; once the handlers are handed in, resources, prompts, subscriptions and logs
//! answer exactly as `DemoServer::new` does. Both generations, natively and in
//! headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::meta;
use mcpg_demo::{DemoServer, handlers};
use serde_json::{Value, json};

const CALLS: &str = "demo://playground/calls.json";

/// A raw client on one demo server: numbered requests, stamped under 2026-07-28.
struct Raw {
    demo: DemoServer,
    stateless: bool,
    next: i64,
    at: u64,
}

impl Raw {
    fn new(demo: DemoServer, stateless: bool) -> Raw {
        Raw {
            demo,
            stateless,
            next: 0,
            at: 0,
        }
    }

    /// Every frame the server sends for one frame of the client's, as text.
    fn feed(&mut self, frame: &Value) -> Vec<String> {
        self.at += 10;
        self.demo.exchange(self.at, Some(&frame.to_string()))
    }

    fn request(&mut self, method: &str, mut params: Value) -> Vec<String> {
        self.next += 1;
        if self.stateless {
            params["_meta"] = json!({
                meta::PROTOCOL_VERSION: "2026-07-28",
                meta::CLIENT_CAPABILITIES: {},
                meta::CLIENT_INFO: {"name": "raw", "version": "1"},
                meta::LOG_LEVEL: "debug",
            });
        }
        self.feed(&json!({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params}))
    }

    /// The handshake, every page of `tools/list`, and under 2026-07-28 the listen
    /// stream a client opens at connect.
    fn first_screen(&mut self) -> Vec<String> {
        let mut out = if self.stateless {
            self.request("server/discover", json!({}))
        } else {
            let mut o = self.request(
                "initialize",
                json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}),
            );
            o.extend(self.feed(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"})));
            o
        };
        out.extend(self.pages("tools/list"));
        if self.stateless {
            let params = json!({"notifications": {"toolsListChanged": true}});
            out.extend(self.request("subscriptions/listen", params));
        }
        out
    }

    /// Every page of a list.
    fn pages(&mut self, method: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut params = json!({});
        loop {
            let frames = self.request(method, params);
            let last: Value = serde_json::from_str(frames.last().unwrap()).unwrap();
            out.extend(frames);
            match last["result"]["nextCursor"].as_str() {
                Some(c) => params = json!({"cursor": c}),
                None => return out,
            }
        }
    }

    /// Resources, templates and prompts listed, a subscription (or the stream that
    /// carries one), a log level, a read and a tool call that logs and updates
    /// the subscribed resource.
    fn the_rest(&mut self) -> Vec<String> {
        let mut out = self.pages("resources/list");
        out.extend(self.pages("resources/templates/list"));
        out.extend(self.pages("prompts/list"));
        if self.stateless {
            let params = json!({"notifications": {"resourceSubscriptions": [CALLS]}});
            out.extend(self.request("subscriptions/listen", params));
        } else {
            out.extend(self.request("resources/subscribe", json!({"uri": CALLS})));
            out.extend(self.request("logging/setLevel", json!({"level": "debug"})));
        }
        out.extend(self.request("resources/read", json!({"uri": CALLS})));
        out.extend(self.request("prompts/get", json!({"name": "greet"})));
        let call = json!({"name": "get_weather", "arguments": {"city": "Austin"}});
        out.extend(self.request("tools/call", call));
        out
    }
}

fn has(frames: &[String], needle: &str) -> bool {
    frames.iter().any(|f| f.contains(needle))
}

#[test]
fn the_first_screen_is_byte_for_byte_the_same_and_the_rest_works_once_handed_in() {
    for stateless in [false, true] {
        let mut with = Raw::new(DemoServer::new(), stateless);
        let mut without = Raw::new(DemoServer::without_handlers(), stateless);
        let first = with.first_screen();
        assert!(has(&first, "\"capabilities\""), "{first:?}");
        assert!(has(&first, "get_weather"), "{first:?}");
        assert_eq!(without.first_screen(), first, "stateless: {stateless}");

        for (method, params) in [
            ("resources/list", json!({})),
            ("prompts/list", json!({})),
            ("resources/read", json!({"uri": CALLS})),
            (
                "tools/call",
                json!({"name": "get_weather", "arguments": {"city": "Austin"}}),
            ),
        ] {
            let said = without.request(method, params);
            assert!(has(&said, "not loaded yet"), "{method}: {said:?}");
        }
        // Keep the two servers' request ids in step.
        with.next = without.next;
        with.at = without.at;

        without.demo.set_handlers(handlers());
        let rest = with.the_rest();
        for needle in [
            "note://playground/",
            "weather://{city}/today",
            "plan_trip",
            "notifications/resources/updated",
            "notifications/message",
        ] {
            assert!(has(&rest, needle), "{needle} in {rest:#?}");
        }
        assert_eq!(without.the_rest(), rest, "stateless: {stateless}");
    }
}
