//! The tool list of a big server, windowed: its rows come in blocks, and a block's
//! rows are in the document only while the block is near the screen; elsewhere an
//! empty block of the same height holds its place. A server with 10,000 tools
//! puts a few hundred rows in the document, not 80,000 nodes, and a page that
//! arrives or a filter keystroke rebuilds only what is on screen (issue #33: the
//! plain list rebuilt every row on every page and keystroke). Small lists stay
//! in the first screen's plain list ([`super::tools_panel`]).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use leptos::html::Ul;
use leptos::prelude::*;
use mcpg_core::model::Tool;
use mcpg_loop_data::PageRecord;
use mcpg_text::case::to_lower;

use super::tool_match::{matches, page_heading};
use super::tool_row::ToolRow;
use crate::effects::in_view::{self, Watch};
use crate::state::use_app;

/// Rows per block: a screen or two.
const BLOCK: usize = 20;
/// A row's height before any was measured (the side panel's rows, with a
/// description wrapping once or twice).
const ROW_PX: f64 = 110.0;
/// How far off screen a block is rendered already, so that scrolling finds rows.
const MARGIN_PX: u32 = 600;

/// Which block: its page's number and its place in that page's matching tools.
type Key = (u32, usize);

/// What the blocks remember across rebuilds: which were on screen, so that a
/// rebuild (a page arriving, a keystroke) renders those at once and nothing
/// flickers, and each one's measured height.
#[derive(Clone, Copy)]
struct Memory {
    seen: StoredValue<HashMap<Key, bool>>,
    heights: StoredValue<HashMap<Key, f64>>,
    /// A row's height as last measured: the guess for blocks never seen.
    row_px: StoredValue<f64>,
}

/// The windowed list of every page's tools matching `filter`.
#[component]
pub fn ToolWindow(
    /// The Tools panel's filter text.
    filter: RwSignal<String>,
) -> impl IntoView {
    let st = use_app();
    let memory = Memory {
        // The first block of the first page starts on screen.
        seen: StoredValue::new(HashMap::from([((1, 0), true)])),
        heights: StoredValue::new(HashMap::new()),
        row_px: StoredValue::new(ROW_PX),
    };
    let matching = Memo::new(move |_| {
        let f = to_lower(&filter.get());
        st.pages.with(|p| {
            p.iter()
                .map(|p| p.tools.iter().filter(|t| matches(t, &f)).count())
                .sum::<usize>()
        })
    });
    // One entry per page: its number, what it holds and the filter. A page that
    // arrives adds one section; the sections already shown stay as they are (with
    // 10,000 tools, rebuilding every section on each of 101 pages made the listing
    // take seconds).
    let sections = move || {
        let f = to_lower(&filter.get());
        st.pages.with(|pages| {
            pages
                .iter()
                .map(|p| (p.page, fingerprint(p), f.clone()))
                .collect::<Vec<_>>()
        })
    };
    view! {
        <div data-testid="tool-window" data-matching=move || matching.get().to_string()>
            <For each=sections key=|k| k.clone() let((page, _, f))>
                <PageSection page f memory/>
            </For>
        </div>
    }
}

/// What a page holds, in one number: a page fetched again with the same tools
/// keeps its section.
fn fingerprint(page: &PageRecord) -> u64 {
    let mut h = DefaultHasher::new();
    page.next_cursor.hash(&mut h);
    for t in page.tools.iter() {
        t.name.hash(&mut h);
        t.title.hash(&mut h);
        t.description.hash(&mut h);
        t.output_schema.is_some().hash(&mut h);
        t.annotations
            .as_ref()
            .map(|a| {
                (
                    a.read_only_hint,
                    a.destructive_hint,
                    a.idempotent_hint,
                    a.open_world_hint,
                )
            })
            .hash(&mut h);
    }
    h.finish()
}

/// One page's section: its boundary line and its matching tools in blocks.
#[component]
fn PageSection(
    /// The page's number.
    page: u32,
    /// The filter, lower-cased.
    f: String,
    memory: Memory,
) -> impl IntoView {
    let st = use_app();
    let found = st.pages.with_untracked(|pages| {
        pages.iter().find(|p| p.page == page).map(|p| {
            let tools: Vec<Tool> = p.tools.iter().filter(|t| matches(t, &f)).cloned().collect();
            (page_heading(p), tools)
        })
    });
    // A page without a match says nothing while filtering: ten headings would push
    // the matches off the screen.
    let (heading, tools) = found.filter(|(_, t)| !t.is_empty() || f.is_empty())?;
    let blocks = tools
        .chunks(BLOCK)
        .enumerate()
        .map(|(i, rows)| view! { <ToolBlock key=(page, i) tools=rows.to_vec() memory/> })
        .collect_view();
    Some(view! {
        <section class="page" data-testid="tools-page" data-page=page.to_string()>
            <h3 class="page-boundary">{heading}</h3>
            {blocks}
        </section>
    })
}

/// One block of rows, rendered while near the screen.
#[component]
fn ToolBlock(key: Key, tools: Vec<Tool>, memory: Memory) -> impl IntoView {
    let rows = tools.len();
    // `try_`: a page arriving can rebuild the blocks once more while the whole
    // list is being replaced by the plain one, after `memory` is gone.
    let guess = rows as f64 * memory.row_px.try_get_value().unwrap_or(ROW_PX);
    let seen = RwSignal::new(
        memory
            .seen
            .try_with_value(|s| s.get(&key).copied().unwrap_or(false))
            .unwrap_or(false),
    );
    let height = RwSignal::new(
        memory
            .heights
            .try_with_value(|h| h.get(&key).copied())
            .flatten()
            .unwrap_or(guess),
    );
    let node = NodeRef::<Ul>::new();
    let watch = StoredValue::new_local(None::<Watch>);
    Effect::new(move |_| {
        let Some(el) = node.get() else { return };
        let measured = el.clone();
        // The panel that scrolls the list, so that the margin reaches beyond its edge.
        let panel = el.closest(".panel").ok().flatten();
        let w = in_view::watch(&el, panel.as_ref(), MARGIN_PX, move |on_screen| {
            // `try_`: the observer can report once more while the list is being
            // replaced, after this block's signals are gone.
            if !on_screen && seen.try_get_untracked() == Some(true) {
                // Measured before its rows go, so that its place keeps its size,
                // and the guess for blocks never seen follows the rows measured.
                let h = measured.get_bounding_client_rect().height();
                height.try_set(h);
                memory.heights.try_update_value(|m| {
                    m.insert(key, h);
                });
                if rows > 0 {
                    memory.row_px.try_set_value(h / rows as f64);
                }
            }
            memory.seen.try_update_value(|s| {
                s.insert(key, on_screen);
            });
            seen.try_set(on_screen);
        });
        if w.is_none() {
            // No observer in this browser: the rows, always.
            seen.set(true);
        }
        watch.set_value(w);
    });
    let tools = StoredValue::new(tools);
    view! {
        <ul class="tool-list" node_ref=node
            style:min-height=move || (!seen.get()).then(|| format!("{}px", height.get()))>
            {move || seen.get().then(|| tools.get_value().into_iter().map(|tool| view! { <ToolRow tool/> }).collect_view())}
        </ul>
    }
}
