//! The conformance profile: the fixtures the official MCP server conformance
//! suite (`@modelcontextprotocol/conformance`) calls by name (`test_simple_text`,
//! `test://static-text`, `test_simple_prompt`, ...), served by
//! `mcpg demo --http --conformance` instead of the lessons' demo, so the lessons
//! keep only what they teach.
//!
//! Built on the core's sans-IO [`Server`] directly, not on the demo's `Handlers`
//! hook: that hook exists to keep the demo's answers out of the page's first
//! download and hands them a `DemoServer` (its jobs, tasks and catalogue), none of
//! which the fixtures use; the core's server already checks every request and
//! hands the fixtures exactly what they answer ([`ServerEvent`](mcpg_core::server::ServerEvent)). Like the core it
//! does no I/O and reads no clock: the delays of the slow fixtures run on the
//! `now` passed to [`ConformanceServer::handle_timeout`].
//!
//! Its public face is the demo's ([`ConformanceServer::handle_text`],
//! [`ConformanceServer::handle_timeout`], [`ConformanceServer::poll_timeout`],
//! [`ConformanceServer::poll_transmit`]), and it plugs into the HTTP faces of
//! `mcpg-demo-sse` as an [`Engine`] through [`profile`].
//!
//! One file per concern: `catalogue` (what is listed), `serve` (the answers),
//! `steps` (the fixtures that take time), `asking` (the ones that ask the client),
//! `diagnostic` (the `server-stateless` scenario's probes),
//! `mrtr` (the 2026-07-28 `input_required` fixtures).

mod asking;
mod catalogue;
mod diagnostic;
mod mrtr;
mod serve;
mod steps;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::Message;
use mcpg_core::server::Server;
use mcpg_demo_sse::{Engine, Profile};

/// The server's name in `serverInfo`, as the suite's reference server names itself.
pub const NAME: &str = "mcp-conformance-test-server";

/// One connection's worth of fixture server.
#[derive(Debug)]
pub struct ConformanceServer {
    server: Server,
    /// The slow fixtures in flight.
    steps: steps::Steps,
    /// The questions sent to the client, with the calls waiting on them.
    asks: Vec<asking::Asked>,
}

impl Default for ConformanceServer {
    fn default() -> Self {
        Self::new()
    }
}

impl ConformanceServer {
    /// A fresh server with every fixture.
    pub fn new() -> Self {
        ConformanceServer {
            server: catalogue::server(tools()),
            steps: steps::Steps::default(),
            asks: Vec::new(),
        }
    }

    /// Feeds one frame from the client.
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        self.server.handle_text(now, text);
        self.process(now);
    }

    /// Lets the clock run to `now`.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        self.server.handle_timeout(now);
        self.process(now);
        self.steps.advance(&mut self.server, now);
    }

    /// When [`ConformanceServer::handle_timeout`] should next run.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.server
            .poll_timeout()
            .into_iter()
            .chain(self.steps.poll_timeout())
            .min()
    }

    /// The next frame to send to the client.
    pub fn poll_transmit(&mut self) -> Option<Message> {
        self.server.poll_transmit()
    }

    fn process(&mut self, now: Timestamp) {
        while let Some(ev) = self.server.poll_event() {
            if !mrtr::serve(&mut self.server, now, &ev) {
                self.serve(now, ev);
            }
        }
        // A slow fixture's first step is due at once.
        self.steps.advance(&mut self.server, now);
    }
}

impl Engine for ConformanceServer {
    fn handle_text(&mut self, now: Timestamp, text: &str) {
        ConformanceServer::handle_text(self, now, text);
    }

    fn handle_timeout(&mut self, now: Timestamp) {
        ConformanceServer::handle_timeout(self, now);
    }

    fn poll_timeout(&self) -> Option<Timestamp> {
        ConformanceServer::poll_timeout(self)
    }

    fn poll_transmit(&mut self) -> Option<Message> {
        ConformanceServer::poll_transmit(self)
    }

    fn set_state_key(&mut self, key: mcpg_core::server::StateKey) {
        self.server.set_state_key(key);
    }
}

/// Every fixture tool, in `tools/list` order: the 2025-11-25 scenarios', the
/// `server-stateless` probes, then the `input_required` ones.
fn tools() -> Vec<mcpg_core::model::Tool> {
    let mut tools = catalogue::tools();
    tools.extend(diagnostic::tools());
    tools.extend(mrtr::tools());
    tools
}

/// The profile that serves these fixtures on `mcpg-demo-sse`'s HTTP faces.
pub fn profile() -> Profile {
    Profile::new("conformance", || Box::new(ConformanceServer::new()))
}
