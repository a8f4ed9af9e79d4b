//! Matching a URI against an RFC 6570 template (parsed by
//! `validate::uri_template`), to know a templated URI exists before handing it to
//! the application, with the values of its variables.
//!
//! Single-variable expressions capture their value (percent-decoded); a simple,
//! `.` or `/` expression does not cross `/`, `?` or `#`, while reserved (`+`, `#`)
//! and multi-variable expressions match any run. Shortest match first, so the
//! literal after an expression decides where it ends.

use serde_json::Value;

use crate::model::JsonObject;
use crate::validate::uri_template::{Part, parse};

/// The variables `uri` gives `template` when it matches, else `None` (also for a
/// template that is not RFC 6570 syntax).
pub fn matches(template: &str, uri: &str) -> Option<JsonObject> {
    let parts = parse(template).ok()?;
    let mut vars = JsonObject::new();
    walk(&parts, uri, &mut vars).then_some(vars)
}

/// Backtracking match of `parts` against all of `s`.
fn walk(parts: &[Part<'_>], s: &str, vars: &mut JsonObject) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return s.is_empty();
    };
    let expr = match first {
        Part::Literal(l) => return s.strip_prefix(l).is_some_and(|t| walk(rest, t, vars)),
        Part::Expr(e) => e,
    };
    // Every operator but `+` writes itself first; an undefined value writes nothing.
    let lead = expr.op.filter(|&o| o != b'+').map(char::from);
    let body = match lead {
        Some(c) => match s.strip_prefix(c) {
            Some(b) => b,
            None => return walk(rest, s, vars),
        },
        None => s,
    };
    let bounded = matches!(expr.op, None | Some(b'.' | b'/'));
    let ends = body.char_indices().skip(1).map(|(i, _)| i);
    for end in ends.chain([body.len()]) {
        let (Some(value), Some(tail)) = (body.get(..end), body.get(end..)) else {
            continue;
        };
        if bounded && value.contains(['/', '?', '#']) {
            break;
        }
        let mut trial = vars.clone();
        if let [var] = expr.vars.as_slice() {
            trial.insert(var.name.to_owned(), Value::from(decode(value)));
        }
        if walk(rest, tail, &mut trial) {
            *vars = trial;
            return true;
        }
    }
    false
}

/// Percent-decoding; a malformed escape is kept as written.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (c, hex) {
            (b'%', Some(x)) => {
                out.push(x);
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn simple_variables_match_one_segment() {
        let v = matches("weather://{city}/today", "weather://Paris/today").unwrap();
        assert_eq!(v.get("city"), Some(&Value::from("Paris")));
        let v = matches("weather://{city}/today", "weather://New%20York/today").unwrap();
        assert_eq!(v.get("city"), Some(&Value::from("New York")));
        assert!(matches("weather://{city}/today", "weather://a/b/today").is_none());
        assert!(matches("weather://{city}/today", "weather:///today").is_none());
        assert!(matches("weather://{city}/today", "weather://Paris/tomorrow").is_none());
    }

    #[test]
    fn operators_and_bad_syntax() {
        let v = matches("file:///{+path}", "file:///a/b/c.txt").unwrap();
        assert_eq!(v.get("path"), Some(&Value::from("a/b/c.txt")));
        let v = matches("note://{topic}{/rest}", "note://x/y").unwrap();
        assert_eq!(v.get("rest"), Some(&Value::from("y")));
        assert!(matches("search://x{?q,lang}", "search://x?q=a&lang=en").is_some());
        assert!(matches("bad://{city", "bad://{city").is_none());
        assert!(matches("bad://{a b}", "bad://x").is_none());
    }
}
