//! The whole page: header, notice, the loop on the left, the panels on the right.

use leptos::prelude::*;

use super::header::Header;
use super::loop_panel::LoopPanel;
use super::notice_bar::NoticeBar;
use super::panels::Panels;
use crate::effects;
use crate::state::AppState;

/// The app root: creates the state, opens the connection the URL asks for.
#[component]
pub fn App() -> impl IntoView {
    let st = AppState::new();
    provide_context(st);
    effects::load_bridge(st);
    effects::llm::load_keys(st);
    effects::connect(st, effects::source_from_url());
    view! {
        <a class="skip" href="#loop">"Skip to the tool loop"</a>
        <Header/>
        <NoticeBar/>
        <main class="layout">
            <LoopPanel/>
            <Panels/>
        </main>
    }
}
