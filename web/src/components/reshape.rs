//! Step 2 in full, split off the first load: it reshapes the tools for the chosen
//! provider with `mcpg_host::provider::shape_tools`, code that only the loop (in its
//! own chunk, see `effects/later_kit.rs`) needs otherwise. It shows once a loop has
//! reached step 2, so its chunk is usually fetched by then.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use mcpg_core::model::Tool;
use mcpg_host::provider::shape_tools;
use serde_json::Value;

use super::lint_view::LintView;
use super::long_text::LongText;
use super::once_shown::Loaded;
use crate::state::{pretty, use_app};

/// Step 2's reshaping (lazy).
#[wasm_split(mcpg_reshape, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn reshape() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <Reshape/> }.into_any())
}

/// Step 2 in full: the MCP tools and the chosen provider's tools side by side,
/// every rewrite the host made, as plain text, and what the provider's API would
/// reject, rewrite or drop of the tools as the server wrote them (the lint). It follows the provider selector, so
/// switching provider reshapes the same tools at once.
#[component]
fn Reshape() -> impl IntoView {
    let st = use_app();
    let shaped = Memo::new(move |_| {
        let tools = st.all_tools();
        let provider = st.provider.get();
        let mcp = pretty(&Value::Array(tools.iter().map(Tool::to_json).collect()));
        let shaped = shape_tools(provider, &tools, false);
        let names: Vec<String> = shaped
            .names
            .changes()
            .iter()
            .map(|c| format!("{} → {}: {}", c.mcp, c.provider, c.reason))
            .collect();
        let schema: Vec<String> = shaped
            .schema_changes
            .iter()
            .map(|c| {
                let at = if c.path.is_empty() {
                    "/"
                } else {
                    c.path.as_str()
                };
                format!("{} {at}: {}", c.tool, c.what)
            })
            .collect();
        (provider.label(), mcp, pretty(&shaped.tools), names, schema)
    });
    let list = |title: &'static str, id: &'static str, items: Vec<String>| {
        (!items.is_empty()).then(|| {
            view! {
                <div class="rewrites" data-testid=id>
                    <h4>{title}</h4>
                    <ul>{items.into_iter().map(|i| view! { <li>{i}</li> }).collect_view()}</ul>
                </div>
            }
        })
    };
    move || {
        let (label, mcp, tools, names, schema) = shaped.get();
        view! {
            <div class="reshape" data-testid="reshape">
                <div class="reshape-col">
                    <h4>"MCP tools"</h4>
                    <LongText text=mcp class="reshape-json" testid="mcp-tools"/>
                </div>
                <div class="reshape-col">
                    <h4 data-testid="provider-tools-label">{format!("{label} tools")}</h4>
                    <LongText text=tools class="reshape-json" testid="provider-tools"/>
                </div>
            </div>
            {list("Names rewritten", "name-changes", names)}
            {list("Schema changes", "schema-changes", schema)}
            <LintView/>
        }
    }
}
