//! The demo session driver: the core's client joined to a `DemoServer` in memory,
//! under a virtual clock.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{
    CallOptions, CallOutcome, Client, ClientConfig, Event, GenerationMode, OpError,
};
use mcpg_core::model::{ContentBlock, JsonObject};
use mcpg_demo::DemoServer;
use serde_json::Value;
use serde_json::json;

pub struct Session {
    pub now: Timestamp,
    pub client: Client,
    pub server: DemoServer,
    pub events: Vec<Event>,
    pub wire: Vec<String>,
}

impl Session {
    pub fn new(mode: GenerationMode) -> Session {
        Session::with_config(ClientConfig {
            mode,
            listen_for_list_changes: true,
            ..Default::default()
        })
    }

    /// A session whose client has this configuration (e.g. one pinned revision).
    pub fn with_config(cfg: ClientConfig) -> Session {
        Session::with_server(cfg, DemoServer::new())
    }

    /// The same, against `server` (e.g. one built without its asking tools' code).
    pub fn with_server(cfg: ClientConfig, server: DemoServer) -> Session {
        let mut s = Session {
            now: Timestamp::ZERO,
            client: Client::new(cfg),
            server,
            events: vec![],
            wire: vec![],
        };
        s.client.connect(s.now);
        s.pump();
        assert!(s.client.is_ready(), "{:#?}", s.events);
        s
    }

    pub fn pump(&mut self) {
        loop {
            let mut moved = false;
            while let Some(o) = self.client.poll_transmit() {
                self.wire.push(format!("> {}", o.message.raw()));
                self.server.handle_text(self.now, o.message.raw());
                moved = true;
            }
            while let Some(m) = self.server.poll_transmit() {
                self.wire.push(format!("< {}", m.raw()));
                self.client.handle_text(self.now, m.raw());
                moved = true;
            }
            while let Some(e) = self.client.poll_event() {
                if !matches!(e, Event::Wire(_)) {
                    self.events.push(e);
                }
                moved = true;
            }
            while self.server.poll_event().is_some() {}
            if !moved {
                return;
            }
        }
    }

    pub fn advance(&mut self, d: Duration) {
        self.now = self.now.after(d);
        self.server.handle_timeout(self.now);
        self.client.handle_timeout(self.now);
        self.pump();
    }

    pub fn call(&mut self, name: &str, args: Value) -> CallOutcome {
        let args: Option<JsonObject> = args.as_object().cloned();
        let op = self
            .client
            .call_tool(self.now, name, args, CallOptions::default());
        self.pump();
        self.events
            .iter()
            .find_map(|e| match e {
                Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
                _ => None,
            })
            .expect("call finished")
    }

    pub fn diagnostics(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| {
                if let Event::Diagnostic(d) = e {
                    Some(d.to_string())
                } else {
                    None
                }
            })
            .collect()
    }
}

pub fn text_of(o: &CallOutcome) -> String {
    let (CallOutcome::Success(r) | CallOutcome::ToolError(r)) = o else {
        panic!("not a result: {o:?}")
    };
    r.content
        .iter()
        .filter_map(|c| {
            if let ContentBlock::Text(t) = c {
                Some(t.text.clone())
            } else {
                None
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

pub const MODES: [GenerationMode; 2] = [GenerationMode::Auto, GenerationMode::Initialize];

impl Session {
    /// Sends any request and returns how it ended (a listen stream never ends: `None`).
    pub fn request(&mut self, method: &str, params: Value) -> Option<Result<Value, OpError>> {
        let op = self.client.request(self.now, method, Some(params));
        self.pump();
        self.events.iter().find_map(|e| match e {
            Event::Response { op: o, outcome } if *o == op => Some(outcome.clone()),
            _ => None,
        })
    }

    /// The result of a request that must succeed.
    pub fn ok(&mut self, method: &str, params: Value) -> Value {
        match self.request(method, params) {
            Some(Ok(v)) => v,
            other => panic!("{method}: {other:?}"),
        }
    }

    /// The params of every notification `method` the server sent so far (read from
    /// the wire: the client turns many into typed events of their own).
    pub fn notifications(&self, method: &str) -> Vec<Value> {
        self.wire
            .iter()
            .filter_map(|w| w.strip_prefix("< "))
            .filter_map(|t| serde_json::from_str::<Value>(t).ok())
            .filter(|m| m.get("method").and_then(Value::as_str) == Some(method))
            .map(|m| m.get("params").cloned().unwrap_or(Value::Null))
            .collect()
    }
}

pub const CALLS: &str = "demo://playground/calls.json";

/// Every item of a paged list, and how many pages it took.
pub fn all(s: &mut Session, method: &str, key: &str) -> (Vec<Value>, usize) {
    let (mut items, mut pages, mut cursor) = (vec![], 0, None::<String>);
    loop {
        let params = cursor.map_or_else(|| json!({}), |c| json!({"cursor": c}));
        let r = s.ok(method, params);
        pages += 1;
        items.extend(r[key].as_array().unwrap().iter().cloned());
        match r.get("nextCursor").and_then(Value::as_str) {
            Some(c) => cursor = Some(c.to_owned()),
            None => return (items, pages),
        }
    }
}

pub fn read(s: &mut Session, uri: &str) -> Value {
    s.ok("resources/read", json!({"uri": uri}))["contents"][0].clone()
}

pub fn rpc_code(r: Option<Result<Value, OpError>>) -> i64 {
    match r {
        Some(Err(OpError::Rpc(e))) => e.code,
        other => panic!("not a JSON-RPC error: {other:?}"),
    }
}

pub fn complete(s: &mut Session, reference: Value, name: &str, value: &str, ctx: Value) -> Value {
    let params = json!({"ref": reference, "argument": {"name": name, "value": value}, "context": {"arguments": ctx}});
    s.ok("completion/complete", params)["completion"]["values"].clone()
}
