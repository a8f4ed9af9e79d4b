//! The Resources, Prompts and Logs panels as split functions (`wasm_split`,
//! `fallible`, as in `panels.rs`): their code is a wasm chunk fetched the first time
//! the tab opens, so the first load does not carry it.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use super::logs_panel::LogsPanel;
use super::once_shown::Loaded;
use super::prompts_panel::PromptsPanel;
use super::resources_panel::ResourcesPanel;
use super::skills_panel::SkillsPanel;

/// The Resources panel (lazy).
#[wasm_split(mcpg_resources_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn resources_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <ResourcesPanel/> }.into_any())
}

/// The Prompts panel (lazy).
#[wasm_split(mcpg_prompts_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn prompts_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <PromptsPanel/> }.into_any())
}

/// The Logs panel (lazy).
#[wasm_split(mcpg_logs_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn logs_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <LogsPanel/> }.into_any())
}

/// The Skills panel (lazy).
#[wasm_split(mcpg_skills_panel, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn skills_panel() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <SkillsPanel/> }.into_any())
}
