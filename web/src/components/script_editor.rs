//! The model script: a JSON list of model turns that new loops play instead of
//! asking the mock, so a demo runs the same way every time. Stored in shared sessions.

use leptos::prelude::*;
use mcpg_host::script::Script;

use crate::effects;
use crate::state::{pretty, use_app};

const EXAMPLE: &str = r#"[{"calls": [{"name": "get_weather", "arguments": {"city": "Austin"}}]}, {"answer": "It is 91F and sunny in Austin."}]"#;

/// A folded editor for the script.
#[component]
pub fn ScriptEditor() -> impl IntoView {
    let st = use_app();
    let text = RwSignal::new(String::new());
    let status = RwSignal::new(String::new());
    // Shows the script as set (by Apply, or by an opened session).
    Effect::new(move |_| {
        let turns = st.script.get();
        text.set(if turns.is_empty() {
            String::new()
        } else {
            pretty(&serde_json::Value::Array(turns))
        });
    });
    let apply = move |_| match Script::parse(&text.get_untracked()) {
        Ok(turns) => {
            status.set(if turns.is_empty() {
                "No script: the mock model answers.".to_owned()
            } else {
                format!(
                    "{} model turn(s): each new loop plays them in order, then the mock model takes over.",
                    turns.len()
                )
            });
            effects::set_script(turns);
        }
        Err(e) => status.set(format!("Not applied: {e}")),
    };
    view! {
        <details class="script" data-testid="script-editor">
            <summary>"Model script (make a demo run the same way every time)"</summary>
            <textarea data-testid="script-text" rows="6" placeholder=EXAMPLE aria-label="Model script (JSON)"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <button class="quiet" data-testid="script-apply" on:click=apply>"Apply script"</button>
            <p data-testid="script-status">{move || status.get()}</p>
        </details>
    }
}
