//! One line saying where a paged listing stands (resources, templates, prompts).

use leptos::prelude::*;
use mcpg_page::features::view::ListState;

/// The line heading one page of a listing: its number, its size, and its cursor.
pub fn page_heading(page: u32, count: usize, what: &str, next: Option<&str>) -> String {
    let cursor = next.map_or_else(
        || "no nextCursor: the last page".to_owned(),
        |c| format!("nextCursor {c:?}"),
    );
    format!("Page {page} · {count} {what} · {cursor}")
}

/// Where the listing of `what` stands.
#[component]
pub fn ListStateLine(
    /// The listing's state.
    state: Signal<ListState>,
    /// What is listed, for the words.
    what: &'static str,
) -> impl IntoView {
    let text = move || match state.get() {
        ListState::Idle => format!("No {what} listed yet."),
        ListState::Listing => format!("Listing {what}…"),
        ListState::Done => format!("Every page of {what} arrived."),
        ListState::Failed(e) => format!("Listing {what} stopped: {e}"),
        ListState::Undeclared(why) => format!("No {what}: {why}."),
    };
    let class = move || match state.get() {
        ListState::Failed(_) => "hint bad",
        _ => "hint",
    };
    view! { <p class=class data-testid=format!("{what}-state") role="status">{text}</p> }
}
