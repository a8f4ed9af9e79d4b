//! What a step's own data says, for its arrows: the tool a `tools/call` named, how
//! many pages a listing had, how a call ended, and where a run of calls starts. Each
//! block's kind says whether the host sent it, received it, or was asked by it; the
//! JSON blocks are the exact wire text.

use mcpg_loop_data::{BlockKind, Provider, Step, StepStatus};
use serde_json::Value;

use super::ArrowKind;

/// The API format's name, short enough for step 2's label ("Anthropic" for
/// Anthropic Messages); the step's card names it in full.
pub(super) fn short_name(p: Provider) -> &'static str {
    match p {
        Provider::Anthropic => "Anthropic",
        Provider::OpenAiChat => "OpenAI Chat",
        Provider::OpenAiResponses => "OpenAI Responses",
        Provider::Gemini => "Gemini",
        Provider::Ollama => "Ollama",
    }
}

/// Whether step `i` starts a run of steps 4 and 5 (after a model turn).
pub(super) fn starts_run(steps: &[Step], i: usize) -> bool {
    i == 0 || !steps.get(i - 1).is_some_and(|s| matches!(s.number, 4 | 5))
}

/// The calls of the run of steps 4 and 5 that ends just before `i`.
pub(super) fn calls_before(steps: &[Step], i: usize) -> usize {
    steps
        .iter()
        .take(i)
        .rev()
        .take_while(|s| matches!(s.number, 4 | 5))
        .filter(|s| s.number == 4)
        .count()
}

/// Blocks of a step the host sent (`received` false) or received (`received` true).
pub(super) fn count_blocks(step: &Step, received: bool) -> usize {
    step.blocks
        .iter()
        .filter(|b| {
            if received {
                b.kind.is_received()
            } else {
                b.kind.is_sent()
            }
        })
        .count()
}

/// The tool a step 4 sent, from its `tools/call` JSON.
pub(super) fn tool_name(step: &Step) -> String {
    step.blocks
        .first()
        .and_then(|b| serde_json::from_str::<Value>(&b.json).ok())
        .and_then(|v| {
            v.pointer("/params/name")
                .and_then(Value::as_str)
                .map(str::to_owned)
        })
        .unwrap_or_default()
}

/// Step 5's arrow: a result, a tool error (`isError`), a JSON-RPC error, or nothing.
pub(super) fn result(step: &Step) -> (ArrowKind, String) {
    match step.status {
        StepStatus::Running => return (ArrowKind::Mcp, "result (waiting)".to_owned()),
        StepStatus::Done | StepStatus::Skipped => return (ArrowKind::Mcp, "result".to_owned()),
        StepStatus::Failed => {}
    }
    let last = step
        .blocks
        .iter()
        .rev()
        .find(|b| b.kind.is_received())
        .and_then(|b| serde_json::from_str::<Value>(&b.json).ok());
    let Some(reply) = last else {
        return (ArrowKind::Failed, "no response".to_owned());
    };
    if let Some(code) = reply.pointer("/error/code") {
        return (ArrowKind::ProtocolError, format!("JSON-RPC error {code}"));
    }
    if reply.pointer("/result/isError") == Some(&Value::Bool(true)) {
        return (ArrowKind::ToolError, "result isError: true".to_owned());
    }
    (ArrowKind::Failed, "result not usable".to_owned())
}

/// What a "the server asks" block of step 4 asks for, from its method
/// (`asks: sampling`, `asks: elicitation`, `asks: roots`, `asks: input_required`).
pub(super) fn asked_what(block: &mcpg_loop_data::JsonBlock) -> String {
    let method = match &block.kind {
        BlockKind::Asked(method) => method.as_str(),
        _ => "",
    };
    // "sampling/createMessage" is too long between two lanes: its first word says it.
    format!("asks: {}", method.split('/').next().unwrap_or(method))
}

/// A 2025-11-25 task's messages in a step 5, from the wire JSON of its blocks.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct TaskWire {
    /// The server answered `tools/call` with a task handle.
    pub handle: bool,
    /// The host polled `tasks/get`.
    pub polled: bool,
    /// The host sent `tasks/cancel`.
    pub cancelled: bool,
    /// The host sent `tasks/result`.
    pub result: bool,
}

/// What step 5 `step` shows of a task, if its call ran as one.
pub(super) fn task_wire(step: &Step) -> Option<TaskWire> {
    let mut t = TaskWire::default();
    for b in &step.blocks {
        // Only a task's messages are read: a result of megabytes is not parsed on
        // every change of the steps (measured: 31 ms per change for a 10 MB one).
        // Both kinds name "task" (`tasks/…`, `result.task`): a block is the wire
        // text re-indented (`JsonBlock::wire`, up to 1 MiB), so a key a server
        // wrote with `\u` escapes reads plainly here too.
        if !b.json.contains("task") {
            continue;
        }
        let Ok(v) = serde_json::from_str::<Value>(&b.json) else {
            continue;
        };
        match v.get("method").and_then(Value::as_str) {
            Some("tasks/get") if b.kind.is_sent() => t.polled = true,
            Some("tasks/cancel") if b.kind.is_sent() => t.cancelled = true,
            Some("tasks/result") if b.kind.is_sent() => t.result = true,
            None if b.kind.is_received() && v.pointer("/result/task/taskId").is_some() => {
                t.handle = true;
            }
            _ => {}
        }
    }
    t.handle.then_some(t)
}
