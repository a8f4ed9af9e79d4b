//! The demo server: deterministic tools that teach every part of the tool loop,
//! on the core's sans-IO server role. It has two homes: inside the page over an
//! in-memory transport (the playground's default: no bridge, no network), and
//! natively over stdio as `mcpg demo`.
//!
//! Like the core it does no I/O and reads no clock: the slow tool is driven by the
//! `now` passed to [`DemoServer::handle_timeout`].

mod asking;
mod assets;
mod catalogue;
pub mod content;
mod handlers;
mod hook;
mod serve;
mod tasks;
mod tasks_ext;
mod types;
mod weather;

pub use catalogue::{PAGE_SIZE, initial_tools, task_tool};
pub use hook::{Handlers, handlers};

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_core::model::Implementation;
use mcpg_core::server::{PromptFeatures, ResourceFeatures, Server, ServerConfig, ServerEvent};
use serde_json::Value;

use content::Calls;

/// Instructions sent to clients (and through them, to the model).
pub const INSTRUCTIONS: &str = "A teaching server. get_weather knows Austin, Paris, Tokyo, London and Reykjavik. \
Tools are listed six per page, so follow nextCursor.";

/// The logger named in the demo's log messages.
pub const LOGGER: &str = "demo";

/// A slow call in progress: `count_slowly`'s, or a `count_task` task's count.
#[derive(Debug)]
struct Job {
    id: RequestId,
    token: Option<Value>,
    to: u32,
    done: u32,
    step_ms: u64,
    next: Timestamp,
    /// The task whose count this is (`tasks.rs`), if any.
    task: Option<String>,
    /// The step after which the task stops to ask whether to go on.
    ask_at: Option<u32>,
}

/// One connection's worth of demo server.
#[derive(Debug)]
pub struct DemoServer {
    server: Server,
    jobs: Vec<Job>,
    calls: Calls,
    events: VecDeque<ServerEvent>,
    /// Questions sent to the client and not yet answered (up to 2025-11-25).
    asks: Vec<asking::drive::PendingAsk>,
    /// Accepted URL steps waiting for their pretend site.
    links: Vec<asking::drive::LinkJob>,
    /// The last URL step's number (its elicitation id is `link-N`).
    next_link: u32,
    /// The code that answers requests, once handed in ([`Handlers`]).
    handlers: Option<&'static dyn Handlers>,
    /// The tasks of `count_task` (2025-11-25), in creation order.
    tasks: Vec<tasks::DemoTask>,
    /// The last task's number (its id is `task-N`).
    next_task: u32,
}

impl Default for DemoServer {
    fn default() -> Self {
        Self::new()
    }
}

impl DemoServer {
    /// A fresh demo server with the initial tool list.
    pub fn new() -> Self {
        let mut demo = Self::without_handlers();
        demo.set_handlers(handlers());
        demo
    }

    /// The same without the code that answers requests ([`Handlers`]): until
    /// [`DemoServer::set_handlers`], a tool call, or a request about resources,
    /// prompts, completions, subscriptions or the log level, is a JSON-RPC error
    /// saying it is not loaded yet (the handshake, `ping` and the tool list work,
    /// and announce the same capabilities: the core's server answers them from the
    /// configuration).
    pub fn without_handlers() -> Self {
        let cfg = ServerConfig {
            info: Implementation {
                name: "mcpg-demo".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                title: Some("MCP Playground demo server".into()),
                ..Default::default()
            },
            instructions: Some(INSTRUCTIONS.into()),
            page_size: PAGE_SIZE,
            // The lists never change (so no listChanged); calls.json does, on every call.
            resources: Some(ResourceFeatures {
                subscribe: true,
                list_changed: false,
            }),
            prompts: Some(PromptFeatures {
                list_changed: false,
            }),
            completions: true,
            logging: true,
            skills: true,
            // Answered from the skill's entry, with the handlers.
            skills_directory_read: true,
            // Declared under 2025-11-25 only; the tasks are `count_task`'s.
            tasks: true,
            ..Default::default()
        };
        let mut tools = initial_tools();
        tools.extend(task_tool());
        DemoServer {
            // The catalogue and the core's code for it come with the handlers.
            server: Server::without_request_handlers(cfg, tools),
            jobs: Vec::new(),
            calls: Calls::default(),
            events: VecDeque::new(),
            asks: Vec::new(),
            links: Vec::new(),
            next_link: 0,
            handlers: None,
            tasks: Vec::new(),
            next_task: 0,
        }
    }

    /// Hands in the code that answers requests ([`handlers()`]).
    pub fn set_handlers(&mut self, handlers: &'static dyn Handlers) {
        handlers.install(&mut self.server);
        self.handlers = Some(handlers);
    }

    /// Feeds one frame from the client.
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        self.server.handle_text(now, text);
        self.process(now);
    }

    /// Advances slow jobs, URL steps and the server's asks to `now`.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        self.server.handle_timeout(now);
        self.process(now);
        if let Some(h) = self.handlers {
            h.advance(self, now);
        }
        self.process(now);
    }

    /// When [`DemoServer::handle_timeout`] should next run.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        let jobs = self.jobs.iter().map(|j| j.next);
        let links = self.links.iter().map(|l| l.at);
        jobs.chain(links).chain(self.server.poll_timeout()).min()
    }

    /// The next frame to send to the client.
    pub fn poll_transmit(&mut self) -> Option<Message> {
        self.server.poll_transmit()
    }

    /// The next event (wire entries, calls, cancellations, diagnostics), for a UI.
    pub fn poll_event(&mut self) -> Option<ServerEvent> {
        self.events.pop_front()
    }

    /// One exchange of a recorded session being regenerated (the callback of
    /// `mcpg_recording::rehydrate_with`): delivers `sent` at `at_ms`, or with `None` only
    /// lets time pass to `at_ms`, and returns the text of every frame the server sends
    /// in answer. Its events are dropped: nobody watches a regenerated run.
    pub fn exchange(&mut self, at_ms: u64, sent: Option<&str>) -> Vec<String> {
        let now = Timestamp::from_millis(at_ms);
        match sent {
            Some(t) => self.handle_text(now, t),
            None => self.handle_timeout(now),
        }
        self.events.clear();
        std::iter::from_fn(|| self.poll_transmit().map(|m| m.raw().to_owned())).collect()
    }

    fn process(&mut self, now: Timestamp) {
        while let Some(ev) = self.server.poll_event() {
            // Without the handlers the core's server answers every request they
            // serve itself ("not loaded yet"), so what comes here needs no answer.
            if let Some(h) = self.handlers {
                h.serve(self, now, &ev);
            }
            self.events.push_back(ev);
        }
    }
}
