//! The right column: Tools, the tool form, Result, Server and the wire log, as tabs
//! (all stay mounted once shown, so a half-filled form survives a look at the wire
//! log).
//!
//! Only Tools is on the first screen. The other panels are `#[lazy]`: their code
//! sits in wasm chunks, fetched the first time their tab opens, so the first tool
//! list shows after fewer bytes on a slow link.

use leptos::lazy;
use leptos::prelude::*;

use super::loop_diagram::LoopDiagram;
use super::once_shown::once_shown;
use super::result_panel::ResultPanel;
use super::server_panel::ServerPanel;
use super::tool_form::ToolForm;
use super::tools_panel::ToolsPanel;
use super::wire_log::WireLog;
use crate::state::{Tab, use_app};

const TABS: [(Tab, &str, &str); 5] = [
    (Tab::Tools, "tools", "Tools"),
    (Tab::Form, "form", "Call a tool"),
    (Tab::Result, "result", "Result"),
    (Tab::Server, "server", "Server"),
    (Tab::Wire, "wire", "Wire log"),
];

/// Tabs and their panels.
#[component]
pub fn Panels() -> impl IntoView {
    let st = use_app();
    let count = move |tab: Tab| match tab {
        Tab::Tools => st
            .pages
            .with(|p| p.iter().map(|p| p.tools.len()).sum::<usize>())
            .to_string(),
        Tab::Wire => st.log.with(|m| m.len as u64 + m.dropped).to_string(),
        _ => String::new(),
    };
    let tabs = TABS
        .iter()
        .map(|(tab, id, label)| {
            let tab = *tab;
            view! {
                <button role="tab" id=format!("tab-{id}") data-testid=format!("tab-{id}")
                    aria-controls=format!("panel-{id}")
                    aria-selected=move || if st.tab.get() == tab { "true" } else { "false" }
                    class:active=move || st.tab.get() == tab
                    on:click=move |_| st.tab.set(tab)>
                    {*label}
                    <span class="count">{move || count(tab)}</span>
                </button>
            }
        })
        .collect_view();
    let hidden = move |tab: Tab| move || st.tab.get() != tab;
    view! {
        <section class="panel side" aria-label="Panels">
            // The picture of the loop heads the sticky column, so it stays in sight
            // while the steps scroll by on the left.
            <LoopDiagram/>
            <div role="tablist" class="tabs" aria-label="Panels">{tabs}</div>
            <div role="tabpanel" id="panel-tools" aria-labelledby="tab-tools" hidden=hidden(Tab::Tools)>
                <ToolsPanel/>
            </div>
            <div role="tabpanel" id="panel-form" aria-labelledby="tab-form" hidden=hidden(Tab::Form)>
                {once_shown(move || st.tab.get() == Tab::Form, form_panel)}
            </div>
            <div role="tabpanel" id="panel-result" aria-labelledby="tab-result" hidden=hidden(Tab::Result)>
                {once_shown(move || st.tab.get() == Tab::Result, result_panel)}
            </div>
            <div role="tabpanel" id="panel-server" aria-labelledby="tab-server" hidden=hidden(Tab::Server)>
                {once_shown(move || st.tab.get() == Tab::Server, server_panel)}
            </div>
            <div role="tabpanel" id="panel-wire" aria-labelledby="tab-wire" hidden=hidden(Tab::Wire)>
                {once_shown(move || st.tab.get() == Tab::Wire, wire_panel)}
            </div>
        </section>
    }
}

/// The tool form (lazy).
#[lazy]
fn form_panel() -> AnyView {
    view! { <ToolForm/> }.into_any()
}

/// The Result panel (lazy).
#[lazy]
fn result_panel() -> AnyView {
    view! { <ResultPanel/> }.into_any()
}

/// The Server panel (lazy).
#[lazy]
fn server_panel() -> AnyView {
    view! { <ServerPanel/> }.into_any()
}

/// The wire log (lazy).
#[lazy]
fn wire_panel() -> AnyView {
    view! { <WireLog/> }.into_any()
}
