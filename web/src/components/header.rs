//! The top bar: what this is, and which server the page talks to.

use leptos::prelude::*;

use super::connect_bar::ConnectBar;

/// Title and the connection bar.
#[component]
pub fn Header() -> impl IntoView {
    view! {
        <header class="top">
            <div class="brand">
                <h1>"MCP Playground"</h1>
                <p class="tagline">
                    "See how an LLM host uses tools over the Model Context Protocol, one step at a time."
                </p>
            </div>
            <ConnectBar/>
        </header>
    }
}
