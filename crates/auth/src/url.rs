//! A small URL splitter and the percent-encoding OAuth needs, instead of the `url`
//! crate (the page loads this crate as a lazy chunk; smaller is better). Only
//! absolute `http`/`https` URLs are read; nothing is normalised beyond lower-casing
//! the scheme and host.

/// An absolute URL split into its parts (RFC 3986 §3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Url {
    /// `http` or `https` (lower case).
    pub scheme: String,
    /// `host[:port]` (host lower case; userinfo dropped).
    pub authority: String,
    /// The path, `""` or starting with `/`.
    pub path: String,
    /// The query without `?`, if any.
    pub query: Option<String>,
}

impl Url {
    /// Splits `s`; `None` unless it is an absolute `http(s)` URL with a host.
    pub fn parse(s: &str) -> Option<Url> {
        let s = s.trim();
        let (scheme, rest) = s.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return None;
        }
        let rest = rest.split('#').next().unwrap_or_default();
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let authority = &rest[..end];
        let authority = authority.rsplit('@').next().unwrap_or(authority);
        if authority.is_empty() {
            return None;
        }
        let tail = &rest[end..];
        let (path, query) = match tail.split_once('?') {
            Some((p, q)) => (p, Some(q.to_owned())),
            None => (tail, None),
        };
        Some(Url {
            scheme,
            authority: authority.to_ascii_lowercase(),
            path: path.to_owned(),
            query,
        })
    }

    /// `scheme://authority`.
    pub fn origin(&self) -> String {
        format!("{}://{}", self.scheme, self.authority)
    }

    /// The path without a trailing `/` (`""` for the root).
    pub fn trimmed_path(&self) -> &str {
        self.path.trim_end_matches('/')
    }

    /// The URL without query or fragment.
    pub fn without_query(&self) -> String {
        format!("{}{}", self.origin(), self.path)
    }

    /// The value of query parameter `name` (percent-decoded), first occurrence.
    pub fn query_param(&self, name: &str) -> Option<String> {
        parse_query(self.query.as_deref()?)
            .into_iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

impl std::fmt::Display for Url {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}{}", self.origin(), self.path)?;
        if let Some(q) = &self.query {
            write!(f, "?{q}")?;
        }
        Ok(())
    }
}

/// Whether two URLs name the same resource for RFC 8707 / RFC 9728 purposes: same
/// scheme and authority, same path up to a trailing slash, no query difference.
pub fn same_resource(a: &str, b: &str) -> bool {
    match (Url::parse(a), Url::parse(b)) {
        (Some(a), Some(b)) => {
            a.scheme == b.scheme
                && a.authority == b.authority
                && a.trimmed_path() == b.trimmed_path()
                && a.query == b.query
        }
        _ => a == b,
    }
}

/// Percent-encodes everything but RFC 3986 unreserved characters.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Decodes `%XX` and (form style) `+` as a space.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `application/x-www-form-urlencoded` (and query) text from pairs.
pub fn form(pairs: &[(&str, &str)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Reads `a=b&c=d` (percent-decoded).
pub fn parse_query(q: &str) -> Vec<(String, String)> {
    q.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (decode(k), decode(v)),
            None => (decode(p), String::new()),
        })
        .collect()
}

/// `base` with `pairs` added to its query.
pub fn with_query(base: &str, pairs: &[(&str, &str)]) -> String {
    let sep = if base.contains('?') { '&' } else { '?' };
    format!("{base}{sep}{}", form(pairs))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_urls() {
        let u = Url::parse("HTTPS://User@Example.COM:8443/a/b/?x=1#f");
        let u = u.unwrap();
        assert_eq!(u.scheme, "https");
        assert_eq!(u.authority, "example.com:8443");
        assert_eq!(u.path, "/a/b/");
        assert_eq!(u.trimmed_path(), "/a/b");
        assert_eq!(u.query.as_deref(), Some("x=1"));
        assert_eq!(u.origin(), "https://example.com:8443");
        assert_eq!(Url::parse("ftp://x/"), None);
        assert_eq!(Url::parse("http:///x"), None);
        let r = Url::parse("http://h").map(|u| (u.path, u.query));
        assert_eq!(r, Some((String::new(), None)));
    }

    #[test]
    fn encodes_and_decodes() {
        assert_eq!(encode("a b/c:d~"), "a%20b%2Fc%3Ad~");
        assert_eq!(decode("a%20b+c%2F%zz%"), "a b c/%zz%");
        assert_eq!(
            form(&[("scope", "a b"), ("x", "é")]),
            "scope=a%20b&x=%C3%A9"
        );
        assert_eq!(
            parse_query("code=a%2Bb&state=s&flag"),
            vec![
                ("code".into(), "a+b".into()),
                ("state".into(), "s".into()),
                ("flag".into(), String::new())
            ]
        );
        let u = Url::parse("http://cb/x?code=1&iss=https%3A%2F%2Fas");
        assert_eq!(
            u.and_then(|u| u.query_param("iss")).as_deref(),
            Some("https://as")
        );
    }

    #[test]
    fn same_resource_ignores_trailing_slash_and_case() {
        assert!(same_resource("http://H:1/mcp/", "http://h:1/mcp"));
        assert!(!same_resource("http://h:1/mcp", "http://h:2/mcp"));
        assert!(!same_resource("http://h/mcp", "http://h/other"));
    }
}
