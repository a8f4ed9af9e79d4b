//! Every tool of every page, with the page boundaries visible (the pagination
//! lesson), a filter, titles and annotations.

use leptos::prelude::*;
use mcpg_text::case::to_lower;

use super::tool_row::ToolRow;
use crate::effects;
use crate::state::use_app;

/// The Tools panel.
#[component]
pub fn ToolsPanel() -> impl IntoView {
    let st = use_app();
    let filter = RwSignal::new(String::new());
    let summary = move || {
        st.pages.with(|p| {
            let tools: usize = p.iter().map(|p| p.tools.len()).sum();
            format!("{tools} tools in {} page(s)", p.len())
        })
    };
    let pages = move || {
        let f = to_lower(&filter.get());
        st.pages.get().into_iter().map(move |page| {
            let cursor = page.next_cursor.clone().map_or_else(
                || "no nextCursor: the last page".to_owned(),
                |c| format!("nextCursor {c:?}: the host must ask for the next page"),
            );
            let n = page.tools.len();
            let rows = page
                .tools
                .into_iter()
                .filter(|t| {
                    f.is_empty()
                        || to_lower(&t.name).contains(&f)
                        || to_lower(t.display_name()).contains(&f)
                        || to_lower(t.description.as_deref().unwrap_or("")).contains(&f)
                })
                .map(|t| view! { <ToolRow tool=t/> })
                .collect_view();
            view! {
                <section class="page" data-testid="tools-page" data-page=page.page.to_string()>
                    <h3 class="page-boundary">{format!("Page {} · {n} tools · {cursor}", page.page)}</h3>
                    <ul class="tool-list">{rows}</ul>
                </section>
            }
        }).collect_view()
    };
    view! {
        <div class="tools">
            <div class="tools-head">
                <label for="tools-filter" class="visually-hidden">"Filter tools"</label>
                <input id="tools-filter" type="search" placeholder="Filter by name, title or description"
                    data-testid="tools-filter"
                    prop:value=move || filter.get()
                    on:input=move |ev| filter.set(event_target_value(&ev))/>
                <span data-testid="tools-summary">{summary}</span>
                <button class="quiet" data-testid="tools-refresh" on:click=move |_| effects::list_tools()>"List again"</button>
            </div>
            <p class="hint">"tools/list is paginated: each page ends with a nextCursor until the last one. A host that reads only page 1 never sees the rest."</p>
            {pages}
        </div>
    }
}
