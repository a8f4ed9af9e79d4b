//! The test driver of the six-step loop: a `ToolLoop` driven exactly as the page
//! drives it, against the real demo server over an in-memory transport with a
//! virtual clock. The model's turns come from the mock, from the mock's turn sent
//! through a provider's HTTP reply body, or from a script.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::client::{CallOptions, Client, ClientConfig};
use mcpg_demo::DemoServer;
use mcpg_host::provider::{self, ModelTurn, Provider, RequestOptions, endpoint, shown_request};
use mcpg_host::script::Script;
use mcpg_host::tool_loop::{Action, ToolLoop};
use mcpg_host::{MockModel, Step};
use serde_json::Value;

/// How the driver answers for the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Model {
    /// `ToolLoop::mock_turn`, as the page's mock.
    Mock,
    /// The mock's turn as the provider's HTTP body, fed through `model_http_reply`.
    Http,
}

/// A client, the demo server and one loop, on a virtual clock.
pub struct Driver {
    pub now: Timestamp,
    pub client: Client,
    pub server: DemoServer,
    pub run: ToolLoop,
    pub model: Model,
    /// Model turns played before `model` answers, when given.
    pub script: Option<Script>,
    /// Every message the client sent, in order.
    pub sent: Vec<String>,
}

/// The request options every test loop uses.
pub fn opts() -> RequestOptions {
    RequestOptions {
        model: "test-model".into(),
        ..Default::default()
    }
}

impl Driver {
    /// A connected driver for `prompt`, in `provider`'s format.
    pub fn new(prompt: &str, provider: Provider, model: Model) -> Driver {
        let mut d = Driver {
            now: Timestamp::ZERO,
            client: Client::new(ClientConfig::default()),
            server: DemoServer::new(),
            run: ToolLoop::new(prompt, provider, opts()),
            model,
            script: None,
            sent: Vec::new(),
        };
        d.client.connect(d.now);
        d.pump();
        assert!(d.client.is_ready());
        d
    }

    /// Moves every message and event until nothing moves.
    pub fn pump(&mut self) {
        loop {
            let mut moved = false;
            while let Some(o) = self.client.poll_transmit() {
                self.sent.push(o.message.raw().to_owned());
                self.server.handle_text(self.now, o.message.raw());
                moved = true;
            }
            while let Some(m) = self.server.poll_transmit() {
                self.client.handle_text(self.now, m.raw());
                moved = true;
            }
            while let Some(e) = self.client.poll_event() {
                self.run.on_event(&e);
                moved = true;
            }
            while self.server.poll_event().is_some() {}
            if !moved {
                return;
            }
        }
    }

    /// The request line and headers as the page shows them.
    pub fn head(&self) -> Value {
        let p = self.run.provider();
        shown_request(p, &endpoint(p, "http://127.0.0.1:9/x", "test-model"), "")
    }

    /// The body a provider would send for the mock's next turn.
    pub fn http_body(&self) -> String {
        let p = self.run.provider();
        // The model sees what step 2 offered it (app-only tools are withheld).
        let offered = self.run.for_model();
        let turn = MockModel.respond(self.run.turns(), &offered).turn;
        let names = provider::shape_tools(p, &offered, false).names;
        provider::reply_for(p, &opts(), &turn, &names).to_string()
    }

    fn ask_model(&mut self) {
        if let Some(s) = &mut self.script {
            self.run.script_turn(s, &MockModel);
        } else if self.model == Model::Mock {
            self.run.mock_turn(&MockModel);
        } else {
            let (body, head) = (self.http_body(), self.head());
            self.run.model_http_reply(200, &body, &head);
        }
    }

    /// One click of step mode; false when there was nothing to do now (the loop
    /// waits for the server, or is over).
    pub fn step(&mut self) -> bool {
        match self.run.next() {
            Action::ListTools => {
                let op = self.client.list_tools(self.now);
                self.run.listing_started(op);
            }
            Action::ListFirstPage => {
                let op = self.client.request(self.now, "tools/list", None);
                self.run.listing_started(op);
            }
            Action::RefuseCall(_) => self.run.refuse_call(),
            Action::Reshape => self.run.reshape(),
            Action::ModelTurn => self.ask_model(),
            Action::CallTool(call) => {
                let opts = CallOptions {
                    progress: true,
                    ..Default::default()
                };
                let op = self
                    .client
                    .call_tool(self.now, &call.name, Some(call.arguments), opts);
                self.run.call_started(op);
            }
            Action::Wait | Action::Done => return false,
        }
        self.pump();
        true
    }

    /// Steps until the loop waits or is over.
    pub fn run_all(&mut self) {
        while self.step() {}
    }

    /// Steps to the end, letting virtual time pass while the loop waits (slow tools).
    pub fn finish(&mut self) {
        for _ in 0..200 {
            self.run_all();
            match self.run.next() {
                Action::Done => return,
                Action::Wait => self.advance(500),
                _ => {}
            }
        }
        panic!("the loop did not end: {:?}", self.numbers());
    }

    /// Lets `ms` of virtual time pass.
    pub fn advance(&mut self, ms: u64) {
        self.now = self.now.after(Duration::from_millis(ms));
        self.server.handle_timeout(self.now);
        self.client.handle_timeout(self.now);
        self.pump();
    }

    /// The step numbers so far.
    pub fn numbers(&self) -> Vec<u8> {
        self.run.steps().iter().map(|s| s.number).collect()
    }

    /// The latest step numbered `n`.
    pub fn step_n(&self, n: u8) -> &Step {
        self.run
            .steps()
            .iter()
            .rev()
            .find(|s| s.number == n)
            .unwrap()
    }

    /// The names of every tool the model called, in order.
    pub fn called(&self) -> Vec<String> {
        self.run
            .turns()
            .iter()
            .filter_map(|t| match t {
                provider::Turn::Model(ModelTurn::ToolCalls { calls, .. }) => Some(calls),
                _ => None,
            })
            .flatten()
            .map(|c| c.name.clone())
            .collect()
    }
}
