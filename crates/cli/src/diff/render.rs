//! The diff for people. Every name, description, argument and answer in it is a
//! server's or a shared session's words: each line is escaped for the terminal.

use mcpg_recording::diff::{AnswerKind, FieldChange, SessionDiff, Snapshot, ToolFieldChange};
use serde_json::Value;

use crate::escape;

/// How much of a value a line shows.
const SHORT: usize = 80;

/// `v` as compact JSON, cut at [`SHORT`] characters; `(absent)` for nothing.
pub(crate) fn short(v: Option<&Value>) -> String {
    let Some(v) = v else { return "(absent)".into() };
    let s = v.to_string();
    match s.char_indices().nth(SHORT) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

/// One change as `POINTER: before → after` (`(root)` for the whole value). Not
/// escaped: the caller escapes the line it goes into.
pub(crate) fn change_line(c: &FieldChange) -> String {
    let at = if c.pointer.is_empty() {
        "(root)"
    } else {
        &c.pointer
    };
    format!(
        "{at}: {} → {}",
        short(c.before.as_ref()),
        short(c.after.as_ref())
    )
}

fn tool_change_line(c: &ToolFieldChange) -> String {
    format!("{:<13}{}", c.area.label(), change_line(&c.change))
}

fn kind(k: AnswerKind) -> &'static str {
    match k {
        AnswerKind::Result => "result",
        AnswerKind::ToolError => "tool error",
        AnswerKind::RpcError => "JSON-RPC error",
        AnswerKind::Missing => "no answer",
    }
}

fn side(label: &str, s: &Snapshot) -> String {
    let tools = s
        .tools
        .as_ref()
        .map_or("no tools/list".to_owned(), |t| format!("{} tools", t.len()));
    format!("{label}: {tools}, {} calls", s.calls.len())
}

/// The whole report: both sides, one block per difference, the count.
pub(crate) fn human(a: (&str, &Snapshot), b: (&str, &Snapshot), d: &SessionDiff) -> String {
    let mut lines = vec![
        format!("A  {}", side(a.0, a.1)),
        format!("B  {}", side(b.0, b.1)),
        String::new(),
    ];
    match &d.tools {
        None => lines.push(format!(
            "tools    not compared: {} never listed its tools",
            if a.1.tools.is_none() { "A" } else { "B" }
        )),
        Some(t) => {
            lines.extend(t.added.iter().map(|e| format!("added    {}", e.name)));
            lines.extend(t.removed.iter().map(|e| format!("removed  {}", e.name)));
            for r in &t.renamed {
                lines.push(format!("renamed  {} → {}", r.from, r.to));
                lines.extend(
                    r.changes
                        .iter()
                        .map(|c| format!("           {}", tool_change_line(c))),
                );
            }
            for c in &t.changed {
                lines.push(format!("changed  {}", c.name));
                lines.extend(
                    c.changes
                        .iter()
                        .map(|c| format!("           {}", tool_change_line(c))),
                );
            }
        }
    }
    for r in &d.results {
        let nth = if r.occurrence > 1 {
            format!(" (call {})", r.occurrence)
        } else {
            String::new()
        };
        let kinds = if r.before == r.after {
            String::new()
        } else {
            format!(": {} → {}", kind(r.before), kind(r.after))
        };
        lines.push(format!(
            "result   {} {}{nth}{kinds}",
            r.tool,
            short(Some(&r.arguments))
        ));
        lines.extend(
            r.changes
                .iter()
                .map(|c| format!("           {}", change_line(c))),
        );
    }
    let mut out: String = lines.iter().map(|l| escape::line(l) + "\n").collect();
    let t = d.tools.as_ref();
    let n = |f: fn(&mcpg_recording::diff::CatalogDiff) -> usize| t.map_or(0, f);
    out.push_str(&format!(
        "{}{} differences: {} added, {} removed, {} renamed, {} changed, {} results changed; {} calls compared\n",
        if d.is_empty() { "" } else { "\n" },
        d.count(),
        n(|t| t.added.len()),
        n(|t| t.removed.len()),
        n(|t| t.renamed.len()),
        n(|t| t.changed.len()),
        d.results.len(),
        d.calls.compared,
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcpg_recording::diff::diff;
    use serde_json::json;

    #[test]
    fn hostile_names_and_values_are_escaped() {
        let tool = |name: &str, d: &str| json!({"name": name, "description": d, "inputSchema": {"type": "object"}});
        let a = Snapshot {
            tools: Some(vec![tool("ok", "plain")]),
            calls: vec![],
        };
        let b = Snapshot {
            tools: Some(vec![
                tool("ok", "now \u{1b}]52;c;cm0gLXJm\u{7}"),
                tool("evil\u{1b}[2J\u{202e}", "x\ny"),
            ]),
            calls: vec![],
        };
        let text = human(("a.json", &a), ("b\u{1b}[1m.json", &b), &diff(&a, &b));
        assert!(
            !text.chars().any(|c| c.is_control() && c != '\n'),
            "{text:?}"
        );
        assert!(!text.contains('\u{202e}'), "{text:?}");
        assert!(text.contains("added    evil\\u{1b}[2J\\u{202e}"), "{text}");
        assert!(text.contains("\\u001b]52;c;"), "{text}");
        assert!(text.contains("2 differences"), "{text}");
    }
}
