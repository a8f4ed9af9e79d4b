//! Test drivers: a client wired to an in-memory server with a virtual clock and
//! fault injection, and a scripted peer for answers no well-behaved server gives.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod asks;
pub mod tasks;

use mcpg_core::Timestamp;
use mcpg_core::client::{
    Answer, CallOutcome, Client, ClientConfig, Event, OpError, OpId, Outgoing,
};
use mcpg_core::diag::{Rule, Severity};
use mcpg_core::jsonrpc::{Body, Message, RequestId};
use mcpg_core::model::{CallToolResult, Tool};
use mcpg_core::server::{Server, ServerConfig, ServerEvent};
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::time::Duration;

/// A tool definition with an object schema.
pub fn tool(name: &str) -> Tool {
    serde_json::from_value(json!({
        "name": name,
        "description": format!("the {name} tool"),
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}
    }))
    .unwrap()
}

/// The rules of the diagnostics among `ev`, in order.
pub fn rules(ev: &[Event]) -> Vec<Rule> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Diagnostic(d) => Some(d.rule),
            _ => None,
        })
        .collect()
}

/// The rules and severities of the diagnostics among `ev`, in order.
pub fn findings(ev: &[Event]) -> Vec<(Rule, Severity)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Diagnostic(d) => Some((d.rule, d.severity)),
            _ => None,
        })
        .collect()
}

/// The outcomes of call `op`'s rounds, in order.
pub fn outcomes(ev: &[Event], op: OpId) -> Vec<CallOutcome> {
    ev.iter()
        .filter_map(|e| match e {
            Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
            _ => None,
        })
        .collect()
}

/// A result as a server of `version` writes it (2026-07-28 adds `resultType`).
pub fn result(version: &str, mut body: Value) -> Value {
    if version == "2026-07-28" {
        body["resultType"] = json!("complete");
    }
    body
}

/// How operation `op` was answered ([`Event::Answered`]).
pub fn answered(ev: &[Event], op: OpId) -> &Result<Answer, OpError> {
    ev.iter()
        .find_map(|e| match e {
            Event::Answered { op: o, outcome, .. } if *o == op => Some(outcome),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no answer for {op:?} in {ev:#?}"))
}

/// What the in-memory server does with calls it receives.
pub enum Behaviour {
    /// Answer at once: `fail` → isError, `boom` → JSON-RPC error, others echo their name.
    Immediate,
    /// Leave calls open (for progress, cancel and timeout tests).
    Hold,
}

/// A client and a server joined by two queues, under a virtual clock.
pub struct Pair {
    pub now: Timestamp,
    pub client: Client,
    pub server: Server,
    pub behaviour: Behaviour,
    pub events: Vec<Event>,
    pub server_events: Vec<ServerEvent>,
    /// Frames from client to server not yet delivered (fault injection works on these).
    pub to_server: VecDeque<String>,
    pub to_client: VecDeque<String>,
    /// Drop every frame from the server while true.
    pub mute_server: bool,
}

impl Pair {
    pub fn new(ccfg: ClientConfig, scfg: ServerConfig, tools: Vec<Tool>) -> Pair {
        Pair {
            now: Timestamp::ZERO,
            client: Client::new(ccfg),
            server: Server::new(scfg, tools),
            behaviour: Behaviour::Immediate,
            events: vec![],
            server_events: vec![],
            to_server: VecDeque::new(),
            to_client: VecDeque::new(),
            mute_server: false,
        }
    }

    /// Moves every frame across until both sides are quiet.
    pub fn pump(&mut self) {
        for _ in 0..10_000 {
            let mut moved = false;
            while let Some(out) = self.client.poll_transmit() {
                self.to_server.push_back(out.message.raw().to_owned());
                moved = true;
            }
            while let Some(text) = self.to_server.pop_front() {
                self.server.handle_text(self.now, &text);
                moved = true;
            }
            while let Some(ev) = self.server.poll_event() {
                if let ServerEvent::CallTool { id, name, .. } = &ev
                    && matches!(self.behaviour, Behaviour::Immediate)
                {
                    answer(&mut self.server, self.now, id, name);
                }
                self.server_events.push(ev);
                moved = true;
            }
            while let Some(msg) = self.server.poll_transmit() {
                if !self.mute_server {
                    self.to_client.push_back(msg.raw().to_owned());
                }
                moved = true;
            }
            while let Some(text) = self.to_client.pop_front() {
                self.client.handle_text(self.now, &text);
                moved = true;
            }
            while let Some(ev) = self.client.poll_event() {
                self.events.push(ev);
                moved = true;
            }
            if !moved {
                return;
            }
        }
        panic!("pump did not settle");
    }

    /// Advances the virtual clock and lets timers fire.
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now.after(d);
        self.client.handle_timeout(self.now);
        self.pump();
    }

    /// Connects and asserts success.
    pub fn connect(&mut self) {
        self.client.connect(self.now);
        self.pump();
        assert!(self.client.is_ready(), "not connected: {:#?}", self.events);
    }

    /// Takes the events gathered so far, dropping wire entries.
    pub fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
            .into_iter()
            .filter(|e| !matches!(e, Event::Wire(_)))
            .collect()
    }
}

/// The in-memory server's tool logic for `Behaviour::Immediate`.
pub fn answer(server: &mut Server, now: Timestamp, id: &RequestId, name: &str) {
    match name {
        "fail" => server.respond(now, id, &CallToolResult::tool_error("city not found")),
        "boom" => server.respond_error(now, id, mcpg_core::jsonrpc::RpcError::new(-32603, "boom")),
        other => server.respond(now, id, &CallToolResult::text(format!("ran {other}"))),
    }
}

/// A peer whose every answer the test writes by hand.
pub struct Scripted {
    pub now: Timestamp,
    pub client: Client,
    pub sent: Vec<Message>,
    /// What was sent with its HTTP headers, in order (parallel to `sent`).
    pub outgoing: Vec<Outgoing>,
    pub events: Vec<Event>,
}

impl Scripted {
    pub fn new(cfg: ClientConfig) -> Scripted {
        Scripted {
            now: Timestamp::ZERO,
            client: Client::new(cfg),
            sent: vec![],
            outgoing: vec![],
            events: vec![],
        }
    }

    /// Collects what the client sent and the events it raised.
    pub fn drain(&mut self) {
        while let Some(o) = self.client.poll_transmit() {
            self.sent.push(o.message.clone());
            self.outgoing.push(o);
        }
        while let Some(e) = self.client.poll_event() {
            if !matches!(e, Event::Wire(_)) {
                self.events.push(e);
            }
        }
    }

    /// The last request the client sent with `method`.
    pub fn last_request(&self, method: &str) -> (RequestId, Option<Value>) {
        self.sent
            .iter()
            .rev()
            .find_map(|m| match m.body() {
                Body::Request {
                    id,
                    method: mm,
                    params,
                } if mm == method => Some((id.clone(), params.clone())),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {method} request in {:#?}", self.sent))
    }

    /// The params of the last message (request or notification) sent with `method`.
    pub fn last_request_like(&self, method: &str) -> Value {
        self.sent
            .iter()
            .rev()
            .find(|m| m.method() == Some(method))
            .and_then(|m| m.params().cloned())
            .unwrap_or_else(|| panic!("no {method} in {:#?}", self.sent))
    }

    /// Feeds a frame to the client.
    pub fn feed(&mut self, text: &str) {
        self.client.handle_text(self.now, text);
        self.drain();
    }

    /// Feeds a notification from the server.
    pub fn notify(&mut self, method: &str, params: Value) {
        let text = json!({"jsonrpc": "2.0", "method": method, "params": params}).to_string();
        self.feed(&text);
    }

    /// Answers the last `method` request with `result`.
    pub fn reply(&mut self, method: &str, result: Value) {
        let (id, _) = self.last_request(method);
        let text = Message::response(id, result).raw().to_owned();
        self.feed(&text);
    }

    /// Answers the last `method` request with an error.
    pub fn reply_error(&mut self, method: &str, code: i64, message: &str, data: Option<Value>) {
        let (id, _) = self.last_request(method);
        let err = json!({"jsonrpc":"2.0","id":id.to_value(),"error":{"code":code,"message":message,"data":data}});
        self.feed(&err.to_string());
    }

    /// Connects through the `initialize` generation with the given server answer.
    pub fn initialize_ok(&mut self, version: &str) {
        self.client.connect(self.now);
        self.drain();
        self.reply_error("server/discover", -32601, "Method not found", None);
        self.reply(
            "initialize",
            json!({"protocolVersion": version, "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "scripted", "version": "1"}}),
        );
        assert!(self.client.is_ready(), "{:#?}", self.events);
    }

    /// Connects with the server declaring `capabilities`: through `initialize` with
    /// `version`, or through `server/discover` when `version` is 2026-07-28.
    pub fn connect_with(&mut self, version: &str, capabilities: Value) {
        self.client.connect(self.now);
        self.drain();
        if version == "2026-07-28" {
            self.reply(
                "server/discover",
                json!({"resultType": "complete", "supportedVersions": [version], "capabilities": capabilities}),
            );
        } else {
            self.reply_error("server/discover", -32601, "Method not found", None);
            self.reply(
                "initialize",
                json!({"protocolVersion": version, "capabilities": capabilities, "serverInfo": {"name": "scripted", "version": "1"}}),
            );
        }
        assert!(self.client.is_ready(), "{:#?}", self.events);
        self.take();
    }

    /// Answers the request with `id`.
    pub fn reply_to(&mut self, id: &RequestId, result: Value) {
        let text = Message::response(id.clone(), result).raw().to_owned();
        self.feed(&text);
    }

    /// Connects through the stateless generation (2026-07-28), the server declaring
    /// `capabilities`.
    pub fn discover_ok(&mut self) {
        self.client.connect(self.now);
        self.drain();
        self.reply(
            "server/discover",
            json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}),
        );
        assert!(self.client.is_ready(), "{:#?}", self.events);
    }

    /// The last frame sent with `method`, with its headers.
    pub fn last_outgoing(&self, method: &str) -> &Outgoing {
        self.outgoing
            .iter()
            .rev()
            .find(|o| o.message.method() == Some(method))
            .unwrap_or_else(|| panic!("no {method} sent in {:#?}", self.sent))
    }

    /// Takes events gathered so far.
    pub fn take(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// Advances the clock and fires timers.
    pub fn advance(&mut self, d: Duration) {
        self.now = self.now.after(d);
        self.client.handle_timeout(self.now);
        self.drain();
    }
}
