//! The learner's message, the presets, and step / run / pause / reset.

use leptos::prelude::*;
use mcpg_host::provider::Provider;
use mcpg_host::tool_loop::TITLES;

use super::llm_settings::llm_settings;
use super::model_bar::{ModelBar, options};
use super::once_shown::once_shown;
use crate::effects;
use crate::model_state::ModelChoice;
use crate::state::use_app;

/// Messages that each show one lesson with the embedded demo server.
const PRESETS: [(&str, &str); 10] = [
    ("Weather in Austin", "What's the weather in Austin?"),
    ("Unknown city (isError)", "What's the weather in Atlantis?"),
    ("Unknown tool (JSON-RPC error)", "call no_such_tool"),
    (
        "Forecast (structuredContent)",
        "Forecast for Paris for 3 days",
    ),
    ("Icon (image)", "Show the weather icon for Tokyo"),
    ("Hello (audio)", "Say hello"),
    ("Note (resources)", "Read the note about errors"),
    ("Slow count (progress, cancel)", "Count slowly to 10"),
    ("Bonus tool (list_changed)", "Toggle the bonus tool"),
    ("No tool fits", "Tell me a joke"),
];

/// Short step names for the button.
fn short(n: u8) -> &'static str {
    match n {
        1 => "tools/list",
        2 => "reshape the tools",
        3 => "the model picks",
        4 => "tools/call",
        5 => "the result",
        _ => "feed back, answer",
    }
}

/// Message box and buttons.
#[component]
pub fn LoopControls() -> impl IntoView {
    let st = use_app();
    let step_label = move || match (st.loop_active.get(), st.next_step.get()) {
        (true, Some(5)) => "Waiting for the server's answer…".to_owned(),
        (true, Some(3 | 6)) if st.model_busy.get() => "Waiting for the model's reply…".to_owned(),
        (true, Some(3 | 6)) if st.model.get() == ModelChoice::Play => {
            "Your turn as the model: see below".to_owned()
        }
        (true, Some(n)) => format!("Next: step {n}, {}", short(n)),
        _ => "Step 1: tools/list".to_owned(),
    };
    let step_title = move || {
        st.next_step
            .get()
            .and_then(|n| TITLES.get(usize::from(n.saturating_sub(1))))
            .copied()
            .unwrap_or("")
    };
    let waiting = move || {
        let next = st.next_step.get();
        st.model_busy.get()
            || (st.loop_active.get()
                && (next == Some(5)
                    || (st.model.get() == ModelChoice::Play && matches!(next, Some(3 | 6)))))
    };
    view! {
        <div class="controls">
            <label for="prompt">"Your message to the model"</label>
            <div class="prompt-row">
                <input id="prompt" data-testid="prompt" type="text"
                    prop:value=move || st.prompt.get()
                    on:input=move |ev| effects::set_prompt(event_target_value(&ev))
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            effects::reset();
                            effects::run_all();
                        }
                    }/>
            </div>
            <div class="presets" role="group" aria-label="Example messages">
                {PRESETS
                    .iter()
                    .map(|(label, text)| {
                        let text = *text;
                        view! {
                            <button class="chip" data-testid="preset" on:click=move |_| {
                                effects::set_prompt(text.to_owned());
                                effects::reset();
                            }>{*label}</button>
                        }
                    })
                    .collect_view()}
            </div>
            <div class="provider-row">
                <label for="provider">"Model API format"</label>
                <select id="provider" data-testid="provider-select"
                    prop:value=move || st.provider.get().id()
                    on:change=move |ev| {
                        let p = Provider::from_id(&event_target_value(&ev))
                            .unwrap_or(Provider::Anthropic);
                        effects::set_provider(p);
                    }>
                    {options(Provider::ALL.map(|p| (p.id(), p.label())).to_vec())}
                </select>
            </div>
            <ModelBar/>
            // A real model's settings: split off, loaded when first chosen.
            {once_shown(move || st.model.get() == ModelChoice::Real, llm_settings)}
            <div class="buttons">
                <button class="primary" data-testid="step-button" title=step_title
                    disabled=waiting
                    on:click=move |_| effects::step()>{step_label}</button>
                <button data-testid="run-button" on:click=move |_| effects::run_all()>
                    {move || if st.loop_active.get() { "Run to the end" } else { "Run the whole loop" }}
                </button>
                <button data-testid="pause-button" disabled=move || !st.running.get()
                    on:click=move |_| effects::pause()>"Pause"</button>
                <button data-testid="reset-button" on:click=move |_| effects::reset()>"Reset"</button>
            </div>
            <p class="model-note">
                "The mock model is deterministic (no account, no network): it matches your words against tool names, titles and descriptions and fills the arguments from the schema. Playing the model, you answer or fill a tool's form (Tools panel). Either way the reply comes in the chosen API's exact format; a real LLM is called straight from your browser."
            </p>
        </div>
    }
}
