//! The demo server: deterministic tools that teach every part of the tool loop,
//! on the core's sans-IO server role. It has two homes: inside the page over an
//! in-memory transport (the playground's default: no bridge, no network), and
//! natively over stdio as `mcpg demo`.
//!
//! Like the core it does no I/O and reads no clock: the slow tool is driven by the
//! `now` passed to [`DemoServer::handle_timeout`].

mod assets;
mod catalogue;
mod handlers;

pub use catalogue::{PAGE_SIZE, initial_tools};

use std::collections::VecDeque;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Message, RequestId};
use mcpg_core::model::{CallToolResult, Implementation};
use mcpg_core::server::{Server, ServerConfig, ServerEvent};
use serde_json::Value;

use handlers::Reply;

/// Instructions sent to clients (and through them, to the model).
pub const INSTRUCTIONS: &str = "A teaching server. get_weather knows Austin, Paris, Tokyo, London and Reykjavik. \
Tools are listed six per page, so follow nextCursor.";

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
    events: VecDeque<ServerEvent>,
}

impl Default for DemoServer {
    fn default() -> Self {
        Self::new()
    }
}

impl DemoServer {
    /// A fresh demo server with the initial tool list.
    pub fn new() -> Self {
        let cfg = ServerConfig {
            info: Implementation {
                name: "mcpg-demo".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                title: Some("MCP Playground demo server".into()),
                ..Default::default()
            },
            instructions: Some(INSTRUCTIONS.into()),
            page_size: PAGE_SIZE,
            ..Default::default()
        };
        DemoServer {
            server: Server::new(cfg, initial_tools()),
            jobs: Vec::new(),
            events: VecDeque::new(),
        }
    }

    /// Feeds one frame from the client.
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        self.server.handle_text(now, text);
        self.process(now);
    }

    /// Advances slow jobs to `now`.
    pub fn handle_timeout(&mut self, now: Timestamp) {
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
        self.jobs.iter().map(|j| j.next).min()
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
                } => match handlers::run(name, arguments) {
                    Reply::Now(r) => self.server.respond(now, id, &r),
                    Reply::Slow { to, step_ms } => self.jobs.push(Job {
                        id: id.clone(),
                        token: progress_token.clone(),
                        to,
                        done: 0,
                        step_ms,
                        next: now.after(std::time::Duration::from_millis(step_ms)),
                    }),
                    Reply::Toggle => self.toggle(now, id),
                },
                ServerEvent::Cancelled { id, .. } => self.jobs.retain(|j| &j.id != id),
                _ => {}
            }
            self.events.push_back(ev);
        }
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
