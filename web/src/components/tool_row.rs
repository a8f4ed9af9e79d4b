//! One tool: name, title, description and annotations, all as text (a server's
//! description can hold anything, including markup meant to run: it stays text).

use leptos::prelude::*;
use mcpg_core::model::Tool;

use crate::state::{Tab, use_app};

fn hints(t: &Tool) -> Vec<&'static str> {
    let Some(a) = &t.annotations else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if a.read_only_hint == Some(true) {
        out.push("read-only");
    }
    if a.destructive_hint == Some(true) {
        out.push("destructive");
    }
    if a.idempotent_hint == Some(true) {
        out.push("idempotent");
    }
    if a.open_world_hint == Some(true) {
        out.push("open world");
    }
    if a.read_only_hint == Some(false) {
        out.push("changes things");
    }
    out
}

/// A tool row with a button to fill its form.
#[component]
pub fn ToolRow(
    /// The tool, as the server listed it.
    tool: Tool,
) -> impl IntoView {
    let st = use_app();
    let badges = hints(&tool)
        .into_iter()
        .map(|h| view! { <span class="hint-badge">{h}</span> })
        .collect_view();
    let title = tool.display_name().to_owned();
    let show_title = title != tool.name;
    let name = tool.name.clone();
    let name_attr = name.clone();
    let description = tool.description.clone().unwrap_or_default();
    let has_output = tool.output_schema.is_some();
    let stored = StoredValue::new(tool);
    view! {
        <li class="tool" data-testid="tool-row" data-tool=name_attr>
            <div class="tool-head">
                <code class="tool-name" data-testid="tool-name">{name}</code>
                // Fixed for the row's life: plain options, not reactive `<Show>`s.
                {show_title.then(|| view! { <span class="tool-title">{title}</span> })}
                {has_output.then(|| view! { <span class="hint-badge">"outputSchema"</span> })}
            </div>
            <p class="tool-desc" data-testid="tool-description">{description}</p>
            <div class="tool-foot">
                <span class="badges">{badges}</span>
                <button class="quiet" data-testid="tool-use" on:click=move |_| {
                    st.form_seed.set(None);
                    st.form_tool.set(Some(stored.get_value()));
                    st.tab.set(Tab::Form);
                }>"Fill its form"</button>
            </div>
        </li>
    }
}
