//! The whole page: header, notice, the loop on the left, the panels on the right.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use super::header::Header;
use super::later_parts;
use super::loop_panel::LoopPanel;
use super::notice_bar::NoticeBar;
use super::once_shown::{Loaded, later, once_shown, start_later};
use super::panels::Panels;
use super::presenter_view::PresenterView;
use super::replay_banner::replay_banner;
use crate::effects;
use crate::presenter::Presenter;
use crate::state::{AppState, Source};

/// The app root: creates the state, opens the connection the URL asks for.
#[component]
pub fn App() -> impl IntoView {
    let st = AppState::new();
    provide_context(st);
    let presenter = Presenter::new();
    provide_context(presenter);
    later_parts::register_later_kit();
    effects::start(st);
    effects::llm::load_keys(st);
    // A hosted page's bridge link (`#bridge=…&token=…`) is read and removed from the
    // address bar first, so it is never taken for a session link nor left visible.
    let bridge_notice = effects::take_bridge_address(st);
    // A session link opens as a replay (or, when bad, as a notice): then nothing
    // else is loaded or connected.
    let mut own_server = false;
    if !effects::share::open_from_hash() {
        effects::load_bridge(st);
        let source = effects::source_from_url();
        own_server = source != Source::Demo;
        effects::connect(source);
    }
    // The socket `boot.js` opened for `?server=` was adopted by that connection
    // just now, or nothing will adopt it.
    effects::close_boot_socket();
    start_later(st, own_server);
    // After the first connection opened, which clears the notice.
    if let Some(text) = bridge_notice {
        effects::show_notice(text);
    }
    effects::share::listen();
    view! {
        <a class="skip" href="#loop">"Skip to the tool loop"</a>
        <Header/>
        <NoticeBar/>
        // Only while a shared session is replayed (a split chunk).
        {once_shown(move || st.replay.with(Option::is_some), replay_banner)}
        // The lessons and the share bar come from chunks fetched right after the
        // first tool list (a `#lesson=` link is followed once the panel is in).
        {once_shown(later(), later_parts::lessons)}
        <main class="layout">
            <LoopPanel/>
            <Panels/>
        </main>
        // Below the loop: the loop is what a learner comes for, so it gets the top of
        // the screen (a replay's banner still shows above it).
        {once_shown(later(), later_parts::share)}
        // Over everything else while presenter mode is on (the rest is hidden then).
        // Lazy: its code loads the first time presenter mode opens.
        {once_shown(move || presenter.on.get(), presenter_view)}
    }
}

/// Presenter mode's screen (lazy).
#[wasm_split(mcpg_presenter_view, wasm_split_path = ::leptos::wasm_split, fallible)]
fn presenter_view() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <PresenterView/> }.into_any())
}
