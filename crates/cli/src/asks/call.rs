//! `tools call` through the answerer: a 2026-07-28 `input_required` result is
//! answered and the call continued (same `requestState`, new request) until it
//! ends, for at most [`MAX_INPUT_ROUNDS`] rounds.

use mcpg_core::client::{CallOptions, CallOutcome};
use mcpg_core::model::JsonObject;
use mcpg_transport::{CallReport, Driver};

use super::Answerer;
use crate::exit::Failure;

/// How many `input_required` rounds one call may take before mcpg stops answering
/// (a server that keeps asking would otherwise loop for ever).
pub const MAX_INPUT_ROUNDS: usize = 8;

/// Calls `name`; each `input_required` answer is answered by `answerer` and the
/// call continued. Without an answerer, or past the round limit, the last
/// report is returned with its `InputRequired` outcome for the caller to report.
pub async fn call_tool(
    d: &Driver,
    name: &str,
    args: Option<JsonObject>,
    answerer: Option<&Answerer>,
) -> Result<(CallReport, usize), Failure> {
    call_tool_with(d, name, args, CallOptions::default(), answerer).await
}

/// [`call_tool`] with the call's options (`tools call --task` asks a 2025-11-25
/// task with them). Under the 2026-07-28 Tasks extension a task's input requests
/// come back the same way and are answered here too (the core sends `tasks/update`).
pub async fn call_tool_with(
    d: &Driver,
    name: &str,
    args: Option<JsonObject>,
    opts: CallOptions,
    answerer: Option<&Answerer>,
) -> Result<(CallReport, usize), Failure> {
    let mut report = d.call_tool_with(name, args, opts).await?;
    let Some(answerer) = answerer else {
        return Ok((report, 0));
    };
    let mut rounds = 0;
    while let CallOutcome::InputRequired(pending) = &report.outcome {
        if rounds == MAX_INPUT_ROUNDS {
            break;
        }
        rounds += 1;
        let responses = answerer.input_responses(pending);
        report = d.continue_call(report.op, responses).await?;
    }
    Ok((report, rounds))
}

/// The failure for a call that still needs input after `rounds` answered rounds.
pub fn still_needs_input(name: &str, rounds: usize) -> Failure {
    let message = if rounds == 0 {
        format!(
            "tool `{name}` asked for input (input_required); answer it with --on-elicit, --on-sample or --root"
        )
    } else {
        format!(
            "tool `{name}` still asked for input after {rounds} answered rounds; mcpg stopped there"
        )
    };
    Failure::transport(message)
}
