//! The HTTP+SSE lesson's way between the two transports: the same demo, played in
//! this page, over the old HTTP+SSE transport or over Streamable HTTP, one press
//! each. (The connection bar's URL box reaches the same URLs typed by hand.) Part
//! of the lessons panel, so it loads with it, not with the first screen.

use leptos::prelude::*;
use mcpg_demo_sse::{MCP_URL, SSE_URL};

use crate::effects;
use crate::state::{Source, use_app};

/// Two buttons: connect to the in-page demo over each transport. The one in use
/// says so (`aria-pressed`); pressing it again reconnects.
#[component]
pub fn TransportSwitch() -> impl IntoView {
    let st = use_app();
    let button = move |url: &'static str, testid: &'static str, label: &'static str| {
        let pressed = move || st.source.with(|s| matches!(s, Source::Url(u) if u == url));
        view! {
            <button data-testid=testid aria-pressed=move || pressed().to_string()
                on:click=move |_| effects::connect(Source::Url(url.to_owned()))>
                {label}
            </button>
        }
    };
    view! {
        <div class="lesson-transports" role="group" aria-label="The demo in this page, over either transport"
            data-testid="lesson-transports">
            {button(SSE_URL, "lesson-connect-sse", "Connect over HTTP+SSE")}
            " "
            {button(MCP_URL, "lesson-connect-streamable", "Connect over Streamable HTTP")}
        </div>
    }
}
