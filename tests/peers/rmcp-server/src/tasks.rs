//! The peer's task tools, on rmcp's own support for the 2026-07-28 Tasks
//! extension (`io.modelcontextprotocol/tasks`, SEP-2663): its
//! [`TaskManager`] keeps the tasks and answers `tasks/get`, `tasks/update` and
//! `tasks/cancel`, so what the client sees on the wire is rmcp's behaviour.
//!
//! - `slow_sum` (`a`, `b`, `steps`): runs as a task when the request declares
//!   the extension, one short step at a time (a status message per step),
//!   and ends with the sum; cancellable between steps. Without the extension
//!   it runs the same steps inline and answers at once (a plain result).
//! - `slow_sum_confirm`: the same, but the task first asks the client to
//!   confirm through an in-task elicitation (`input_required` with
//!   `inputRequests`, answered with `tasks/update`).

use std::time::Duration;

use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ClientCapabilities, ContentBlock, CreateTaskResult,
    InputRequest,
};
use rmcp::service::RequestContext;
use rmcp::task_manager::{TaskContext, TaskExit, TaskOptions};
use rmcp::{ErrorData, RoleServer, schemars, tool, tool_router};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::Peer;

/// How long one step of a slow sum takes: short, so tests finish quickly, but
/// long enough that a poll sees the task working and Ctrl-C lands mid-task.
const STEP: Duration = Duration::from_millis(150);

/// The poll interval the tasks suggest (the client's shortest is 100 ms).
const POLL_INTERVAL_MS: u64 = 100;

/// How long a task is kept: a minute is plenty for a test to read it back.
const TTL_MS: u64 = 60_000;

/// The most steps a call may ask for, so a typo cannot park a task for hours.
const MAX_STEPS: u32 = 400;

/// The key of `slow_sum_confirm`'s one input request.
const CONFIRM_KEY: &str = "confirm";

/// Arguments of `slow_sum` and `slow_sum_confirm`.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
pub struct SlowSumArgs {
    /// The left operand.
    a: i64,
    /// The right operand.
    b: i64,
    /// How many steps of 150 ms the sum takes (at most 400).
    steps: u32,
}

impl SlowSumArgs {
    /// The step count, refused past [`MAX_STEPS`].
    fn checked_steps(&self) -> Result<u32, ErrorData> {
        if self.steps > MAX_STEPS {
            return Err(ErrorData::invalid_params(
                format!("steps must be at most {MAX_STEPS}, not {}", self.steps),
                None,
            ));
        }
        Ok(self.steps)
    }
}

#[tool_router(router = task_router, vis = "pub(crate)")]
impl Peer {
    #[tool(
        description = "Add two integers slowly, in `steps` steps of 150 ms. Runs as a task (io.modelcontextprotocol/tasks) when the client declares the extension, with a status message per step; otherwise answers when done."
    )]
    async fn slow_sum(
        &self,
        Parameters(args): Parameters<SlowSumArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let steps = args.checked_steps()?;
        let (a, b) = (args.a, args.b);
        if !declares_tasks(context.client_capabilities().as_ref()) {
            return Ok(sum_inline(a, b, steps).await.into());
        }
        let task = self.tasks.spawn(options(), move |ctx| {
            Box::pin(async move { sum_in_steps(&ctx, a, b, steps).await })
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }

    #[tool(
        description = "Like slow_sum, but the task first asks the client to confirm (an elicitation inside the task, answered with tasks/update). Needs the tasks extension and the elicitation capability."
    )]
    async fn slow_sum_confirm(
        &self,
        Parameters(args): Parameters<SlowSumArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let steps = args.checked_steps()?;
        let (a, b) = (args.a, args.b);
        let caps = context.client_capabilities();
        if !declares_tasks(caps.as_ref()) {
            return Ok(refusal("slow_sum_confirm runs only as a task: declare the io.modelcontextprotocol/tasks extension").into());
        }
        // Servers must not ask what the client did not declare it answers.
        if caps.as_ref().and_then(|c| c.elicitation.as_ref()).is_none() {
            return Ok(refusal(
                "slow_sum_confirm asks for confirmation: declare the elicitation capability",
            )
            .into());
        }
        let task = self.tasks.spawn(options(), move |ctx| {
            Box::pin(async move {
                if !confirmed(&ctx, a, b).await? {
                    return Ok(refusal("the sum was not confirmed"));
                }
                sum_in_steps(&ctx, a, b, steps).await
            })
        });
        Ok(CallToolResponse::Task(CreateTaskResult::new(task)))
    }
}

/// Whether the request's client capabilities declare the Tasks extension.
fn declares_tasks(caps: Option<&ClientCapabilities>) -> bool {
    caps.is_some_and(ClientCapabilities::supports_tasks)
}

/// The options every task of this peer is spawned with.
fn options() -> TaskOptions {
    TaskOptions::new()
        .with_ttl_ms(TTL_MS)
        .with_poll_interval_ms(POLL_INTERVAL_MS)
        .with_status_message("starting")
}

/// A result with `isError: true` and `text`.
fn refusal(text: &str) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(text)])
}

/// The sum as a result: the bare number as text, and `{"result": sum}`.
fn sum_result(a: i64, b: i64) -> CallToolResult {
    let sum = a.wrapping_add(b);
    let mut result = CallToolResult::success(vec![ContentBlock::text(sum.to_string())]);
    result.structured_content = Some(json!({ "result": sum }));
    result
}

/// `slow_sum` for a client without the extension: the same wait, then the sum.
async fn sum_inline(a: i64, b: i64, steps: u32) -> CallToolResult {
    tokio::time::sleep(STEP * steps).await;
    sum_result(a, b)
}

/// The task's work: `steps` steps, each announced in the status message,
/// stopping as `cancelled` as soon as `tasks/cancel` arrives.
async fn sum_in_steps(
    ctx: &TaskContext,
    a: i64,
    b: i64,
    steps: u32,
) -> Result<CallToolResult, TaskExit> {
    for step in 1..=steps {
        ctx.set_status_message(format!("step {step} of {steps}"));
        tokio::select! {
            () = ctx.cancelled() => return Err(TaskExit::Cancelled),
            () = tokio::time::sleep(STEP) => {}
        }
    }
    Ok(sum_result(a, b))
}

/// Asks the client, inside the task, whether to add `a` and `b`; true only for
/// an accepted answer whose `confirm` field is true.
async fn confirmed(ctx: &TaskContext, a: i64, b: i64) -> Result<bool, TaskExit> {
    ctx.set_status_message("waiting for confirmation");
    let request: InputRequest = serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": {
            "mode": "form",
            "message": format!("Add {a} and {b}?"),
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "confirm": { "type": "boolean", "title": "Confirm", "default": false }
                },
                "required": ["confirm"]
            }
        }
    }))
    .map_err(|e| ErrorData::internal_error(format!("elicitation request: {e}"), None))?;
    let answer = ctx.request_input(CONFIRM_KEY, request).await?;
    // The answer is the client's words: read it, never trust its shape.
    let accepted = answer.get("action").and_then(Value::as_str) == Some("accept");
    let yes = answer
        .get("content")
        .and_then(|c| c.get("confirm"))
        .and_then(Value::as_bool)
        == Some(true);
    Ok(accepted && yes)
}
