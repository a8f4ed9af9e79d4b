//! The slow fixtures: `test_tool_with_logging` and `test_tool_with_progress`
//! send three notifications 50 ms apart before their answer (the suite wants
//! several notifications during one call), on the clock the host passes in.

use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::model::{CallToolResult, LoggingLevel};
use mcpg_core::server::Server;
use serde_json::Value;

/// The pause between two notifications of a slow fixture.
const PAUSE: Duration = Duration::from_millis(50);

/// Slow calls in flight at most (the oldest is dropped): a client that starts
/// calls and never lets time pass cannot grow this.
const MAX_RUNNING: usize = 64;

/// The logger the fixtures' log messages name.
pub(crate) const LOGGER: &str = "conformance-test-server";

/// What a slow fixture does, step by step.
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// Logs these messages at `info`, then answers.
    Logging(&'static [&'static str]),
    /// Reports 0, 50 and 100 of 100 on this token, then answers with it.
    Progress(Value),
}

impl Step {
    /// `test_tool_with_logging`.
    pub(crate) fn logging() -> Step {
        Step::Logging(&[
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed",
        ])
    }

    /// `test_tool_with_progress`, reporting on `token`.
    pub(crate) fn progress(token: Value) -> Step {
        Step::Progress(token)
    }
}

/// A slow call: which, what it does, how far it got and when it goes on.
#[derive(Debug)]
struct Running {
    id: RequestId,
    step: Step,
    done: usize,
    next: Timestamp,
}

/// The slow calls in flight.
#[derive(Debug, Default)]
pub(crate) struct Steps {
    running: Vec<Running>,
}

impl Steps {
    /// Starts call `id`: its first notification goes at `now`.
    pub(crate) fn start(&mut self, now: Timestamp, id: RequestId, step: Step) {
        if self.running.len() >= MAX_RUNNING {
            self.running.remove(0);
        }
        self.running.push(Running {
            id,
            step,
            done: 0,
            next: now,
        });
    }

    /// The client cancelled call `id`: it goes no further.
    pub(crate) fn cancel(&mut self, id: &RequestId) {
        self.running.retain(|r| r.id != *id);
    }

    /// When the next step is due.
    pub(crate) fn poll_timeout(&self) -> Option<Timestamp> {
        self.running.iter().map(|r| r.next).min()
    }

    /// Runs every step due by `now`.
    pub(crate) fn advance(&mut self, server: &mut Server, now: Timestamp) {
        for r in &mut self.running {
            while r.next <= now && server.is_open(&r.id) {
                run(server, r, now);
            }
        }
        self.running.retain(|r| server.is_open(&r.id));
    }
}

/// Sends one notification of `r`, or its answer after the last.
fn run(server: &mut Server, r: &mut Running, now: Timestamp) {
    let n = r.done;
    r.done += 1;
    r.next = r.next.after(PAUSE);
    match &r.step {
        Step::Logging(lines) => match lines.get(n) {
            Some(line) => {
                // Sent at the level the client chose (the suite sets `debug`).
                server.log(
                    now,
                    Some(&r.id),
                    LoggingLevel::Info,
                    Some(LOGGER),
                    Value::from(*line),
                );
            }
            None => server.respond(
                now,
                &r.id,
                &CallToolResult::text("Tool with logging executed successfully"),
            ),
        },
        Step::Progress(token) => match [0.0, 50.0, 100.0].get(n) {
            Some(&p) => {
                let message = format!("Completed step {p} of 100");
                server.progress(now, token, p, Some(100.0), Some(&message));
            }
            None => {
                let text = match token {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                server.respond(now, &r.id, &CallToolResult::text(text));
            }
        },
    }
}
