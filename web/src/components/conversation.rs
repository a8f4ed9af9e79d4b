//! The conversation so far, as the model is shown it: the user's message, the
//! model's calls and answers, the tool results. It grows turn by turn, and shows
//! how many rounds of tool calls the host still allows.

use leptos::prelude::*;
use mcpg_core::model::ContentBlock;
use mcpg_host::provider::{ModelTurn, ResultView, Turn};
use mcpg_host::tool_loop::MAX_ROUNDS;
use serde_json::Value;

use super::long_text::LongText;
use crate::state::use_app;

/// One line of the conversation: role (`user`, `model`, `tool`), who, what.
type Row = (&'static str, String, String);

fn rows(turn: Turn) -> Vec<Row> {
    match turn {
        Turn::User(text) => vec![("user", "You".to_owned(), text)],
        Turn::Model(ModelTurn::Answer { text }) => vec![("model", "Model".to_owned(), text)],
        Turn::Model(ModelTurn::ToolCalls { text, calls }) => text
            .map(|t| ("model", "Model".to_owned(), t))
            .into_iter()
            .chain(calls.into_iter().map(|c| {
                let args = Value::Object(c.arguments).to_string();
                (
                    "model",
                    "Model calls".to_owned(),
                    format!("{} {args}", c.name),
                )
            }))
            .collect(),
        Turn::Results(outputs) => outputs
            .into_iter()
            .map(|o| {
                let what = match o.result {
                    ResultView::Result(r) => {
                        let text: Vec<String> = r
                            .content
                            .iter()
                            .filter_map(|b| match b {
                                ContentBlock::Text(t) => Some(t.text.clone()),
                                _ => None,
                            })
                            .collect();
                        let flag = if r.failed() { " (isError: true)" } else { "" };
                        format!("{}{flag}", text.join(" "))
                    }
                    ResultView::ProtocolError { code, message } => {
                        format!("JSON-RPC error {code}: {message} (no result)")
                    }
                    ResultView::Failed(why) => format!("no result: {why}"),
                };
                ("tool", format!("Result of {}", o.call.name), what)
            })
            .collect(),
    }
}

/// The conversation box.
#[component]
pub fn Conversation() -> impl IntoView {
    let st = use_app();
    view! {
        <Show when=move || st.turns.with(|t| !t.is_empty())>
            <section class="conversation" data-testid="conversation" aria-label="The conversation so far">
                <h3>"The conversation so far "
                    <span class="rounds" data-testid="rounds">
                        "(round "{move || st.rounds.get()}" of at most "{MAX_ROUNDS}")"
                    </span>
                </h3>
                <ol>
                    {move || {
                        st.turns
                            .get()
                            .into_iter()
                            .flat_map(rows)
                            .map(|(role, who, what)| {
                                view! {
                                    <li class="turn" data-testid="turn" data-role=role>
                                        <span class="who">{who}": "</span><LongText text=what inline=true/>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ol>
            </section>
        </Show>
    }
}
