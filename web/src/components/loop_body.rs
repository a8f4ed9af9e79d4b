//! The tool loop's working part: the controls, the six steps as they happen, the
//! server's questions, the play box, the conversation and the answer.
//!
//! It comes with the later chunk (`later_parts`), fetched right after the first
//! tool list: the loop runs on the later parts from that same chunk, so its controls
//! show when they can work, and their code is not in the bytes a learner waits for
//! before the first tool list.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use super::answer::Answer;
use super::app_views::AppViews;
use super::conversation::Conversation;
use super::loop_controls::LoopControls;
use super::once_shown::{Loaded, once_shown};
use super::play_box::PlayBox;
use super::server_asks::ServerAsks;
use super::step_bar::StepBar;
use super::step_card::StepCard;
use crate::effects;
use crate::model_state::ModelChoice;
use crate::presenter::Presenter;
use crate::state::use_app;
use mcpg_page::AskPlace;

/// Controls, steps and what follows them.
#[component]
pub fn LoopBody() -> impl IntoView {
    let st = use_app();
    // Presenter mode's keys drive these steps, so they come with them (this part
    // is mounted once and kept).
    if let Some(presenter) = use_context::<Presenter>() {
        effects::picture::listen_keys(st, presenter);
    }
    effects::mark_loop_ready();
    view! {
        <LoopControls/>
        <ol class="steps" data-testid="steps" aria-live="polite">
            <For
                each=move || st.steps.get().into_iter().enumerate()
                key=|(i, s)| (*i, s.status as u8, s.blocks.len(), s.explanation.len(), s.choices.len())
                let((i, step))
            >
                <StepCard step=step index=i/>
            </For>
        </ol>
        <AppViews/>
        // Only once a server asks the host something outside a loop's call (a
        // split chunk); questions asked during a call are nested in its step 4.
        {once_shown(move || st.asks.with(|a| a.iter().any(|a| a.place == AskPlace::Connection)), server_asks)}
        // Only for a learner playing the model; it previews replies in the
        // provider's format, code the first screen does not need.
        {once_shown(move || st.model.get() == ModelChoice::Play, play_box)}
        <Conversation/>
        <Answer/>
        <StepBar/>
    }
}

/// "The server asks" (lazy: fetched when a server first asks).
#[wasm_split(mcpg_server_asks, wasm_split_path = ::leptos::wasm_split, fallible)]
fn server_asks() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <ServerAsks/> }.into_any())
}

/// The play box (lazy).
#[wasm_split(mcpg_play_box, wasm_split_path = ::leptos::wasm_split, fallible)]
fn play_box() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <PlayBox/> }.into_any())
}
