//! Matching a URI against an RFC 6570 template (parsed by
//! `validate::uri_template`), to know a templated URI exists before handing it to
//! the application, with the values of its variables.
//!
//! Single-variable expressions capture their value (percent-decoded); a simple,
//! `.` or `/` expression does not cross `/`, `?` or `#`, while reserved (`+`, `#`)
//! and multi-variable expressions match any run. Shortest match first, so the
//! literal after an expression decides where it ends.

use std::collections::HashSet;

use serde_json::Value;

use crate::model::JsonObject;
use crate::validate::uri_template::{Part, parse};

/// The variables `uri` gives `template` when it matches, else `None` (also for a
/// template that is not RFC 6570 syntax).
pub fn matches(template: &str, uri: &str) -> Option<JsonObject> {
    let parts = parse(template).ok()?;
    let mut vars = JsonObject::new();
    walk(&parts, uri, &mut vars, &mut HashSet::new()).then_some(vars)
}

/// Backtracking match of `parts` against all of `s`. `failed` remembers the
/// (parts left, bytes left) pairs that cannot match: whether a suffix of the
/// template matches a suffix of the URI does not depend on how it was reached, and
/// without it a template of many expressions took exponential time (found by the
/// `uri_template` fuzz target).
fn walk(
    parts: &[Part<'_>],
    s: &str,
    vars: &mut JsonObject,
    failed: &mut HashSet<(usize, usize)>,
) -> bool {
    if failed.contains(&(parts.len(), s.len())) {
        return false;
    }
    let matched = walk_uncached(parts, s, vars, failed);
    if !matched {
        failed.insert((parts.len(), s.len()));
    }
    matched
}

fn walk_uncached(
    parts: &[Part<'_>],
    s: &str,
    vars: &mut JsonObject,
    failed: &mut HashSet<(usize, usize)>,
) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return s.is_empty();
    };
    let expr = match first {
        Part::Literal(l) => {
            return s
                .strip_prefix(l)
                .is_some_and(|t| walk(rest, t, vars, failed));
        }
        Part::Expr(e) => e,
    };
    // Every operator but `+` writes itself first; an undefined value writes nothing.
    let lead = expr.op.filter(|&o| o != b'+').map(char::from);
    let body = match lead {
        Some(c) => match s.strip_prefix(c) {
            Some(b) => b,
            None => return walk(rest, s, vars, failed),
        },
        None => s,
    };
    // Only a lone variable is bounded: with several, `/` and `.` expressions write
    // their own separator between the values (`{/a,b}` is `/x/y`).
    let bounded = expr.vars.len() == 1 && matches!(expr.op, None | Some(b'.' | b'/'));
    let ends = body.char_indices().skip(1).map(|(i, _)| i);
    for end in ends.chain([body.len()]) {
        let (Some(value), Some(tail)) = (body.get(..end), body.get(end..)) else {
            continue;
        };
        if bounded && value.contains(['/', '?', '#']) {
            break;
        }
        // Known not to match: skip the copy of the variables too.
        if failed.contains(&(rest.len(), tail.len())) {
            continue;
        }
        let mut trial = vars.clone();
        if let [var] = expr.vars.as_slice() {
            trial.insert(var.name.to_owned(), Value::from(decode(value)));
        }
        if walk(rest, tail, &mut trial, failed) {
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

    /// Found by the `uri_template` fuzz target: a `/` or `.` expression of several
    /// variables writes `/` (or `.`) between them, so it did not match its own
    /// expansion.
    #[test]
    fn a_path_expression_of_several_variables_matches_its_expansion() {
        let v = matches("{/days,units}", "/v1/v1").unwrap();
        assert!(v.is_empty(), "several variables capture nothing");
        assert!(matches("x{.ext}{/s,units}", "x.v1/v1/v1").is_some());
        assert!(matches("st{/days,units}lloso", "st/v1/v1lloso").is_some());
        // A lone variable still stops at `/`.
        assert!(matches("{/a}", "/x/y").is_none());
    }

    /// Found by the `uri_template` fuzz target: many unbounded expressions and a
    /// URI that does not match took exponential time (minutes for 345 bytes).
    #[test]
    fn a_template_of_many_expressions_fails_fast() {
        let template = "{+a}{+b}{+c}{+d}{+e}{+f}{+g}{+h}{+i}{+j}{+k}{+l}!";
        let uri = "x".repeat(200);
        let start = std::time::Instant::now();
        assert!(matches(template, &uri).is_none());
        assert!(
            start.elapsed() < std::time::Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
    }
}
