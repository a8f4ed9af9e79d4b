//! The top bar: what this is, and which server the page talks to.

use leptos::prelude::*;

use super::connect_bar::ConnectBar;
use crate::state::{Pin, use_app};

/// The protocol revision in use and its generation, from the first screen on: a
/// reader of an older spec sees at once which MCP this is.
fn revision_line() -> impl IntoView {
    let st = use_app();
    let text = move || {
        let how = match st.pin.get() {
            Pin::Auto => "negotiated on auto",
            Pin::Revision(_) => "pinned",
        };
        st.server.with(|s| match s {
            Some(s) => format!("MCP {} ({how}) · {}", s.protocol, s.generation),
            None => format!("MCP revision: not agreed yet ({how})"),
        })
    };
    view! { <p class="revision-line" data-testid="revision-line">{text}</p> }
}

/// Title, the connection bar and the revision in use.
#[component]
pub fn Header() -> impl IntoView {
    view! {
        <header class="top">
            <div class="brand">
                <h1>"MCP Playground"</h1>
                <p class="tagline">"How an LLM host uses tools over MCP, step by step"</p>
            </div>
            <ConnectBar/>
            {revision_line()}
        </header>
    }
}
