//! One prompt chosen: a field per argument (with completions), **Get** for
//! `prompts/get`, the messages it returned, and **Use in the loop**.

use leptos::prelude::*;
use mcpg_core::model::{CompletionReference, JsonObject, Prompt, Role};
use serde_json::Value;

use super::completing_input::{CompletingInput, Values};
use super::content_block::ContentView;
use super::exchange::Exchange;
use crate::effects::features;
use crate::state::use_app;

/// The messages of the latest `prompts/get`, and **Use in the loop**.
fn messages() -> impl IntoView {
    let st = use_app();
    let fs = st.features;
    move || {
        fs.prompt.get().map(|p| {
            let body = match p.outcome {
                None => view! { <p class="muted">"Getting the prompt…"</p> }.into_any(),
                Some(Err(e)) => view! { <p class="hint bad" role="alert" data-testid="prompt-error">{e}</p> }.into_any(),
                Some(Ok(r)) => {
                    let n = r.messages.len();
                    let list = r
                        .messages
                        .into_iter()
                        .map(|m| {
                            let role = match m.role {
                                Role::Assistant => "assistant",
                                _ => "user",
                            };
                            view! {
                                <li class="message" data-testid="prompt-message" data-role=role>
                                    <span class="chip">{role}</span>
                                    <ContentView block=m.content/>
                                </li>
                            }
                        })
                        .collect_view();
                    view! {
                        {r.description.map(|d| view! { <p class="muted">{d}</p> })}
                        <ol class="messages">{list}</ol>
                        <button type="button" class="primary" data-testid="use-in-loop"
                            disabled=move || st.running.get() || n == 0
                            on:click=move |_| features::use_prompt()>"Use in the loop"</button>
                        <p class="hint">"The loop starts from these messages instead of one typed question: steps 2 and 3 show them in the model API's format."</p>
                    }
                    .into_any()
                }
            };
            view! {
                <section class="prompt-result" data-testid="prompt-result" aria-label="The prompt's messages">
                    <h3>"Messages of "<code>{p.name}</code></h3>
                    {body}
                    <Exchange method="prompts/get" request=None response=p.response/>
                </section>
            }
        })
    }
}

/// The chosen prompt's form and messages.
#[component]
pub fn PromptForm(
    /// The prompt, as listed.
    prompt: Prompt,
) -> impl IntoView {
    let args = prompt.arguments.clone().unwrap_or_default();
    let values: Values = RwSignal::new(
        args.iter()
            .map(|a| (a.name.clone(), String::new()))
            .collect(),
    );
    let fields = args
        .into_iter()
        .map(|a| {
            let reference = CompletionReference::Prompt {
                name: prompt.name.clone(),
            };
            let id = format!("prompt-arg-{}", a.name);
            view! {
                <CompletingInput reference=reference name=a.name description=a.description
                    required=a.required.unwrap_or(false) values=values id=id/>
            }
        })
        .collect_view();
    let name = prompt.name.clone();
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let arguments: JsonObject = values.with_untracked(|v| {
            v.iter()
                .filter(|(_, x)| !x.is_empty())
                .map(|(n, x)| (n.clone(), Value::from(x.clone())))
                .collect()
        });
        features::get_prompt(name.clone(), arguments);
    };
    view! {
        <section class="prompt-form" data-testid="prompt-form" aria-label=format!("Prompt {}", prompt.name)>
            <h3>{prompt.title.clone().unwrap_or_else(|| prompt.name.clone())}</h3>
            {prompt.description.map(|d| view! { <p class="muted">{d}</p> })}
            <form class="fields" on:submit=submit>
                {fields}
                <button type="submit" data-testid="prompt-get">"Get the prompt"</button>
            </form>
            {messages()}
        </section>
    }
}
