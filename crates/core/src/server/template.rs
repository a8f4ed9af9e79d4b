//! RFC 6570 URI templates, as far as a server needs them: the variable names of a
//! template (to check a completion's argument) and matching a URI against it (to
//! know a templated URI exists before handing it to the application).
//!
//! Every operator of levels 1–4 is recognised. Matching captures the value of
//! single-variable expressions; a simple `{var}` does not cross `/`, `?` or `#`,
//! while reserved (`+`, `#`) and multi-variable expressions match any run.

use serde_json::Value;

use crate::model::JsonObject;

/// One part of a parsed template.
enum Part<'a> {
    Literal(&'a str),
    Expr {
        /// The operator (`+ # . / ; ? &`), if any.
        op: Option<char>,
        /// Variable names, modifiers (`:3`, `*`) removed.
        vars: Vec<&'a str>,
    },
}

fn parse(template: &str) -> Option<Vec<Part<'_>>> {
    let mut parts = Vec::new();
    let mut rest = template;
    while !rest.is_empty() {
        match rest.find('{') {
            Some(0) => {
                let close = rest.find('}')?;
                let body = rest.get(1..close)?;
                let (op, list) = match body.chars().next() {
                    Some(c @ ('+' | '#' | '.' | '/' | ';' | '?' | '&')) => {
                        (Some(c), body.get(1..).unwrap_or_default())
                    }
                    _ => (None, body),
                };
                let vars: Vec<&str> = list
                    .split(',')
                    .map(|v| v.split(':').next().unwrap_or(v).trim_end_matches('*'))
                    .collect();
                let ok = vars.iter().all(|v| {
                    !v.is_empty()
                        && v.chars()
                            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '%'))
                });
                if !ok {
                    return None;
                }
                parts.push(Part::Expr { op, vars });
                rest = rest.get(close + 1..)?;
            }
            Some(n) => {
                let lit = rest.get(..n)?;
                if lit.contains('}') {
                    return None;
                }
                parts.push(Part::Literal(lit));
                rest = rest.get(n..)?;
            }
            None => {
                if rest.contains('}') {
                    return None;
                }
                parts.push(Part::Literal(rest));
                rest = "";
            }
        }
    }
    Some(parts)
}

/// The variable names of `template`, or `None` when it is not RFC 6570 syntax.
pub fn variables(template: &str) -> Option<Vec<String>> {
    let parts = parse(template)?;
    Some(
        parts
            .iter()
            .flat_map(|p| match p {
                Part::Literal(_) => Vec::new(),
                Part::Expr { vars, .. } => vars.iter().map(|v| (*v).to_owned()).collect(),
            })
            .collect(),
    )
}

/// The variables `uri` gives `template` when it matches, else `None`.
pub fn matches(template: &str, uri: &str) -> Option<JsonObject> {
    let parts = parse(template)?;
    let mut vars = JsonObject::new();
    walk(&parts, uri, &mut vars).then_some(vars)
}

/// Backtracking match of `parts` against all of `s`.
fn walk(parts: &[Part<'_>], s: &str, vars: &mut JsonObject) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return s.is_empty();
    };
    match first {
        Part::Literal(l) => s.strip_prefix(l).is_some_and(|t| walk(rest, t, vars)),
        Part::Expr { op, vars: names } => {
            let prefix = match op {
                Some(c @ ('#' | '.' | '/' | ';' | '?' | '&')) => Some(*c),
                _ => None,
            };
            let body = match prefix {
                Some(c) => match s.strip_prefix(c) {
                    Some(b) => b,
                    // An undefined variable expands to nothing at all.
                    None => return walk(rest, s, vars),
                },
                None => s,
            };
            let simple = op.is_none() || *op == Some('/') || *op == Some('.');
            // Shortest first: a literal after the expression decides where it ends.
            for (end, _) in body.char_indices().skip(1).chain([(body.len(), ' ')]) {
                let Some(value) = body.get(..end).filter(|v| !v.is_empty()) else {
                    continue;
                };
                if simple && value.contains(['/', '?', '#']) {
                    break;
                }
                let Some(tail) = body.get(end..) else {
                    continue;
                };
                let mut trial = vars.clone();
                if let [name] = names.as_slice() {
                    trial.insert((*name).to_owned(), Value::from(decode(value)));
                }
                if walk(rest, tail, &mut trial) {
                    *vars = trial;
                    return true;
                }
            }
            false
        }
    }
}

/// Percent-decoding; a malformed escape is kept as written.
fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (b.get(i), hex) {
            (Some(b'%'), Some(x)) => {
                out.push(x);
                i += 3;
            }
            (Some(&c), _) => {
                out.push(c);
                i += 1;
            }
            (None, _) => break,
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
    fn operators_and_syntax() {
        assert_eq!(
            variables("file:///{+path}{?q,lang}").unwrap(),
            vec!["path", "q", "lang"]
        );
        assert!(matches("file:///{+path}", "file:///a/b/c.txt").is_some());
        assert!(variables("bad://{city").is_none());
        assert!(variables("bad://{}").is_none());
        assert!(variables("bad://{a b}").is_none());
        assert!(variables("bad://x}").is_none());
        assert_eq!(
            variables("note://{topic:3}{/rest*}").unwrap(),
            vec!["topic", "rest"]
        );
    }
}
