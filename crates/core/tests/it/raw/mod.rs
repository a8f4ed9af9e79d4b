//! A raw client for server tests: hand-written JSON-RPC frames in, the server's
//! frames and events out, under a virtual clock. It tests the server role apart
//! from the core's client.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::model::meta;
use mcpg_core::server::{
    PromptFeatures, ResourceFeatures, Server, ServerConfig, ServerEvent, text_contents,
};
use serde_json::{Value, json};

/// Which generation the raw client speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gen {
    /// `initialize` with this revision.
    Initialize(&'static str),
    /// Stateless 2026-07-28: every request stamped with `_meta`.
    Stateless,
}

/// Both generations, as the tests loop over them.
pub const GENS: [Gen; 3] = [
    Gen::Initialize("2024-11-05"),
    Gen::Initialize("2025-11-25"),
    Gen::Stateless,
];

/// A server with every feature on, small pages, 7 resources, 3 templates, 3 prompts.
pub fn full_server(page_size: usize) -> Server {
    let cfg = ServerConfig {
        resources: Some(ResourceFeatures {
            subscribe: true,
            list_changed: true,
        }),
        prompts: Some(PromptFeatures { list_changed: true }),
        completions: true,
        logging: true,
        page_size,
        ..Default::default()
    };
    let resources = (1..=7)
        .map(|i| json!({"uri": format!("note://n/{i}"), "name": format!("note {i}"), "mimeType": "text/plain"}))
        .collect();
    let templates = vec![
        json!({"uriTemplate": "weather://{city}/today", "name": "today"}),
        json!({"uriTemplate": "file:///{+path}", "name": "files"}),
        json!({"uriTemplate": "note://n/{topic}/v{version}", "name": "versions"}),
    ];
    let prompts = vec![
        json!({"name": "plan_trip", "arguments": [{"name": "city", "required": true}, {"name": "days"}]}),
        json!({"name": "greet"}),
        json!({"name": "explain", "arguments": [{"name": "topic", "required": true}]}),
    ];
    Server::new(cfg, vec![])
        .with_resources(resources, templates)
        .with_prompts(prompts)
}

/// The raw client and its server.
pub struct Raw {
    pub now: Timestamp,
    pub server: Server,
    pub generation: Gen,
    next_id: i64,
    /// Every frame the server sent, parsed.
    pub frames: Vec<Value>,
    /// Every event but wire entries.
    pub events: Vec<ServerEvent>,
    /// The log level stamped on stateless requests, if any.
    pub log_level: Option<&'static str>,
    /// The client capabilities stamped on stateless requests (`{}` unless set).
    pub caps: Value,
    /// The method of every request sent, by id.
    pub asked: std::collections::HashMap<i64, String>,
}

impl Raw {
    /// Connects (initialize + initialized, or nothing for stateless).
    pub fn new(server: Server, generation: Gen) -> Raw {
        let mut r = Raw {
            now: Timestamp::ZERO,
            server,
            generation,
            next_id: 0,
            frames: vec![],
            events: vec![],
            log_level: None,
            caps: json!({}),
            asked: Default::default(),
        };
        if let Gen::Initialize(v) = generation {
            let init = r.request(
                "initialize",
                json!({"protocolVersion": v, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}),
            );
            assert_eq!(init["result"]["protocolVersion"], v, "{init}");
            r.notify("notifications/initialized", json!({}));
        }
        r.events.clear();
        r
    }

    /// The `_meta` a stateless request carries.
    fn stamp(&self, mut params: Value) -> Value {
        if self.generation == Gen::Stateless {
            let mut m = json!({
                meta::PROTOCOL_VERSION: "2026-07-28",
                meta::CLIENT_CAPABILITIES: self.caps.clone(),
                meta::CLIENT_INFO: {"name": "raw", "version": "1"},
            });
            if let Some(l) = self.log_level {
                m[meta::LOG_LEVEL] = json!(l);
            }
            params["_meta"] = m;
        }
        params
    }

    /// Sends a request and returns its id.
    pub fn send(&mut self, method: &str, params: Value) -> RequestId {
        self.next_id += 1;
        let id = self.next_id;
        self.asked.insert(id, method.to_owned());
        let params = self.stamp(params);
        let text = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.feed(&text.to_string());
        RequestId::Number(id)
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        let text = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.feed(&text.to_string());
    }

    /// Feeds a frame and collects what comes out.
    pub fn feed(&mut self, text: &str) {
        self.server.handle_text(self.now, text);
        self.drain();
    }

    /// Collects frames and events.
    pub fn drain(&mut self) {
        while let Some(m) = self.server.poll_transmit() {
            self.frames.push(serde_json::from_str(m.raw()).unwrap());
        }
        while let Some(e) = self.server.poll_event() {
            if !matches!(e, ServerEvent::Wire(_)) {
                self.events.push(e);
            }
        }
    }

    /// The answer (result or error frame) to request `id`, if sent.
    pub fn answer(&self, id: &RequestId) -> Option<&Value> {
        self.frames
            .iter()
            .find(|f| f.get("id") == Some(&id.to_value()) && f.get("method").is_none())
    }

    /// Sends a request the server answers itself and returns the answer frame.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send(method, params);
        self.answer(&id)
            .cloned()
            .unwrap_or_else(|| panic!("no answer to {method}: {:#?}", self.frames))
    }

    /// The error code of an answer, or `None` for a result.
    pub fn code(answer: &Value) -> Option<i64> {
        answer.get("error").map(|e| e["code"].as_i64().unwrap())
    }

    /// Notifications sent with `method`, in order.
    pub fn notifications(&self, method: &str) -> Vec<&Value> {
        self.frames
            .iter()
            .filter(|f| f.get("method").and_then(Value::as_str) == Some(method))
            .collect()
    }

    /// Takes the events gathered so far.
    pub fn take(&mut self) -> Vec<ServerEvent> {
        std::mem::take(&mut self.events)
    }

    /// Follows `method`'s pages and returns the names (or uris) of each page and the cursors.
    pub fn pages(&mut self, method: &str, key: &str, name: &str) -> Vec<Vec<String>> {
        let mut out = vec![];
        let mut cursor: Option<String> = None;
        loop {
            let params = cursor.map_or_else(|| json!({}), |c| json!({"cursor": c}));
            let a = self.request(method, params);
            let r = &a["result"];
            out.push(
                r[key]
                    .as_array()
                    .unwrap_or_else(|| panic!("{a}"))
                    .iter()
                    .map(|i| i[name].as_str().unwrap().to_owned())
                    .collect(),
            );
            match r.get("nextCursor").and_then(Value::as_str) {
                Some(c) => cursor = Some(c.to_owned()),
                None => return out,
            }
        }
    }

    /// Answers every pending read with one text content naming its URI.
    pub fn answer_reads(&mut self) {
        for e in self.take() {
            if let ServerEvent::ReadResource { id, uri, .. } = e {
                let body = format!("contents of {uri}");
                self.server.respond_read(
                    self.now,
                    &id,
                    vec![text_contents(&uri, "text/plain", &body)],
                );
            }
        }
        self.drain();
    }
}
