//! Human-readable output: tool listings and tool results, and the pieces the
//! resource and prompt output shares with them. Everything a server sent goes
//! through `escape`.

use std::fmt::Write as _;

use mcpg_core::jsonrpc::Message;
use mcpg_core::model::{CallToolResult, ContentBlock, ResourceContents, Tool};
use mcpg_transport::{Listing, ToolList};
use serde_json::Value;

use crate::escape;

/// `N tools in M pages`, singular where 1 (`noun` is the singular).
pub fn count_line(n: usize, noun: &str, pages: usize) -> String {
    format!("{} in {}", plural(n, noun), plural(pages, "page"))
}

/// `--- page 2 of 4 (6 tools) ---`.
pub fn page_header(page: usize, pages: usize, n: usize, noun: &str) -> String {
    format!("--- page {page} of {pages} ({}) ---", plural(n, noun))
}

/// Every page with a header, one line per tool, then the count line.
pub fn tool_list(list: &ToolList) -> String {
    listing(list, "tool", tool_line)
}

/// Every page with a header, one line per item, then the count line (`noun`
/// is the item's name in the singular).
pub fn listing<T>(list: &Listing<T>, noun: &str, line: impl Fn(&T) -> String) -> String {
    let mut out = String::new();
    let pages = list.pages.len();
    for (i, page) in list.pages.iter().enumerate() {
        let _ = writeln!(out, "{}", page_header(i + 1, pages, page.len(), noun));
        for item in page {
            let _ = writeln!(out, "{}", line(item));
        }
    }
    let _ = writeln!(out, "{}", count_line(list.len(), noun, pages));
    out
}

pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `name (title): first line of the description`, then the MCP Apps marks: the
/// view it links, and whether the model or an app may not call it.
fn tool_line(tool: &Tool) -> String {
    let title = tool
        .title
        .as_deref()
        .or_else(|| tool.annotations.as_ref().and_then(|a| a.title.as_deref()));
    let mut line = item_line(&tool.name, title, tool.description.as_deref());
    let ui = mcpg_apps::ToolUi::of(tool);
    if let Some(uri) = &ui.resource_uri {
        let _ = write!(line, "  [view {}]", escape::line(uri));
    }
    match (ui.visibility.model, ui.visibility.app) {
        (false, true) => line.push_str("  [app only: hidden from the model]"),
        (true, false) => line.push_str("  [model only: apps may not call it]"),
        (false, false) => line.push_str("  [visible to nobody]"),
        (true, true) => {}
    }
    line
}

/// `name (title): first line of the description`, escaped for the terminal; the
/// title only when it differs from the name.
pub fn item_line(name: &str, title: Option<&str>, description: Option<&str>) -> String {
    let mut line = escape::line(name);
    if let Some(t) = title.filter(|t| *t != name) {
        let _ = write!(line, " ({})", escape::line(t));
    }
    if let Some(d) = first_line(description) {
        let _ = write!(line, ": {}", escape::line(&cut(d, 120)));
    }
    line
}

/// The first non-empty line of a description.
pub fn first_line(d: Option<&str>) -> Option<&str> {
    d.and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
}

/// At most `max` characters, with `…` when cut.
pub fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// Bytes encoded by a base64 string (without decoding it).
fn base64_len(data: &str) -> usize {
    let d = data.trim_end();
    let pad = d.bytes().rev().take_while(|&b| b == b'=').count();
    (d.len() / 4 * 3 + (d.len() % 4).saturating_sub(1)).saturating_sub(pad)
}

/// A tool result for a person: text as text, binary content summarized,
/// `structuredContent` pretty-printed.
pub fn call_result(r: &CallToolResult) -> String {
    let mut out = String::new();
    for block in &r.content {
        content_block(&mut out, block);
        out.push('\n');
    }
    if let Some(s) = &r.structured_content {
        let _ = writeln!(out, "structuredContent:\n{}", pretty(s));
    }
    out
}

/// One content block (of a tool result or a prompt message), without a final
/// newline: text as text, binary as type and size, everything escaped.
pub fn content_block(out: &mut String, block: &ContentBlock) {
    match block {
        ContentBlock::Text(t) => out.push_str(&escape::text(&t.text)),
        ContentBlock::Image(c) | ContentBlock::Audio(c) => {
            let _ = write!(
                out,
                "[{} {}, {} bytes]",
                block.kind(),
                escape::line(&c.mime_type),
                base64_len(&c.data)
            );
        }
        ContentBlock::ResourceLink(l) => {
            let _ = write!(
                out,
                "[resource link {} <{}>",
                escape::line(&l.name),
                escape::line(&l.uri)
            );
            out.push_str(&mime(l.mime_type.as_deref()));
            out.push(']');
            if let Some(d) = &l.description {
                let _ = write!(out, " {}", escape::line(&cut(d, 120)));
            }
        }
        ContentBlock::Resource(e) => resource_contents(out, &e.resource, true),
        ContentBlock::Unknown(v) => {
            let _ = write!(out, "[{} content] {v}", escape::line(block.kind()));
        }
    }
}

/// One item of a resource's contents, without a final newline. A text item gets
/// a `[resource <uri> mime]` header line only when `header` is set.
pub fn resource_contents(out: &mut String, c: &ResourceContents, header: bool) {
    match c {
        ResourceContents::Text(t) => {
            if header {
                let _ = writeln!(
                    out,
                    "[resource <{}>{}]",
                    escape::line(&t.uri),
                    mime(t.mime_type.as_deref())
                );
            }
            out.push_str(&escape::text(&t.text));
        }
        ResourceContents::Blob(b) => {
            let _ = write!(
                out,
                "[resource <{}>{}, {} bytes]",
                escape::line(&b.uri),
                mime(b.mime_type.as_deref()),
                base64_len(&b.blob)
            );
        }
        ResourceContents::Unknown(v) => {
            let _ = write!(out, "[resource of unknown shape] {v}");
        }
    }
}

/// ` mime/type`, escaped, or nothing.
pub fn mime(m: Option<&str>) -> String {
    m.map(|m| format!(" {}", escape::line(m)))
        .unwrap_or_default()
}

/// The items of every page exactly as the server sent them, in order: the
/// `member` array (`tools`, `resources`…) of each response, joined.
pub fn raw_items(responses: &[Message], member: &str) -> Value {
    let all = responses
        .iter()
        .filter_map(|m| {
            m.result()
                .and_then(|r| r.get(member))
                .and_then(Value::as_array)
        })
        .flatten()
        .cloned()
        .collect();
    Value::Array(all)
}

/// Pretty JSON (falls back to compact, which cannot fail for a `Value`).
pub fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_else(|_| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_sizes() {
        assert_eq!(count_line(1, "tool", 1), "1 tool in 1 page");
        assert_eq!(count_line(29, "tool", 3), "29 tools in 3 pages");
        assert_eq!(count_line(0, "resource", 1), "0 resources in 1 page");
        assert_eq!(base64_len("AAAA"), 3);
        assert_eq!(base64_len("AAA="), 2);
        assert_eq!(base64_len("AA=="), 1);
        assert_eq!(base64_len("AAAAAA"), 4);
    }
}
