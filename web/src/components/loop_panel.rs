//! The tool loop: the learner's message, the controls, and the six steps as they
//! happen, each marked as travelling over MCP or happening inside the host.

use leptos::prelude::*;

use super::answer::Answer;
use super::conversation::Conversation;
use super::loop_controls::LoopControls;
use leptos::wasm_split::wasm_split;

use super::oauth_panel::oauth_panel;
use super::once_shown::{Loaded, once_shown};
use super::play_box::PlayBox;
use super::server_asks::ServerAsks;
use super::step_card::StepCard;
use crate::model_state::ModelChoice;
use crate::state::use_app;
use mcpg_page::AskPlace;

/// The left column.
#[component]
pub fn LoopPanel() -> impl IntoView {
    let st = use_app();
    view! {
        <section id="loop" class="panel loop" aria-labelledby="loop-title">
            <h2 id="loop-title">"The tool loop"</h2>
            <p class="legend">
                <span class="badge mcp">"over MCP"</span>
                " steps 1, 4, 5 cross the wire between host and server. "
                <span class="badge host">"inside the host"</span>
                " steps 2, 3, 6 never touch MCP."
            </p>
            // Only once a server wants authorization (a split chunk: the OAuth flow).
            {once_shown(move || st.auth.with(Option::is_some), oauth_panel)}
            <LoopControls/>
            <ol class="steps" data-testid="steps" aria-live="polite">
                <For
                    each=move || st.steps.get().into_iter().enumerate()
                    key=|(i, s)| (*i, s.status as u8, s.blocks.len(), s.explanation.len())
                    let((i, step))
                >
                    <StepCard step=step index=i/>
                </For>
            </ol>
            // Only once a server asks the host something outside a loop's call (a
            // split chunk); questions asked during a call are nested in its step 4.
            {once_shown(move || st.asks.with(|a| a.iter().any(|a| a.place == AskPlace::Connection)), server_asks)}
            // Only for a learner playing the model; it previews replies in the
            // provider's format, code the first screen does not need.
            {once_shown(move || st.model.get() == ModelChoice::Play, play_box)}
            <Conversation/>
            <Answer/>
        </section>
    }
}

/// "The server asks" (lazy: fetched when a server first asks).
#[wasm_split(mcpg_server_asks, wasm_split_path = ::leptos::wasm_split, fallible)]
fn server_asks() -> Loaded {
    Ok(view! { <ServerAsks/> }.into_any())
}

/// The play box (lazy).
#[wasm_split(mcpg_play_box, wasm_split_path = ::leptos::wasm_split, fallible)]
fn play_box() -> Loaded {
    Ok(view! { <PlayBox/> }.into_any())
}
