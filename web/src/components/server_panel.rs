//! What the server said about itself, and what was negotiated.

use leptos::prelude::*;

use crate::state::use_app;

/// Name, version, protocol revision and generation, capabilities, instructions.
#[component]
pub fn ServerPanel() -> impl IntoView {
    let st = use_app();
    let field = move |f: fn(&crate::state::ServerInfo) -> String| {
        move || st.server.with(|s| s.as_ref().map(f).unwrap_or_default())
    };
    view! {
        <div class="server" data-testid="server-panel">
            <Show when=move || st.server.with(Option::is_some)
                fallback=|| view! { <p class="empty">"Not connected yet."</p> }>
                <dl>
                    <dt>"Name"</dt><dd data-testid="server-name">{field(|s| s.name.clone())}</dd>
                    <dt>"Version"</dt><dd>{field(|s| s.version.clone())}</dd>
                    <dt>"Title"</dt><dd>{field(|s| s.title.clone().unwrap_or_else(|| "(none)".into()))}</dd>
                    <dt>"Protocol revision"</dt><dd data-testid="server-protocol">{field(|s| s.protocol.clone())}</dd>
                    <dt>"Generation"</dt><dd>{field(|s| s.generation.clone())}</dd>
                    <dt>"Instructions"</dt><dd class="prose">{field(|s| s.instructions.clone().unwrap_or_else(|| "(none)".into()))}</dd>
                </dl>
                <h3>"Capabilities"</h3>
                <pre data-testid="server-capabilities">{field(|s| s.capabilities.clone())}</pre>
            </Show>
        </div>
    }
}
