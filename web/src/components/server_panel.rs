//! What the server said about itself, what was negotiated, and the revision chooser
//! (auto, or one of the five revisions: switching reconnects, so the wire shows the
//! difference, e.g. 2025-11-25's `initialize` against 2026-07-28's `server/discover`).

use leptos::prelude::*;
use mcpg_core::ProtocolVersion;

use super::doctor_view::DoctorView;
use crate::effects;
use crate::state::{Pin, use_app};

/// Name, version, protocol revision and generation, capabilities, instructions.
#[component]
pub fn ServerPanel() -> impl IntoView {
    let st = use_app();
    let field = move |f: fn(&crate::state::ServerInfo) -> String| {
        move || st.server.with(|s| s.as_ref().map(f).unwrap_or_default())
    };
    let choices = std::iter::once(Pin::Auto)
        .chain(ProtocolVersion::ALL.into_iter().rev().map(Pin::Revision))
        .map(|p| {
            let label = match p {
                Pin::Auto => "auto (negotiate the newest both speak)".to_owned(),
                Pin::Revision(v) => format!("{} only", v.as_str()),
            };
            view! { <option value=p.id()>{label}</option> }
        })
        .collect_view();
    view! {
        <div class="server" data-testid="server-panel">
            <label for="revision">"Protocol revision"</label>
            <select id="revision" data-testid="revision-select"
                prop:value=move || st.pin.get().id()
                on:change=move |ev| effects::set_pin(Pin::from_id(&event_target_value(&ev)))>
                {choices}
            </select>
            <Show when=move || st.server.with(Option::is_some)
                fallback=|| view! { <p class="empty">"Not connected yet."</p> }>
                <dl>
                    <dt>"Name"</dt><dd data-testid="server-name">{field(|s| s.name.clone())}</dd>
                    <dt>"Version"</dt><dd>{field(|s| s.version.clone())}</dd>
                    <dt>"Title"</dt><dd>{field(|s| s.title.clone().unwrap_or_else(|| "(none)".into()))}</dd>
                    <dt>"Protocol revision"</dt><dd data-testid="server-protocol">{field(|s| s.protocol.clone())}</dd>
                    <dt>"Generation"</dt><dd>{field(|s| s.generation.clone())}</dd>
                    <dt>"Transport"</dt><dd data-testid="server-transport">{field(|s| s.transport.clone())}</dd>
                    <dt>"Instructions"</dt><dd class="prose">{field(|s| s.instructions.clone().unwrap_or_else(|| "(none)".into()))}</dd>
                </dl>
                <h3>"Capabilities"</h3>
                <pre tabindex="0" data-testid="server-capabilities">{field(|s| s.capabilities.clone())}</pre>
            </Show>
            <DoctorView/>
        </div>
    }
}
