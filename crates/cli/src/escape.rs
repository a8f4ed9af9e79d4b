//! Text a server sent, made safe for a terminal: control characters become
//! visible escapes, so a hostile server cannot move the cursor, retitle the
//! window, hide text or reorder it (bidirectional overrides).

/// Multi-line text (resource contents, tool output): newlines and tabs stay,
/// every other control character is escaped.
pub fn text(s: &str) -> String {
    escape(s, false)
}

/// One line (names, descriptions in a listing, log data, error messages):
/// newlines are escaped too.
pub fn line(s: &str) -> String {
    escape(s, true)
}

fn escape(s: &str, one_line: bool) -> String {
    if !s.chars().any(|c| dangerous(c, one_line)) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if dangerous(c, one_line) {
            match c {
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// C0 and C1 controls, DEL, and the bidirectional embedding, override and
/// isolate characters (which reorder what follows them on screen).
fn dangerous(c: char, one_line: bool) -> bool {
    match c {
        '\n' | '\t' => one_line,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible() {
        assert_eq!(text("plain\ttext\nline 2"), "plain\ttext\nline 2");
        assert_eq!(
            text("\u{1b}[2J\u{1b}]0;pwned\u{7}"),
            "\\u{1b}[2J\\u{1b}]0;pwned\\u{7}"
        );
        assert_eq!(text("over\rwrite"), "over\\rwrite");
        assert_eq!(text("a\u{9b}31mb"), "a\\u{9b}31mb");
        assert_eq!(text("x\u{202e}gnp.exe"), "x\\u{202e}gnp.exe");
        assert_eq!(line("two\nlines\tand tab"), "two\\nlines\\tand tab");
        assert_eq!(line("Zürich ☀"), "Zürich ☀");
    }
}
