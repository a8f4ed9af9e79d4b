//! Reading one `tools/list` page, without the session: a pure function from the
//! result JSON and what the listing knows so far to a typed page with its
//! diagnostics, and another to the next step. `listing.rs` applies both.

use std::collections::HashSet;
use std::sync::Arc;

use serde_json::Value;

use super::param_headers::{self, ParamHeader};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::model::Tool;
use crate::validate;
use crate::version::{Generation, ProtocolVersion};

/// What the reader needs to know about the listing so far.
pub(super) struct PageContext<'a> {
    /// The revision in use (decides which checks and `x-mcp-header` apply).
    pub version: ProtocolVersion,
    /// This page's number, counting from 1.
    pub page: u32,
    /// Tool names on the earlier pages of this listing.
    pub seen: &'a HashSet<String>,
    /// The page's wire text, attached to the per-tool and shape diagnostics.
    pub raw: Arc<str>,
}

/// One page, read.
#[derive(Debug, Default)]
pub(super) struct ListPage {
    /// The tools that can be used, in the server's order.
    pub tools: Vec<Tool>,
    /// Their names, first occurrence only (to extend the listing's seen set).
    pub names: HashSet<String>,
    /// `x-mcp-header` annotations of the tools that have any (2026-07-28).
    pub specs: Vec<(String, Vec<ParamHeader>)>,
    /// Tools left out for invalid `x-mcp-header` annotations, with the reason.
    pub dropped: Vec<(String, String)>,
    /// Where the next page starts; `None` ends the listing.
    pub next_cursor: Option<String>,
    /// Everything worth saying about the page, in the order it is found.
    pub diags: Vec<Diagnostic>,
}

/// What the listing does after a page.
#[derive(Debug, PartialEq)]
pub(super) enum NextStep {
    /// No `nextCursor`: the listing is complete.
    Done,
    /// Ask for the page at this cursor.
    Fetch(String),
    /// Stop with this failure (already worded for the diagnostic and the event).
    Stop(Rule, String),
}

/// Reads a `tools/list` result. `Err` is the diagnostic for a result that is not an
/// object at all, which fails the listing.
pub(super) fn read_page(result: &Value, cx: &PageContext<'_>) -> Result<ListPage, Diagnostic> {
    let Some(obj) = result.as_object() else {
        return Err(Diagnostic::new(
            Rule::ResultShape,
            Severity::Error,
            "tools/list result is not an object",
        )
        .with_raw(cx.raw.clone()));
    };
    let mut page = ListPage::default();
    match obj.get("tools") {
        Some(Value::Array(items)) => {
            for (i, item) in items.iter().enumerate() {
                read_tool(i, item, cx, &mut page);
            }
        }
        other => page.diags.push(Diagnostic::new(
            Rule::ResultShape,
            Severity::Error,
            format!(
                "tools/list result has {} instead of a \"tools\" array",
                other.map_or("nothing", validate::kind_of)
            ),
        )),
    }
    for d in &mut page.diags {
        d.raw = Some(cx.raw.clone());
    }
    // The cursor diagnostics carry no raw text: the page's own diagnostics already do.
    page.next_cursor = read_cursor(obj, &mut page.diags);
    Ok(page)
}

/// Reads a page's `nextCursor`: a string, or the end (with a diagnostic when it
/// is neither a string nor absent, or an empty string).
pub(super) fn read_cursor(
    obj: &serde_json::Map<String, Value>,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let next = match obj.get("nextCursor") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) => Some(c.clone()),
        Some(other) => {
            diags.push(Diagnostic::new(
                Rule::ResultShape,
                Severity::Error,
                format!(
                    "nextCursor is {}, not a string; treating this page as the last",
                    validate::kind_of(other)
                ),
            ));
            None
        }
    };
    if next.as_deref() == Some("") {
        diags.push(Diagnostic::new(Rule::RepeatingCursor, Severity::Warning, "nextCursor is an empty string; treating this page as the last (omit nextCursor to end a list)"));
        return None;
    }
    next
}

/// Reads `tools[i]` into `page`: kept, dropped, or skipped with a diagnostic.
fn read_tool(i: usize, item: &Value, cx: &PageContext<'_>, page: &mut ListPage) {
    let t = match Tool::from_json(item) {
        Ok(t) => t,
        Err(e) => {
            return page.diags.push(Diagnostic::new(
                Rule::ToolShape,
                Severity::Error,
                format!(
                    "tools[{i}] on page {} could not be read and was skipped: {e}",
                    cx.page
                ),
            ));
        }
    };
    // `x-mcp-header` exists from 2026-07-28 on; older revisions never read it.
    if cx.version.generation() == Generation::Stateless {
        match param_headers::annotations(&t.input_schema) {
            Ok(found) if found.is_empty() => {}
            Ok(found) => page.specs.push((t.name.clone(), found)),
            Err(why) => {
                page.diags.push(Diagnostic::new(
                    Rule::ParamHeader,
                    Severity::Error,
                    format!(
                        "left out tool {:?}: {why} (clients must exclude tools with invalid x-mcp-header annotations)",
                        t.name
                    ),
                ));
                page.dropped.push((t.name.clone(), why));
                return;
            }
        }
    }
    validate::check_tool(&t, cx.version, &mut page.diags);
    if cx.seen.contains(&t.name) || !page.names.insert(t.name.clone()) {
        page.diags.push(validate::duplicate_name(&t.name));
    }
    page.tools.push(t);
}

/// Decides what follows a page of `method`: `cursors` are those already followed
/// in this listing, `pages` how many pages were read, `max_pages` the configured limit.
pub(super) fn next_step(
    method: &str,
    next: Option<&str>,
    cursors: &HashSet<String>,
    pages: u32,
    max_pages: u32,
) -> NextStep {
    match next {
        None => NextStep::Done,
        Some(c) if cursors.contains(c) => NextStep::Stop(
            Rule::RepeatingCursor,
            format!(
                "{method} returned cursor {:?} a second time (page {pages}); stopping instead of looping forever",
                validate::truncate(c, 60),
            ),
        ),
        Some(_) if pages >= max_pages => NextStep::Stop(
            Rule::TooManyPages,
            format!("{method} still had more after {pages} pages; stopping (limit {max_pages})"),
        ),
        Some(c) => NextStep::Fetch(c.to_owned()),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn cx(seen: &HashSet<String>, version: ProtocolVersion) -> PageContext<'_> {
        PageContext {
            version,
            page: 2,
            seen,
            raw: Arc::from("raw"),
        }
    }

    fn rules(p: &ListPage) -> Vec<Rule> {
        p.diags.iter().map(|d| d.rule).collect()
    }

    #[test]
    fn a_result_that_is_not_an_object_fails_the_page() {
        let seen = HashSet::new();
        let d = read_page(&json!([1]), &cx(&seen, ProtocolVersion::V2025_06_18)).unwrap_err();
        assert_eq!(d.rule, Rule::ResultShape);
        assert_eq!(d.raw.as_deref(), Some("raw"));
    }

    #[test]
    fn tools_are_kept_in_order_and_odd_ones_skipped_with_their_index() {
        let seen = HashSet::new();
        let result = json!({
            "tools": [
                {"name": "a", "inputSchema": {"type": "object"}},
                {"name": 7},
                {"name": "b", "inputSchema": {"type": "object"}}
            ],
            "nextCursor": "c2"
        });
        let p = read_page(&result, &cx(&seen, ProtocolVersion::V2025_06_18)).unwrap();
        let names: Vec<&str> = p.tools.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["a", "b"]);
        assert_eq!(rules(&p), [Rule::ToolShape]);
        assert!(p.diags[0].message.starts_with("tools[1] on page 2"));
        assert_eq!(p.diags[0].raw.as_deref(), Some("raw"));
        assert_eq!(p.next_cursor.as_deref(), Some("c2"));
    }

    #[test]
    fn duplicates_are_found_within_the_page_and_against_earlier_pages() {
        let seen: HashSet<String> = ["a".to_owned()].into();
        let t = |n: &str| json!({"name": n, "inputSchema": {"type": "object"}});
        let result = json!({ "tools": [t("a"), t("b"), t("b")] });
        let p = read_page(&result, &cx(&seen, ProtocolVersion::V2025_06_18)).unwrap();
        assert_eq!(
            rules(&p),
            [Rule::DuplicateToolName, Rule::DuplicateToolName]
        );
        // Duplicates are reported, not removed: the server's list is shown as sent.
        assert_eq!(p.tools.len(), 3);
        assert_eq!(p.names, ["b".to_owned()].into());
    }

    #[test]
    fn a_missing_tools_array_and_odd_cursors_are_diagnosed() {
        let seen = HashSet::new();
        let v = ProtocolVersion::V2025_06_18;
        let p = read_page(&json!({"nextCursor": 3}), &cx(&seen, v)).unwrap();
        assert_eq!(rules(&p), [Rule::ResultShape, Rule::ResultShape]);
        assert_eq!(p.diags[1].raw, None);
        assert_eq!(p.next_cursor, None);
        let p = read_page(&json!({"tools": [], "nextCursor": ""}), &cx(&seen, v)).unwrap();
        assert_eq!(rules(&p), [Rule::RepeatingCursor]);
        assert_eq!(p.next_cursor, None);
    }

    #[test]
    fn invalid_param_headers_drop_the_tool_only_under_2026_07_28() {
        let seen = HashSet::new();
        let bad = json!({"tools": [{"name": "h", "inputSchema": {
            "type": "object",
            "properties": {"r": {"type": "string", "x-mcp-header": 5}}
        }}]});
        let p = read_page(&bad, &cx(&seen, ProtocolVersion::V2026_07_28)).unwrap();
        assert!(p.tools.is_empty());
        assert_eq!(p.dropped.len(), 1);
        assert_eq!(p.dropped[0].0, "h");
        assert_eq!(rules(&p), [Rule::ParamHeader]);
        let p = read_page(&bad, &cx(&seen, ProtocolVersion::V2025_06_18)).unwrap();
        assert_eq!(p.tools.len(), 1);
        assert!(p.dropped.is_empty() && p.specs.is_empty());
    }

    #[test]
    fn next_step_stops_on_a_repeated_cursor_and_at_the_page_limit() {
        let cursors: HashSet<String> = ["x".to_owned()].into();
        assert_eq!(
            next_step("tools/list", None, &cursors, 1, 5),
            NextStep::Done
        );
        assert_eq!(
            next_step("tools/list", Some("y"), &cursors, 1, 5),
            NextStep::Fetch("y".into())
        );
        assert!(matches!(
            next_step("tools/list", Some("x"), &cursors, 1, 5),
            NextStep::Stop(Rule::RepeatingCursor, _)
        ));
        assert!(matches!(
            next_step("tools/list", Some("y"), &cursors, 5, 5),
            NextStep::Stop(Rule::TooManyPages, _)
        ));
    }
}
