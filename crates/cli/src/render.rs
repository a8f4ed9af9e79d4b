//! Human-readable output: tool listings and tool results.

use std::fmt::Write as _;

use mcpg_core::model::{CallToolResult, ContentBlock, ResourceContents, Tool};
use mcpg_transport::ToolList;
use serde_json::Value;

/// `N tools in M pages`, singular where 1.
pub fn count_line(tools: usize, pages: usize) -> String {
    let t = if tools == 1 { "tool" } else { "tools" };
    let p = if pages == 1 { "page" } else { "pages" };
    format!("{tools} {t} in {pages} {p}")
}

/// Every page with a header, one line per tool, then the count line.
pub fn tool_list(list: &ToolList) -> String {
    let mut out = String::new();
    let pages = list.pages.len();
    for (i, page) in list.pages.iter().enumerate() {
        let _ = writeln!(
            out,
            "--- page {} of {pages} ({}) ---",
            i + 1,
            plural(page.len(), "tool")
        );
        for tool in page {
            let _ = writeln!(out, "{}", tool_line(tool));
        }
    }
    out.push_str(&count_line(list.len(), pages));
    out.push('\n');
    out
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// `name (title): first line of the description`.
fn tool_line(tool: &Tool) -> String {
    let mut line = tool.name.clone();
    let title = tool
        .title
        .as_deref()
        .or_else(|| tool.annotations.as_ref().and_then(|a| a.title.as_deref()));
    if let Some(t) = title.filter(|t| *t != tool.name) {
        let _ = write!(line, " ({t})");
    }
    if let Some(d) = tool
        .description
        .as_deref()
        .and_then(|d| d.lines().map(str::trim).find(|l| !l.is_empty()))
    {
        let _ = write!(line, ": {}", cut(d, 120));
    }
    line
}

fn cut(s: &str, max: usize) -> String {
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
        match block {
            ContentBlock::Text(t) => out.push_str(&t.text),
            ContentBlock::Image(c) | ContentBlock::Audio(c) => {
                let _ = write!(
                    out,
                    "[{} {}, {} bytes]",
                    block.kind(),
                    c.mime_type,
                    base64_len(&c.data)
                );
            }
            ContentBlock::ResourceLink(l) => {
                let _ = write!(out, "[resource link {} <{}>", l.name, l.uri);
                if let Some(m) = &l.mime_type {
                    let _ = write!(out, " {m}");
                }
                out.push(']');
                if let Some(d) = &l.description {
                    let _ = write!(out, " {}", cut(d, 120));
                }
            }
            ContentBlock::Resource(e) => match &e.resource {
                ResourceContents::Text(t) => {
                    let _ = write!(
                        out,
                        "[resource <{}>{}]\n{}",
                        t.uri,
                        mime(t.mime_type.as_deref()),
                        t.text
                    );
                }
                ResourceContents::Blob(b) => {
                    let _ = write!(
                        out,
                        "[resource <{}>{}, {} bytes]",
                        b.uri,
                        mime(b.mime_type.as_deref()),
                        base64_len(&b.blob)
                    );
                }
                ResourceContents::Unknown(v) => {
                    let _ = write!(out, "[resource of unknown shape] {v}");
                }
            },
            ContentBlock::Unknown(v) => {
                let _ = write!(out, "[{} content] {v}", block.kind());
            }
        }
        out.push('\n');
    }
    if let Some(s) = &r.structured_content {
        let _ = writeln!(out, "structuredContent:\n{}", pretty(s));
    }
    out
}

fn mime(m: Option<&str>) -> String {
    m.map(|m| format!(" {m}")).unwrap_or_default()
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
        assert_eq!(count_line(1, 1), "1 tool in 1 page");
        assert_eq!(count_line(29, 3), "29 tools in 3 pages");
        assert_eq!(count_line(0, 1), "0 tools in 1 page");
        assert_eq!(base64_len("AAAA"), 3);
        assert_eq!(base64_len("AAA="), 2);
        assert_eq!(base64_len("AA=="), 1);
        assert_eq!(base64_len("AAAAAA"), 4);
    }
}
