//! URL reading through the `url` crate (the WHATWG URL standard, via
//! `mcpg-safe-url`), so every origin, path and query the flow compares is the one
//! the browser and reqwest will use; and the small percent-encoding OAuth needs for
//! forms and query strings.

use mcpg_safe_url::Url;

/// `s` parsed by the WHATWG rules, if it is an absolute `http(s)` URL with a host.
pub fn web_url(s: &str) -> Option<Url> {
    let u = Url::parse(s.trim()).ok()?;
    (matches!(u.scheme(), "http" | "https") && u.host().is_some()).then_some(u)
}

/// `scheme://host[:port]` as the WHATWG serializer writes it (lower case,
/// punycode, default port left out).
pub fn origin(u: &Url) -> String {
    u.origin().ascii_serialization()
}

/// The path without a trailing `/` (`""` for the root).
pub fn trimmed_path(u: &Url) -> &str {
    u.path().trim_end_matches('/')
}

/// The URL without query or fragment.
pub fn without_query(u: &Url) -> String {
    format!("{}{}", origin(u), u.path())
}

/// The value of query parameter `name` of `url` (percent-decoded), first
/// occurrence.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    Url::parse(url)
        .ok()?
        .query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}

/// Whether two URLs name the same resource for RFC 8707 / RFC 9728 purposes: same
/// origin, same path up to a trailing slash, the same query.
pub fn same_resource(a: &str, b: &str) -> bool {
    match (web_url(a), web_url(b)) {
        (Some(a), Some(b)) => {
            origin(&a) == origin(&b)
                && trimmed_path(&a) == trimmed_path(&b)
                && a.query() == b.query()
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
// A test fails by panicking.
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn reads_urls_as_the_browser_does() {
        let u = web_url("HTTPS://Example.COM:443/a/b/?x=1#f").unwrap();
        assert_eq!(origin(&u), "https://example.com");
        assert_eq!(trimmed_path(&u), "/a/b");
        assert_eq!(without_query(&u), "https://example.com/a/b/");
        assert!(web_url("ftp://x/").is_none());
        assert!(web_url("javascript:alert(1)").is_none());
        // A backslash ends the host in http(s) URLs: the host is a.example.
        let u = web_url("https://a.example\\@evil.example/").unwrap();
        assert_eq!(origin(&u), "https://a.example");
        assert_eq!(trimmed_path(&web_url("http://h").unwrap()), "");
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
        assert_eq!(
            query_param("http://cb/x?code=1&iss=https%3A%2F%2Fas", "iss").as_deref(),
            Some("https://as")
        );
    }

    #[test]
    fn same_resource_ignores_trailing_slash_and_case() {
        assert!(same_resource("http://H:1/mcp/", "http://h:1/mcp"));
        assert!(!same_resource("http://h:1/mcp", "http://h:2/mcp"));
        assert!(!same_resource("http://h/mcp", "http://h/other"));
        assert!(same_resource("https://h:443/mcp", "https://h/mcp"));
        assert!(!same_resource("https://h/mcp?a=1", "https://h/mcp"));
    }
}
