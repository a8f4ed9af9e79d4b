//! One step of the loop: its number, where it happens, what happened and why it
//! matters, and its exact JSON.

use leptos::prelude::*;
use mcpg_core::model::Tool;
use mcpg_host::provider::shape_tools;
use mcpg_host::{Step, StepStatus};
use serde_json::Value;

use super::json_block::JsonBlock;
use crate::state::{pretty, use_app};

/// Step 2 in full: the MCP tools and the chosen provider's tools side by side, and
/// every rewrite the host made, as plain text. It follows the provider selector, so
/// switching provider reshapes the same tools at once.
#[component]
fn Reshape() -> impl IntoView {
    let st = use_app();
    let shaped = Memo::new(move |_| {
        let tools = st.all_tools();
        let provider = st.provider.get();
        let mcp = pretty(&Value::Array(tools.iter().map(Tool::to_json).collect()));
        let shaped = shape_tools(provider, &tools, false);
        let names: Vec<String> = shaped
            .names
            .changes()
            .iter()
            .map(|c| format!("{} → {}: {}", c.mcp, c.provider, c.reason))
            .collect();
        let schema: Vec<String> = shaped
            .schema_changes
            .iter()
            .map(|c| {
                let at = if c.path.is_empty() {
                    "/"
                } else {
                    c.path.as_str()
                };
                format!("{} {at}: {}", c.tool, c.what)
            })
            .collect();
        (provider.label(), mcp, pretty(&shaped.tools), names, schema)
    });
    let list = |title: &'static str, id: &'static str, items: Vec<String>| {
        (!items.is_empty()).then(|| {
            view! {
                <div class="rewrites" data-testid=id>
                    <h4>{title}</h4>
                    <ul>{items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ul>
                </div>
            }
        })
    };
    move || {
        let (label, mcp, tools, names, schema) = shaped.get();
        view! {
            <div class="reshape" data-testid="reshape">
                <div class="reshape-col">
                    <h4>"MCP tools"</h4>
                    <pre tabindex="0" class="reshape-json" data-testid="mcp-tools">{mcp}</pre>
                </div>
                <div class="reshape-col">
                    <h4 data-testid="provider-tools-label">{format!("{label} tools")}</h4>
                    <pre tabindex="0" class="reshape-json" data-testid="provider-tools">{tools}</pre>
                </div>
            </div>
            {list("Names rewritten", "name-changes", names)}
            {list("Schema changes", "schema-changes", schema)}
        }
    }
}

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
    let reshape =
        (step.number == 2 && step.status == StepStatus::Done).then(|| view! { <Reshape/> });
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
