//! Every tool of every page, with the page boundaries visible (the pagination
//! lesson), a filter, titles and annotations.

use leptos::either::Either;
use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use mcpg_text::case::to_lower;

use super::once_shown::{Loaded, once_shown};
use super::tool_match::{matches, page_heading};
use super::tool_row::ToolRow;
use super::tool_window::ToolWindow;
use crate::effects;
use crate::state::use_app;

/// Above this many tools, or at this many with more pages to come, the list is
/// windowed ([`ToolWindow`], loaded then): the plain list below rebuilds every row
/// on each page and keystroke. At 300 that cost the main thread 45-70 ms for each
/// of a 100-tool-page server's second to fourth pages (measured, issue #33), and
/// the next page's answer waited for it; a windowed page cost 10-20 ms.
const WINDOW_FROM: usize = 100;

/// The windowed list (lazy: only big servers need it).
#[wasm_split(mcpg_tool_window, wasm_split_path = ::leptos::wasm_split, fallible)]
fn tool_window(filter: RwSignal<String>) -> Loaded {
    Ok(view! { <ToolWindow filter/> }.into_any())
}

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
    // Once windowed, a list fetched again stays windowed while its pages come
    // (a relist replaces the pages one by one, from the first). A list that
    // reaches the limit with more pages to come is windowed at once: a server
    // paging by 100 had its first page built as 100 plain rows and torn down at
    // the second (~45 ms of the main thread, which the next page waited for).
    let big = Memo::new(move |was: Option<&bool>| {
        let (n, more) = st.pages.with(|p| {
            let n = p.iter().map(|p| p.tools.len()).sum::<usize>();
            (n, p.last().is_some_and(|l| l.next_cursor.is_some()))
        });
        n > WINDOW_FROM || (n == WINDOW_FROM && more) || (n > 0 && was.copied().unwrap_or(false))
    });
    let plain =
        move || {
            let f = to_lower(&filter.get());
            st.pages.get().into_iter().map(move |page| {
            let heading = page_heading(&page);
            let rows = page
                .tools
                .iter()
                .filter(|t| matches(t, &f))
                .map(|t| view! { <ToolRow tool=t.clone()/> })
                .collect_view();
            view! {
                <section class="page" data-testid="tools-page" data-page=page.page.to_string()>
                    <h3 class="page-boundary">{heading}</h3>
                    <ul class="tool-list">{rows}</ul>
                </section>
            }
        }).collect_view()
        };
    let pages = move || {
        if big.get() {
            Either::Left(once_shown(|| true, move || tool_window(filter)))
        } else {
            Either::Right(plain)
        }
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
