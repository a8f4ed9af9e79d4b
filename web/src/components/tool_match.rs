//! What the Tools panel's two lists share: which tools a filter keeps, and how a
//! page's boundary reads.

use mcpg_core::model::Tool;
use mcpg_loop_data::PageRecord;
use mcpg_text::case::to_lower;

/// Whether `tool` matches the lower-cased filter `f`: its name, title or
/// description contains it.
pub fn matches(tool: &Tool, f: &str) -> bool {
    f.is_empty()
        || to_lower(&tool.name).contains(f)
        || to_lower(tool.display_name()).contains(f)
        || to_lower(tool.description.as_deref().unwrap_or("")).contains(f)
}

/// A page's boundary line: its number, its size and its cursor.
pub fn page_heading(page: &PageRecord) -> String {
    let cursor = page.next_cursor.as_ref().map_or_else(
        || "no nextCursor: the last page".to_owned(),
        |c| format!("nextCursor {c:?}: the host must ask for the next page"),
    );
    format!("Page {} · {} tools · {cursor}", page.page, page.tools.len())
}
