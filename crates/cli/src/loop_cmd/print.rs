//! A loop's steps as the terminal shows them: what the page labels each step (over
//! MCP or inside the host, the title, the status), the explanation wrapped, and
//! every block's exact JSON folded to a readable width. `--json` prints one object
//! per step instead. Everything a server or a model sent is escaped for a terminal.

use mcpg_host::Step;
use serde_json::{Value, json};

use crate::escape;

/// Where a step happens, as the page labels it.
pub fn side(step: &Step) -> &'static str {
    if step.over_mcp {
        "over MCP"
    } else {
        "inside the host"
    }
}

/// One step as text, `width` columns wide.
pub fn text(step: &Step, width: usize) -> String {
    let mut out = format!(
        "── Step {} · {} · {} [{}]\n",
        step.number,
        side(step),
        escape::line(&step.title),
        step.status
    );
    for line in wrap(&escape::line(&step.explanation), width) {
        out.push_str(&line);
        out.push('\n');
    }
    // Whose choice it was, where a classic host mistake mattered.
    for c in &step.choices {
        for line in wrap(&escape::line(&format!("▸ {c}")), width) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    for b in &step.blocks {
        out.push_str(&format!("  {}\n", escape::line(&b.label)));
        for line in b.json.lines() {
            for part in fold(&escape::line(line), width.saturating_sub(4).max(20)) {
                out.push_str("    ");
                out.push_str(&part);
                out.push('\n');
            }
        }
    }
    out
}

/// One step as a JSON object (a block's JSON parsed back when it is JSON).
pub fn json(step: &Step) -> Value {
    let blocks: Vec<Value> = step
        .blocks
        .iter()
        .map(|b| {
            let v =
                serde_json::from_str::<Value>(&b.json).unwrap_or_else(|_| Value::from(&*b.json));
            json!({"label": b.label, "json": v})
        })
        .collect();
    json!({
        "step": step.number,
        "title": step.title,
        "side": if step.over_mcp { "mcp" } else { "host" },
        "status": step.status.as_str(),
        "explanation": step.explanation,
        "choices": step.choices.iter().map(|c| json!({"pitfall": c.pitfall.id(), "naive": c.naive, "text": c.text})).collect::<Vec<_>>(),
        "blocks": blocks,
    })
}

/// Words wrapped to `width` columns (a word longer than that stands alone).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// A line of JSON cut into pieces of at most `width` characters; the pieces after
/// the first start with `↪ ` under the line's own indent, so the fold shows.
pub fn fold(line: &str, width: usize) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    if chars.len() <= width {
        return vec![line.to_owned()];
    }
    let indent = chars
        .iter()
        .take_while(|c| **c == ' ')
        .count()
        .min(width / 2);
    let mut parts = vec![chars[..width].iter().collect::<String>()];
    let room = width.saturating_sub(indent + 2).max(1);
    for piece in chars[width..].chunks(room) {
        let mut p = " ".repeat(indent);
        p.push_str("↪ ");
        p.extend(piece);
        parts.push(p);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_fold_and_words_wrap() {
        let folded = fold("  \"text\": \"abcdefghijklmnopqrstuvwxyz\"", 20);
        assert_eq!(folded[0], "  \"text\": \"abcdefghi");
        assert!(folded[1].starts_with("  ↪ jklmnop"));
        let rest: String = folded[1..]
            .iter()
            .map(|p| p.strip_prefix("  ↪ ").unwrap_or("?"))
            .collect();
        assert_eq!(
            folded[0].clone() + &rest,
            "  \"text\": \"abcdefghijklmnopqrstuvwxyz\""
        );
        assert_eq!(wrap("one two three four", 9), ["one two", "three", "four"]);
        assert_eq!(fold("short", 20), ["short"]);
    }

    #[test]
    fn a_servers_escapes_come_out_visible() {
        let mut step = Step::new(
            5,
            mcpg_host::StepStatus::Done,
            "The server said \u{1b}]52;c;cm0gLXJm\u{7}",
        );
        step.title.push_str(" \u{1b}]0;pwned\u{7}");
        step.blocks.push(mcpg_host::tool_loop::JsonBlock::wire(
            mcpg_host::tool_loop::BlockKind::Received,
            "← result \u{1b}[2J",
            "not json \u{1b}[31m\u{9b}1m",
        ));
        let shown = text(&step, 80);
        assert!(
            !shown.chars().any(|c| c.is_control() && c != '\n'),
            "{shown:?}"
        );
        for visible in ["\\u{1b}]52;c;", "\\u{1b}]0;pwned", "\\u{1b}[2J", "\\u{9b}"] {
            assert!(shown.contains(visible), "{visible} in {shown}");
        }
    }
}
