//! The right column: Tools, the tool form, Result, Server and the wire log, as tabs
//! (all stay mounted once shown, so a half-filled form survives a look at the wire
//! log).
//!
//! Only Tools is on the first screen. The other panels are split off (`wasm_split`, `fallible`): their code
//! sits in wasm chunks, fetched the first time their tab opens, so the first tool
//! list shows after fewer bytes on a slow link.

use std::future::Future;

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use super::feature_panels::{logs_panel, prompts_panel, resources_panel, skills_panel};
use super::later_parts;
use super::once_shown::{Loaded, later, once_shown};
use super::result_panel::ResultPanel;
use super::server_panel::ServerPanel;
use super::tool_form::ToolForm;
use super::tools_panel::ToolsPanel;
use super::wire_log::WireLog;
use crate::state::{Tab, use_app};

const TABS: [(Tab, &str, &str); 9] = [
    (Tab::Tools, "tools", "Tools"),
    (Tab::Form, "form", "Call a tool"),
    (Tab::Result, "result", "Result"),
    (Tab::Server, "server", "Server"),
    (Tab::Wire, "wire", "Wire log"),
    (Tab::Resources, "resources", "Resources"),
    (Tab::Prompts, "prompts", "Prompts"),
    (Tab::Skills, "skills", "Skills"),
    (Tab::Logs, "logs", "Logs"),
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
        Tab::Logs => st.features.logs.with(|l| match l.len() {
            0 => String::new(),
            n => n.to_string(),
        }),
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
            // From a chunk fetched right after the first tool list.
            {once_shown(later(), later_parts::diagram)}
            <div role="tablist" class="tabs" aria-label="Panels">{tabs}</div>
            <div role="tabpanel" id="panel-tools" aria-labelledby="tab-tools" hidden=hidden(Tab::Tools)>
                <ToolsPanel/>
            </div>
            {lazy_panel(Tab::Form, "form", form_panel)}
            {lazy_panel(Tab::Result, "result", result_panel)}
            {lazy_panel(Tab::Server, "server", server_panel)}
            {lazy_panel(Tab::Wire, "wire", wire_panel)}
            {lazy_panel(Tab::Resources, "resources", resources_panel)}
            {lazy_panel(Tab::Prompts, "prompts", prompts_panel)}
            {lazy_panel(Tab::Skills, "skills", skills_panel)}
            {lazy_panel(Tab::Logs, "logs", logs_panel)}
        </section>
    }
}

/// A tab's panel whose code is a split chunk: mounted the first time its tab
/// opens, then kept (a half-filled form survives a look elsewhere).
fn lazy_panel<F>(tab: Tab, id: &'static str, load: fn() -> F) -> impl IntoView
where
    F: Future<Output = Loaded> + 'static,
{
    let st = use_app();
    view! {
        <div role="tabpanel" id=format!("panel-{id}") aria-labelledby=format!("tab-{id}")
            hidden=move || st.tab.get() != tab>
            {once_shown(move || st.tab.get() == tab, load)}
        </div>
    }
}

/// The tool form (lazy).
#[wasm_split(mcpg_form_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
fn form_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <ToolForm/> }.into_any())
}

/// The Result panel (lazy).
#[wasm_split(mcpg_result_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
fn result_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <ResultPanel/> }.into_any())
}

/// The Server panel (lazy).
#[wasm_split(mcpg_server_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
fn server_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <ServerPanel/> }.into_any())
}

/// The wire log (lazy).
#[wasm_split(mcpg_bridge_api_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
fn wire_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <WireLog/> }.into_any())
}
