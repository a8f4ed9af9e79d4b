//! RFC 6570 URI templates, levels 1–4: the syntax check behind the `uri-template`
//! diagnostic, the variables a form asks for, and expansion with string values
//! (what a resource template's variables are).

/// One `{…}` expression: its operator (`None` for simple expansion) and variables.
pub(crate) struct Expression<'a> {
    pub(crate) op: Option<u8>,
    pub(crate) vars: Vec<VarSpec<'a>>,
}

/// One variable of an expression.
pub(crate) struct VarSpec<'a> {
    pub(crate) name: &'a str,
    /// `:N` prefix length, when given.
    prefix: Option<usize>,
}

/// Why a URI template breaks RFC 6570's grammar, and where (a byte offset into the
/// template: of the character, or of the `{` that opens the expression).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UriTemplateError {
    /// An expression opened at `at` is never closed.
    Unclosed {
        /// Where the `{` is.
        at: usize,
    },
    /// A character not allowed in a template's literal text.
    BadLiteral {
        /// The character.
        c: char,
        /// Where it is.
        at: usize,
    },
    /// An operator RFC 6570 keeps for future extensions (`= , ! @ |`).
    ReservedOperator {
        /// The operator.
        op: char,
        /// Where its expression opens.
        at: usize,
    },
    /// A `:N` prefix that is not a length of 1 to 9999.
    BadPrefix {
        /// The prefix as written.
        prefix: String,
        /// Where its expression opens.
        at: usize,
    },
    /// A variable name outside the grammar (letters, digits, `_`, `%XX`, inner dots).
    BadName {
        /// The name as written.
        name: String,
        /// Where its expression opens.
        at: usize,
    },
}

impl std::fmt::Display for UriTemplateError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UriTemplateError::Unclosed { at } => {
                write!(f, "the expression at {at} has no closing '}}'")
            }
            UriTemplateError::BadLiteral { c, at } => {
                write!(f, "{c:?} at {at} is not allowed in a URI template literal")
            }
            UriTemplateError::ReservedOperator { op, at } => write!(
                f,
                "operator {op:?} at {at} is reserved for future extensions"
            ),
            UriTemplateError::BadPrefix { prefix, at } => write!(
                f,
                "prefix {prefix:?} in the expression at {at} is not a length of 1 to 9999"
            ),
            UriTemplateError::BadName { name, at } => write!(
                f,
                "{name:?} in the expression at {at} is not a variable name (letters, digits, _, %XX, inner dots)"
            ),
        }
    }
}

impl std::error::Error for UriTemplateError {}

/// A piece of a template: literal text or an expression.
pub(crate) enum Part<'a> {
    Literal(&'a str),
    Expr(Expression<'a>),
}

/// Checks `template` against the RFC 6570 grammar (levels 1–4). The error says
/// what is wrong and where (a character offset).
pub fn check_uri_template(template: &str) -> Result<(), UriTemplateError> {
    parse(template).map(|_| ())
}

/// The variable names of `template`, in order of first appearance, or the syntax
/// error.
pub fn template_variables(template: &str) -> Result<Vec<String>, UriTemplateError> {
    let mut names: Vec<String> = Vec::new();
    for part in parse(template)? {
        if let Part::Expr(e) = part {
            for v in e.vars {
                if !names.iter().any(|n| n == v.name) {
                    names.push(v.name.to_owned());
                }
            }
        }
    }
    Ok(names)
}

/// Expands `template` with string values (`value(name)`; `None` is undefined and
/// expands to nothing, as RFC 6570 says).
pub fn expand_uri_template<'v>(
    template: &str,
    value: impl Fn(&str) -> Option<&'v str>,
) -> Result<String, UriTemplateError> {
    let mut out = String::new();
    for part in parse(template)? {
        match part {
            Part::Literal(l) => out.push_str(l),
            Part::Expr(e) => expand(&e, &value, &mut out),
        }
    }
    Ok(out)
}

fn expand<'v>(e: &Expression<'_>, value: &impl Fn(&str) -> Option<&'v str>, out: &mut String) {
    // RFC 6570 appendix A: first, separator, named, if-empty, reserved allowed.
    let (first, sep, named, ifemp, reserved) = match e.op {
        Some(b'+') => ("", ",", false, "", true),
        Some(b'#') => ("#", ",", false, "", true),
        Some(b'.') => (".", ".", false, "", false),
        Some(b'/') => ("/", "/", false, "", false),
        Some(b';') => (";", ";", true, "", false),
        Some(b'?') => ("?", "&", true, "=", false),
        Some(b'&') => ("&", "&", true, "=", false),
        _ => ("", ",", false, "", false),
    };
    let mut wrote = false;
    for v in &e.vars {
        let Some(text) = value(v.name) else { continue };
        out.push_str(if wrote { sep } else { first });
        wrote = true;
        if named {
            out.push_str(v.name);
            if text.is_empty() {
                out.push_str(ifemp);
                continue;
            }
            out.push('=');
        }
        let cut = match v.prefix.and_then(|n| text.char_indices().nth(n)) {
            Some((i, _)) => &text[..i],
            None => text,
        };
        encode(cut, reserved, out);
    }
}

fn encode(s: &str, reserved: bool, out: &mut String) {
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let keep = b.is_ascii_alphanumeric()
            || matches!(b, b'-' | b'.' | b'_' | b'~')
            || (reserved && b":/?#[]@!$&'()*+,;=".contains(&b));
        if keep {
            out.push(char::from(b));
        } else if reserved && b == b'%' && is_pct(bytes, i) {
            // `+` and `#` expansion pass percent-encoded triplets through.
            out.push_str(&s[i..i + 3]);
            i += 3;
            continue;
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
        i += 1;
    }
}

fn is_pct(bytes: &[u8], i: usize) -> bool {
    bytes.len() > i + 2 && bytes[i + 1].is_ascii_hexdigit() && bytes[i + 2].is_ascii_hexdigit()
}

/// The pieces of `t`, or the syntax error (also used by the server to match URIs).
pub(crate) fn parse(t: &str) -> Result<Vec<Part<'_>>, UriTemplateError> {
    let bytes = t.as_bytes();
    let mut parts = Vec::new();
    let mut i = 0;
    let mut lit = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                if lit < i {
                    parts.push(Part::Literal(&t[lit..i]));
                }
                let end = t[i..]
                    .find('}')
                    .map(|e| i + e)
                    .ok_or(UriTemplateError::Unclosed { at: i })?;
                parts.push(Part::Expr(expression(&t[i + 1..end], i)?));
                i = end + 1;
                lit = i;
            }
            b'%' if is_pct(bytes, i) => i += 3,
            b if b >= 0x80 => i += 1,
            b if b <= 0x20 || b"\"%'<>\\^`|}".contains(&b) || b == 0x7F => {
                let c = t[i..].chars().next().unwrap_or('?');
                return Err(UriTemplateError::BadLiteral { c, at: i });
            }
            _ => i += 1,
        }
    }
    if lit < bytes.len() {
        parts.push(Part::Literal(&t[lit..]));
    }
    Ok(parts)
}

fn expression(body: &str, at: usize) -> Result<Expression<'_>, UriTemplateError> {
    let (op, list) = match body.as_bytes().first() {
        Some(&b) if b"+#./;?&".contains(&b) => (Some(b), &body[1..]),
        Some(&b) if b"=,!@|".contains(&b) => {
            return Err(UriTemplateError::ReservedOperator {
                op: char::from(b),
                at,
            });
        }
        _ => (None, body),
    };
    let vars = list
        .split(',')
        .map(|spec| varspec(spec, at))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Expression { op, vars })
}

fn varspec(spec: &str, at: usize) -> Result<VarSpec<'_>, UriTemplateError> {
    let (name, prefix) = if let Some(n) = spec.strip_suffix('*') {
        (n, None)
    } else if let Some((n, len)) = spec.split_once(':') {
        let ok = (1..=4).contains(&len.len())
            && len.bytes().all(|b| b.is_ascii_digit())
            && !len.starts_with('0');
        if !ok {
            return Err(UriTemplateError::BadPrefix {
                prefix: len.to_owned(),
                at,
            });
        }
        (n, len.parse().ok())
    } else {
        (spec, None)
    };
    if !varname_ok(name) {
        return Err(UriTemplateError::BadName {
            name: name.to_owned(),
            at,
        });
    }
    Ok(VarSpec { name, prefix })
}

fn varname_ok(name: &str) -> bool {
    let b = name.as_bytes();
    let double_dot = b.windows(2).any(|w| w == b"..");
    if b.is_empty() || b[0] == b'.' || b[b.len() - 1] == b'.' || double_dot {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            c if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' => i += 1,
            b'%' if is_pct(b, i) => i += 3,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_templates_of_every_level_pass() {
        for t in [
            "weather://{city}/today",
            "file:///{+path}",
            "x://a{#frag}",
            "x://h{.dom*}{/seg:3}{;p,q}{?a,b}{&c}",
            "note://playground/",
            "x://{var.sub%20x}/caf%C3%A9/é",
        ] {
            assert_eq!(check_uri_template(t), Ok(()), "{t}");
        }
    }

    #[test]
    fn broken_templates_are_named() {
        let cases = [
            ("x://{city", "no closing"),
            ("x://{}", "not a variable name"),
            ("x://{=a}", "reserved"),
            ("x://{a:0}", "prefix"),
            ("x://{a:10000}", "prefix"),
            ("x://{a b}", "not a variable name"),
            ("x://a b", "not allowed"),
            ("x://a}", "not allowed"),
            ("x://{.a.}", "not a variable name"),
        ];
        for (t, why) in cases {
            let e = check_uri_template(t).unwrap_err().to_string();
            assert!(e.contains(why), "{t}: {e}");
        }
    }

    #[test]
    fn variables_and_expansion_follow_rfc_6570() {
        assert_eq!(
            template_variables("w://{city}/{day}{?city}").unwrap(),
            ["city", "day"]
        );
        let v = |n: &str| match n {
            "var" => Some("value"),
            "hello" => Some("Hello World!"),
            "path" => Some("/foo/bar"),
            "empty" => Some(""),
            _ => None,
        };
        let cases = [
            ("{var}", "value"),
            ("{hello}", "Hello%20World%21"),
            ("{+hello}", "Hello%20World!"),
            ("{+path}/here", "/foo/bar/here"),
            ("{#path}", "#/foo/bar"),
            ("{.var}", ".value"),
            ("{/var,path}", "/value/%2Ffoo%2Fbar"),
            ("{;var,empty}", ";var=value;empty"),
            ("{?var,empty,undef}", "?var=value&empty="),
            ("{&var:3}", "&var=val"),
            ("x{undef}y", "xy"),
        ];
        for (t, want) in cases {
            assert_eq!(expand_uri_template(t, v).unwrap(), want, "{t}");
        }
    }
}
