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
                <p class="tagline">"How an LLM host uses tools over MCP, step by step"</p>
            </div>
            <ConnectBar/>
        </header>
    }
}
