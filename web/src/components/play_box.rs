//! Playing the model at step 3 or 6: answer in words (and see the reply JSON it
//! makes in the chosen format), or call a tool through the Tools panel's form.

use leptos::prelude::*;
use mcpg_host::provider::{ModelTurn, NameMap, Provider, RequestOptions, reply_for};

use crate::effects;
use crate::model_state::ModelChoice;
use crate::state::{Tab, pretty, use_app};

/// The reply a turn the learner wrote makes in `provider`'s exact format (shown
/// before it is sent, here and under the tool form).
pub fn reply_preview(provider: Provider, turn: &ModelTurn, names: &NameMap) -> String {
    let opts = RequestOptions {
        model: "you".into(),
        ..Default::default()
    };
    pretty(&reply_for(provider, &opts, turn, names))
}

/// The learner's turn as the model.
#[component]
pub fn PlayBox() -> impl IntoView {
    let st = use_app();
    let text = RwSignal::new(String::new());
    let waiting = move || {
        st.model.get() == ModelChoice::Play
            && st.loop_active.get()
            && !st.running.get()
            && matches!(st.next_step.get(), Some(3 | 6))
    };
    let preview = move || {
        reply_preview(
            st.provider.get(),
            &ModelTurn::Answer { text: text.get() },
            &NameMap::default(),
        )
    };
    view! {
        <Show when=waiting>
            <div class="play-box" data-testid="play-box">
                <h3>"Your turn as the model (step "{move || st.next_step.get().unwrap_or(3)}")"</h3>
                <label for="play-answer">"Answer in words (no tool call)"</label>
                <textarea id="play-answer" data-testid="play-answer" rows="2"
                    prop:value=move || text.get()
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
                <details class="json">
                    <summary>"The reply this makes, in the chosen API's format"</summary>
                    <pre tabindex="0" data-testid="play-preview">{preview}</pre>
                </details>
                <div class="buttons">
                    <button class="primary" data-testid="play-send"
                        disabled=move || text.with(|t| t.trim().is_empty())
                        on:click=move |_| effects::play_answer(text.get_untracked())>"Answer with this text"</button>
                    <button data-testid="play-tool" on:click=move |_| st.tab.set(Tab::Tools)>
                        "Or call a tool: pick one in the Tools panel"
                    </button>
                </div>
            </div>
        </Show>
    }
}
