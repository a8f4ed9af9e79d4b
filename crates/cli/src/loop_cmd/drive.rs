//! Drives the host's `ToolLoop` natively: the same state machine the page drives,
//! with the transport's `Driver` doing steps 1, 4 and 5 and a [`Model`] steps 3 and
//! 6. The driver answers whole operations, so the core's events the loop reads are
//! rebuilt from its answers and the wire it saw, in the order the wire had them.

use std::time::Duration;

use mcpg_core::client::{
    CallOptions, CallOutcome, Direction, Event, Failure, Negotiated, OpError, OpId, WireEntry,
};
use mcpg_core::jsonrpc::Message;
use mcpg_host::{Action, ToolLoop};
use mcpg_transport::{Driver, DriverError};
use serde_json::Value;

use super::model::{Model, usage};
use super::tap::Tap;

/// How a real model's retries go: attempts and the first backoff (doubled each time,
/// or the API's `retry-after`).
#[derive(Clone, Copy, Debug)]
pub struct Retry {
    /// Attempts in all (1: no retry).
    pub attempts: u32,
    /// The first wait.
    pub backoff: Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Retry {
            attempts: 4,
            backoff: Duration::from_millis(500),
        }
    }
}

/// What a run counted besides its steps.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Input and output tokens, summed over replies that reported them.
    pub tokens: Option<(u64, u64)>,
    /// Requests answered 429 and asked again.
    pub retried: u32,
}

/// Why a loop stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum Stopped {
    /// The model's reply could not be used (the failed step says why).
    #[error("the model's reply could not be used: {0}")]
    Model(String),
    /// The model API could not be reached.
    #[error("the model API could not be reached: {0}")]
    Unreachable(String),
}

/// Hooks for one run: printing steps as they finish, pausing between actions.
pub struct Hooks<'a> {
    /// Called after each action (to print the steps that finished).
    pub each: Box<dyn FnMut(&ToolLoop) + Send + 'a>,
    /// Wait for Enter before every action but the first (`--step`).
    pub pause: bool,
}

/// Runs `run` to its end.
#[allow(clippy::too_many_arguments)]
pub async fn drive(
    d: &Driver,
    server: &Negotiated,
    tap: &Tap,
    run: &mut ToolLoop,
    model: &Model,
    retry: Retry,
    tally: &mut Tally,
    hooks: Hooks<'_>,
) -> Result<(), Stopped> {
    let Hooks { mut each, pause } = hooks;
    let mut ops = 0u64;
    let mut first = true;
    loop {
        let action = run.next();
        if matches!(action, Action::Done | Action::Wait) {
            return Ok(());
        }
        if !first && pause {
            wait_for_enter(run).await;
        }
        first = false;
        ops += 1;
        match action {
            // The CLI's loops are the careful host's (no pitfalls), which never asks
            // for the naive one-page listing; were it asked, every page is read.
            Action::ListTools | Action::ListFirstPage => list(d, tap, run, OpId(ops)).await,
            Action::Reshape => run.reshape(),
            Action::ModelTurn if model.is_mock() => model.mock_turn(run),
            Action::ModelTurn => {
                let outcome = ask(model, run, retry, tally).await;
                each(run);
                outcome?;
                continue;
            }
            Action::CallTool(call) => {
                run.call_started(OpId(ops));
                let from = tap.len();
                // A tool that runs as a task (2025-11-25) is asked as one, as the page does.
                let opts = CallOptions {
                    progress: true,
                    task: run.task_for(&call.name, server.version, &server.capabilities),
                    ..CallOptions::default()
                };
                let r = d
                    .call_tool_with(&call.name, Some(call.arguments.clone()), opts)
                    .await;
                call_done(run, OpId(ops), &tap.since(from), r);
            }
            Action::RefuseCall(_) => run.refuse_call(),
            Action::Wait | Action::Done => {}
        }
        each(run);
    }
}

/// `--step`: waits for Enter (on stdin) before the next step.
async fn wait_for_enter(run: &ToolLoop) {
    if let Some(n) = run.next_step_number() {
        eprint!("press Enter for step {n}… ");
    }
    let _ = tokio::task::spawn_blocking(|| {
        let mut line = String::new();
        std::io::stdin().read_line(&mut line)
    })
    .await;
}

/// Step 1: the listing, its pages fed in wire order.
async fn list(d: &Driver, tap: &Tap, run: &mut ToolLoop, op: OpId) {
    run.listing_started(op);
    let from = tap.len();
    let r = d.list_tools().await;
    let frames = tap.since(from);
    let (pages, responses) = match &r {
        Ok(l) => (l.pages.clone(), l.responses.clone()),
        Err(_) => (Vec::new(), Vec::new()),
    };
    let mut page = 0usize;
    for w in frames {
        if w.direction == Direction::Sent {
            run.on_event(&Event::Wire(w));
            continue;
        }
        let Some(m) = responses.get(page).filter(|m| m.raw() == &*w.raw) else {
            continue;
        };
        let next_cursor = m
            .result()
            .and_then(|r| r.get("nextCursor"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        run.on_event(&Event::ToolsPage {
            op,
            page: u32::try_from(page + 1).unwrap_or(u32::MAX),
            tools: pages.get(page).cloned().unwrap_or_default(),
            next_cursor,
            message: m.clone(),
        });
        page += 1;
    }
    let count = u32::try_from(page).unwrap_or(u32::MAX);
    run.on_event(&match r {
        Ok(l) => Event::ToolsListed {
            op,
            pages: count,
            tools: l.len(),
        },
        Err(e) => Event::ToolsListFailed {
            op,
            pages: count,
            error: op_error(e),
        },
    });
}

fn op_error(e: DriverError) -> OpError {
    match e {
        DriverError::Rpc { error, .. } => OpError::Rpc(*error),
        other => OpError::Failed(Failure::Transport(other.to_string())),
    }
}

/// Steps 4 and 5: the call as sent, its progress, and how it ended.
fn call_done(
    run: &mut ToolLoop,
    op: OpId,
    frames: &[WireEntry],
    r: Result<mcpg_transport::CallReport, DriverError>,
) {
    let mut id = None;
    // A task's `tasks/result`, whose answer is the call's result.
    let mut result_id = None;
    for w in frames {
        let Ok(m) = Message::decode(&w.raw) else {
            continue;
        };
        if w.direction == Direction::Sent {
            match m.method() {
                Some("tools/call") => id = m.id().cloned(),
                Some("tasks/result") => result_id = m.id().cloned(),
                _ => {}
            }
            run.on_event(&Event::Wire(w.clone()));
        } else if m.method().is_none() || m.method() == Some("notifications/tasks/status") {
            // A task's handle, polls and statuses (step 5 shows them in wire order);
            // anything else received is no part of the call's record.
            run.on_event(&Event::Wire(w.clone()));
        }
    }
    // The response as received, found by the call's id (a JSON-RPC error has one
    // too), or for a task by its `tasks/result`'s.
    let wanted = result_id.or(id);
    let response = frames
        .iter()
        .filter(|w| w.direction == Direction::Received)
        .filter_map(|w| Message::decode(&w.raw).ok())
        .find(|m| m.method().is_none() && wanted.is_some() && m.id() == wanted.as_ref());
    let outcome = match r {
        Ok(report) => {
            for p in report.progress {
                run.on_event(&Event::Progress {
                    op,
                    progress: p.progress,
                    total: p.total,
                    message: p.message,
                });
            }
            report.outcome
        }
        Err(DriverError::Rpc { error, .. }) => CallOutcome::ProtocolError(*error),
        Err(e) => CallOutcome::Failed(Failure::Transport(e.to_string())),
    };
    run.on_event(&Event::CallFinished {
        op,
        outcome,
        message: response,
    });
}

/// Steps 3 and 6 with a real model: a 429 is asked again after a backoff; any other
/// failure is recorded as the failed step and stops the loop.
async fn ask(
    model: &Model,
    run: &mut ToolLoop,
    retry: Retry,
    tally: &mut Tally,
) -> Result<(), Stopped> {
    let head = model.shown_head(run);
    let mut wait = retry.backoff;
    for attempt in 1..=retry.attempts.max(1) {
        match model.post(run).await {
            Ok(reply) if reply.status == 429 && attempt < retry.attempts => {
                tally.retried += 1;
                let delay = reply.retry_after.unwrap_or(wait);
                tokio::time::sleep(delay).await;
                wait = wait.saturating_mul(2);
            }
            Ok(reply) => {
                let steps = run.steps().len();
                run.model_http_reply(reply.status, &reply.body, &head);
                if let Ok(v) = serde_json::from_str::<Value>(&reply.body)
                    && let Some((i, o)) = usage(run.provider(), &v)
                {
                    let (ti, to) = tally.tokens.unwrap_or((0, 0));
                    tally.tokens = Some((ti + i, to + o));
                }
                let failed = run
                    .steps()
                    .get(steps..)
                    .and_then(|s| s.last())
                    .filter(|s| s.status == mcpg_host::StepStatus::Failed);
                return match failed {
                    Some(s) => Err(Stopped::Model(s.explanation.clone())),
                    None => Ok(()),
                };
            }
            // Not recorded as a step: the loop's explanation for it is about
            // browsers (CORS), and nothing reached the model.
            Err(detail) => return Err(Stopped::Unreachable(detail)),
        }
    }
    Err(Stopped::Model("no attempt was made".to_owned()))
}
