//! One step of the loop: its number, where it happens, what happened and why it
//! matters, and its exact JSON.

use leptos::prelude::*;
use mcpg_host::{Step, StepStatus};

use super::json_block::JsonBlock;
use super::once_shown::once_shown;
use super::reshape::reshape;

fn status_text(s: StepStatus) -> &'static str {
    match s {
        StepStatus::Running => "running",
        StepStatus::Done => "done",
        StepStatus::Failed => "failed",
        StepStatus::Skipped => "skipped",
    }
}

/// A step card.
#[component]
pub fn StepCard(
    /// The step, as the loop recorded it.
    step: Step,
) -> impl IntoView {
    let side = if step.over_mcp { "mcp" } else { "host" };
    let where_text = if step.over_mcp {
        "over MCP"
    } else {
        "inside the host"
    };
    let status = status_text(step.status);
    // Large blocks (a whole tool list) start closed, so the steps stay readable.
    // Only the step's last block (the request, the reply, the result) starts open.
    let last = step.blocks.len().saturating_sub(1);
    // Split off with the provider formats it runs (see `reshape.rs`).
    let reshape =
        (step.number == 2 && step.status == StepStatus::Done).then(|| once_shown(|| true, reshape));
    let blocks = step
        .blocks
        .into_iter()
        .enumerate()
        // Step 2's tools are the reshape view; a block after them (a prompt's
        // messages, when the loop started from one) is still shown.
        .filter(|(i, _)| reshape.is_none() || *i > 0)
        .map(|(i, b)| {
            let open = i == last && b.json.len() < 1500;
            view! { <JsonBlock label=b.label json=b.json open=open/> }
        })
        .collect_view();
    view! {
        <li class=format!("step {side} {status}") data-testid="step"
            data-step=step.number.to_string() data-status=status data-side=side>
            <div class="step-head">
                <span class="num" aria-hidden="true">{step.number}</span>
                <span class=format!("badge {side}") data-testid="step-where">{where_text}</span>
                <h3><span class="visually-hidden">{format!("Step {}: ", step.number)}</span>{step.title}</h3>
                <span class=format!("state {status}")>{status}</span>
            </div>
            <p class="explain" data-testid="step-explanation">{step.explanation}</p>
            {reshape}
            {blocks}
        </li>
    }
}
