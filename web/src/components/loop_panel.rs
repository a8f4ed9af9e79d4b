//! The tool loop's column: its title, the legend that tells MCP steps from host
//! steps, the authorization panel, and the loop itself ([`super::loop_body`]), which
//! comes right after the first tool list.

use leptos::prelude::*;

use super::later_parts;
use super::oauth_panel::oauth_panel;
use super::once_shown::{later, once_shown};
use crate::state::use_app;

/// The left column.
#[component]
pub fn LoopPanel() -> impl IntoView {
    let st = use_app();
    view! {
        <section id="loop" class="panel loop" aria-labelledby="loop-title">
            <h2 id="loop-title">"The tool loop"</h2>
            <p class="legend">
                "Each step card is marked "
                <span class="badge mcp">"over MCP"</span>
                " when it crosses the wire between host and server, or "
                <span class="badge host">"inside the host"</span>
                " when it never touches MCP."
            </p>
            // Only once a server wants authorization (a split chunk: the OAuth flow).
            // In the first load's code: a server may answer 401 before any tool list.
            {once_shown(move || st.auth.with(Option::is_some), oauth_panel)}
            // The controls and the steps, with the later parts that run them.
            {once_shown(later(), later_parts::loop_body)}
        </section>
    }
}
