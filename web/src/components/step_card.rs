//! One step of the loop: its number, where it happens, what happened and why it
//! matters, and its exact JSON.

use leptos::prelude::*;
use mcpg_host::tool_loop::TITLE_RPC_ERROR;
use mcpg_host::{Step, StepStatus};

use leptos::wasm_split::wasm_split;
use mcpg_page::AskPlace;

use super::advice_note::AdviceNote;
use super::json_block::JsonBlock;
use super::once_shown::{Loaded, once_shown};
use super::reshape::reshape;
use super::server_asks::StepAsks;
use crate::state::use_app;

fn status_text(s: StepStatus) -> &'static str {
    match s {
        StepStatus::Running => "running",
        StepStatus::Done => "done",
        StepStatus::Failed => "failed",
        StepStatus::Skipped => "skipped",
    }
}

/// The questions the server asked during the call of the step 4 at `index`
/// (lazy: in the chunk of "the server asks", fetched when a server first asks).
#[wasm_split(mcpg_server_asks, wasm_split_path = ::leptos::wasm_split, fallible)]
fn step_asks(index: usize) -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <StepAsks index=index/> }.into_any())
}

/// A step card.
#[component]
pub fn StepCard(
    /// The step, as the loop recorded it.
    step: Step,
    /// Its index in the loop's steps: a step 4 shows the questions the server
    /// asked during its call (none when not given, as in the presenter view).
    #[prop(optional)]
    index: Option<usize>,
) -> impl IntoView {
    let st = use_app();
    let side = if step.over_mcp { "mcp" } else { "host" };
    let where_text = if step.over_mcp {
        "over MCP"
    } else {
        "inside the host"
    };
    let status = status_text(step.status);
    // Whose choice this card shows, where a classic host mistake was at stake.
    let choices = (!step.choices.is_empty()).then(|| {
        let items = step
            .choices
            .iter()
            .map(|c| {
                let class = if c.naive {
                    "choice naive"
                } else {
                    "choice careful"
                };
                view! {
                    <li class=class data-testid="host-choice" data-pitfall=c.pitfall.id()
                        data-naive=c.naive.to_string()>
                        <strong>{c.who()}": "</strong>{c.text.clone()}
                    </li>
                }
            })
            .collect_view();
        view! { <ul class="host-choices">{items}</ul> }
    });
    // A JSON-RPC error in step 5: the advice table's note when it knows the
    // refusal (nothing otherwise). The step cards are in the later parts' chunk,
    // and so is the table: no split point of its own, whose loader would sit in
    // the first load.
    let advice = (step.number == 5 && step.title == TITLE_RPC_ERROR)
        .then(|| step.blocks.last().map(|b| b.json.to_string()))
        .flatten()
        .map(|response| view! { <AdviceNote response=response/> });
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
    let asks = index.filter(|_| step.number == 4).map(|i| {
        let here = move || {
            st.asks
                .with(|a| a.iter().any(|a| a.place == AskPlace::Step(i)))
        };
        once_shown(here, move || step_asks(i))
    });
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
            {choices}
            {advice}
            {reshape}
            {blocks}
            {asks}
        </li>
    }
}
