//! `--header 'Name: value'` and `--bearer-env VAR`: the extra HTTP headers a
//! command sends, and the one rule about them: a value never reaches the terminal,
//! a log, a link or a saved session. Values are secrets until proven otherwise
//! (most are `Authorization` or API keys), so `Debug` and every message here show
//! names only.

use std::fmt;

/// One `--header` as given: a name and a value (the value never printed).
#[derive(Clone, PartialEq, Eq)]
pub struct Header {
    /// The header's name, as typed.
    pub name: String,
    /// Its value (a secret: never printed).
    pub value: String,
}

impl fmt::Debug for Header {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, mask(&self.value))
    }
}

/// `--header`'s value parser: `Name: value`, the name an RFC 9110 token, the value
/// free of CR, LF and NUL (which would split the request). The error names the
/// problem, never the value.
pub fn parse(s: &str) -> Result<Header, String> {
    let Some((name, value)) = s.split_once(':') else {
        return Err("expected 'Name: value' (a colon after the header's name)".into());
    };
    let name = name.trim();
    if name.is_empty() {
        return Err("the header's name is empty (expected 'Name: value')".into());
    }
    if let Some(c) = name.chars().find(|c| !is_token_char(*c)) {
        return Err(format!(
            "{c:?} cannot appear in a header name (expected 'Name: value')"
        ));
    }
    let value = value.trim();
    if value.chars().any(|c| matches!(c, '\r' | '\n' | '\0')) {
        return Err(format!(
            "the value of {name} holds a line break or NUL, which would split the request"
        ));
    }
    Ok(Header {
        name: name.to_owned(),
        value: value.to_owned(),
    })
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Why the headers could not be made: the message names the variable, never a value.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HeaderError {
    /// `--bearer-env VAR` names a variable that is not set (or not Unicode).
    #[error("--bearer-env: the environment variable {0} is not set")]
    Unset(String),
    /// It is set but empty (or only spaces).
    #[error("--bearer-env: the environment variable {0} is empty")]
    Empty(String),
    /// `--bearer-env` and an `Authorization` `--header` both given.
    #[error("--bearer-env and --header 'Authorization: …' both set Authorization; keep one")]
    TwoAuthorizations,
}

/// The headers to send: every `--header`, then `Authorization: Bearer <$VAR>` for
/// `--bearer-env VAR`, read through `env` (the process environment in the CLI).
pub fn resolve(
    given: &[Header],
    bearer_env: Option<&str>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<Vec<(String, String)>, HeaderError> {
    let mut out: Vec<(String, String)> = given
        .iter()
        .map(|h| (h.name.clone(), h.value.clone()))
        .collect();
    if let Some(var) = bearer_env {
        if given
            .iter()
            .any(|h| h.name.eq_ignore_ascii_case("authorization"))
        {
            return Err(HeaderError::TwoAuthorizations);
        }
        let token = env(var).ok_or_else(|| HeaderError::Unset(var.to_owned()))?;
        let token = token.trim();
        if token.is_empty() {
            return Err(HeaderError::Empty(var.to_owned()));
        }
        out.push(("Authorization".into(), format!("Bearer {token}")));
    }
    Ok(out)
}

/// A secret as it may be shown: `•••` and at most its last 4 characters (none of a
/// short one, which 4 characters would nearly give away).
pub fn mask(secret: &str) -> String {
    let n = secret.chars().count();
    if n < 12 {
        return "•••".into();
    }
    let tail: String = secret.chars().skip(n - 4).collect();
    format!("•••{tail}")
}

/// Replaces every occurrence of each secret in `text` by its mask. For what the CLI
/// prints from elsewhere (a transport notice, a server's error that echoes a
/// header): the values are known, so they are scrubbed wherever they turn up.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_owned();
    for s in secrets.iter().filter(|s| s.len() >= 4) {
        if out.contains(s.as_str()) {
            out = out.replace(s.as_str(), &mask(s));
        }
    }
    out
}

/// The secret parts of `headers`: each value, and for `Bearer …` / `Basic …` the
/// credential alone too (a server may echo just that).
pub fn secrets(headers: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (_, v) in headers {
        out.push(v.clone());
        if let Some((_, cred)) = v.split_once(' ') {
            out.push(cred.trim().to_owned());
        }
    }
    // Longest first, so a value is masked whole before its credential part.
    out.sort_by_key(|s| std::cmp::Reverse(s.len()));
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn parses_a_header_and_trims_around_the_colon() {
        let h = parse("X-Api-Key:  abc:def ").unwrap();
        assert_eq!(
            (h.name.as_str(), h.value.as_str()),
            ("X-Api-Key", "abc:def")
        );
        assert_eq!(parse("X-Empty:").unwrap().value, "");
    }

    #[test]
    fn malformed_headers_are_refused_without_echoing_the_value() {
        assert!(parse("no colon here").unwrap_err().contains("Name: value"));
        assert!(parse(": v").unwrap_err().contains("empty"));
        assert!(parse("Bad Name: v").unwrap_err().contains("' '"));
        let e = parse("X-Key: top\r\nsecret").unwrap_err();
        assert!(e.contains("X-Key") && !e.contains("secret"), "{e}");
    }

    #[test]
    fn bearer_env_adds_authorization_and_names_the_variable_when_missing() {
        let env = |k: &str| match k {
            "TOK" => Some(" abc123 ".to_owned()),
            "BLANK" => Some("  ".to_owned()),
            _ => None,
        };
        let given = [parse("X-A: 1").unwrap()];
        let got = resolve(&given, Some("TOK"), env).unwrap();
        assert_eq!(
            got,
            [
                ("X-A".to_owned(), "1".to_owned()),
                ("Authorization".to_owned(), "Bearer abc123".to_owned())
            ]
        );
        assert_eq!(
            resolve(&[], Some("NOPE"), env),
            Err(HeaderError::Unset("NOPE".into()))
        );
        assert_eq!(
            resolve(&[], Some("BLANK"), env),
            Err(HeaderError::Empty("BLANK".into()))
        );
        let auth = [parse("authorization: Bearer x").unwrap()];
        assert_eq!(
            resolve(&auth, Some("TOK"), env),
            Err(HeaderError::TwoAuthorizations)
        );
    }

    #[test]
    fn masks_keep_at_most_four_characters_and_scrub_finds_every_copy() {
        assert_eq!(mask("short"), "•••");
        assert_eq!(mask("0123456789abcdef"), "•••cdef");
        let headers = vec![(
            "Authorization".to_owned(),
            "Bearer tok-0123456789".to_owned(),
        )];
        let s = secrets(&headers);
        let text = "sent Bearer tok-0123456789; server said tok-0123456789 is bad";
        let out = scrub(text, &s);
        assert!(!out.contains("tok-0123456789"), "{out}");
        assert!(out.contains("•••6789"), "{out}");
        assert_eq!(
            format!("{:?}", parse("K: supersecretvalue").unwrap()),
            "K: •••alue"
        );
    }
}
