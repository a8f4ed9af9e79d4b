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
mod weather;

pub use asking::{Asking, asking};
pub use catalogue::{PAGE_SIZE, initial_tools};

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_core::model::{CallToolResult, Implementation, JsonObject, LoggingLevel};
use mcpg_core::server::{PromptFeatures, ResourceFeatures, Server, ServerConfig, ServerEvent};
use serde_json::{Value, json};

use content::{CALLS_URI, Calls};

use handlers::Reply;

/// Instructions sent to clients (and through them, to the model).
pub const INSTRUCTIONS: &str = "A teaching server. get_weather knows Austin, Paris, Tokyo, London and Reykjavik. \
Tools are listed six per page, so follow nextCursor.";

/// The logger named in the demo's log messages.
pub const LOGGER: &str = "demo";

/// A slow call in progress.
#[derive(Debug)]
struct Job {
    id: RequestId,
    token: Option<Value>,
    to: u32,
    done: u32,
    step_ms: u64,
    next: Timestamp,
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
    /// The asking tools' code, once handed in ([`asking::Asking`]).
    asking: Option<&'static dyn Asking>,
}

impl Default for DemoServer {
    fn default() -> Self {
        Self::new()
    }
}

impl DemoServer {
    /// A fresh demo server with the initial tool list.
    pub fn new() -> Self {
        let mut demo = Self::without_asking();
        demo.set_asking(asking());
        demo
    }

    /// The same without the asking tools' code: until [`DemoServer::set_asking`],
    /// calling one of them is a tool error that says it is not loaded yet.
    pub fn without_asking() -> Self {
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
            ..Default::default()
        };
        let (resources, templates, prompts) = content::catalogue();
        DemoServer {
            server: Server::new(cfg, initial_tools())
                .with_resources(resources, templates)
                .with_prompts(prompts),
            jobs: Vec::new(),
            calls: Calls::default(),
            events: VecDeque::new(),
            asks: Vec::new(),
            links: Vec::new(),
            next_link: 0,
            asking: None,
        }
    }

    /// Hands in the asking tools' code ([`asking()`]).
    pub fn set_asking(&mut self, asking: &'static dyn Asking) {
        self.asking = Some(asking);
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
        if let Some(a) = self.asking {
            a.complete_links(self, now);
        }
        let mut i = 0;
        while i < self.jobs.len() {
            let job = &mut self.jobs[i];
            while job.next <= now && job.done < job.to {
                job.done += 1;
                if let Some(t) = &job.token {
                    let msg = format!("counted {} of {}", job.done, job.to);
                    self.server.progress(
                        job.next,
                        t,
                        f64::from(job.done),
                        Some(f64::from(job.to)),
                        Some(&msg),
                    );
                }
                job.next = job
                    .next
                    .after(std::time::Duration::from_millis(job.step_ms));
            }
            if job.done >= job.to {
                let job = self.jobs.remove(i);
                self.server.respond(
                    now,
                    &job.id,
                    &CallToolResult::text(format!("Counted to {}.", job.to)),
                );
            } else {
                i += 1;
            }
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
    /// `mcpg_session::rehydrate_with`): delivers `sent` at `at_ms`, or with `None` only
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
            match &ev {
                ServerEvent::CallTool {
                    id,
                    name,
                    arguments,
                    progress_token,
                } => self.call(now, id, name, arguments, progress_token.as_ref()),
                ServerEvent::ReadResource {
                    id, uri, variables, ..
                } => match content::read(uri, variables, &self.calls) {
                    Ok(contents) => self.server.respond_read(now, id, contents),
                    Err(e) => self.server.respond_error(now, id, e),
                },
                ServerEvent::GetPrompt {
                    id,
                    name,
                    arguments,
                } => match content::get_prompt(name, arguments, self.server.tools()) {
                    Ok((description, messages)) => {
                        self.server
                            .respond_prompt(now, id, Some(&description), messages);
                    }
                    Err(e) => self.server.respond_error(now, id, e),
                },
                ServerEvent::Complete {
                    id,
                    argument,
                    value,
                    context,
                    ..
                } => {
                    let values = content::complete(argument, value, context, self.server.tools());
                    self.server.respond_completion(now, id, values);
                }
                ServerEvent::Cancelled { id, .. } => {
                    self.jobs.retain(|j| &j.id != id);
                    self.drop_asks(id);
                }
                ServerEvent::Answered { id, outcome, .. } => {
                    if let Some(a) = self.asking {
                        a.answered(self, now, id, outcome);
                    }
                }
                _ => {}
            }
            self.events.push_back(ev);
        }
    }

    /// Runs a tool, with log messages at several levels (sent only when the client
    /// asked for them), then counts the call in calls.json and tells subscribers.
    fn call(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        name: &str,
        arguments: &JsonObject,
        progress_token: Option<&Value>,
    ) {
        let debug = json!({"tool": name, "arguments": arguments});
        self.log(now, id, LoggingLevel::Debug, debug);
        let reply = match asking::Kind::of(name) {
            Some(kind) => Reply::Ask(kind),
            None => handlers::run(name, arguments),
        };
        match reply {
            Reply::Now(r) => self.answer(now, id, name, *r),
            Reply::Ask(kind) => match self.asking {
                Some(a) => a.ask(self, now, id, kind, (name, arguments)),
                None => self.answer(now, id, name, asking::not_loaded(name)),
            },
            Reply::Slow { to, step_ms } => {
                let said = format!("{name}: counting to {to}, one step every {step_ms} ms");
                self.log(now, id, LoggingLevel::Info, Value::from(said));
                self.jobs.push(Job {
                    id: id.clone(),
                    token: progress_token.cloned(),
                    to,
                    done: 0,
                    step_ms,
                    next: now.after(std::time::Duration::from_millis(step_ms)),
                });
            }
            Reply::Toggle => {
                let said = "the tool list is about to change";
                self.log(now, id, LoggingLevel::Notice, Value::from(said));
                self.toggle(now, id);
            }
        }
        self.calls.count += 1;
        self.calls.last = Some(name.to_owned());
        self.server.resource_updated(now, CALLS_URI);
    }

    /// Answers a call, logging `info`, or `warning` for `isError`.
    fn answer(&mut self, now: Timestamp, id: &RequestId, name: &str, r: CallToolResult) {
        let (level, said) = if r.is_error == Some(true) {
            (LoggingLevel::Warning, format!("{name} returned isError"))
        } else {
            (LoggingLevel::Info, format!("{name} answered"))
        };
        self.log(now, id, level, Value::from(said));
        self.server.respond(now, id, &r);
    }

    fn log(&mut self, now: Timestamp, id: &RequestId, level: LoggingLevel, data: Value) {
        self.server.log(now, Some(id), level, Some(LOGGER), data);
    }

    fn toggle(&mut self, now: Timestamp, id: &RequestId) {
        let mut tools = self.server.tools().to_vec();
        let had = tools.iter().any(|t| t.name == catalogue::BONUS);
        let text = if had {
            tools.retain(|t| t.name != catalogue::BONUS);
            format!("Removed {}; the tool list changed.", catalogue::BONUS)
        } else {
            tools.extend(catalogue::bonus_tool());
            format!("Added {}; the tool list changed.", catalogue::BONUS)
        };
        // Answer first, then announce: the client sees the result, then the change.
        self.server.respond(now, id, &CallToolResult::text(text));
        self.server.set_tools(now, tools);
    }
}
