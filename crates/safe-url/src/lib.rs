//! The one check for every URL that arrives from outside the learner's own hands:
//! an authorization server's endpoints, a protected resource's metadata, a URL
//! elicitation, any link a server asks the page or the CLI to open or fetch.
//!
//! The rule ([`RULE`]): `https://` always, `http://` only to a loopback host
//! (`localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`); no user name or password
//! in the authority; no spaces or control characters anywhere. Everything else
//! (`javascript:`, `data:`, `file:`, `blob:`, custom schemes, `https://bank@evil/`)
//! is refused with a [`Refusal`] that names the rule it broke.
//!
//! URLs are parsed by the `url` crate (the WHATWG URL standard), so the host this
//! check sees is the host the browser and reqwest connect to.
//!
//! [`ip`] classifies addresses (loopback, private, link-local, …) for the bridge,
//! which must not reach them on a remote party's say-so.

pub mod ip;

use std::net::IpAddr;

pub use url::{Host, Url};

/// The rule in words, for finding cards and error texts.
pub const RULE: &str = "only https URLs, or http to a loopback host (localhost, 127.0.0.0/8, [::1]), with no user name or password";

/// Why a URL was refused; each variant is one part of [`RULE`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Not a URL the WHATWG parser reads, or a relative one.
    #[error("it is not an absolute URL")]
    NotAUrl,
    /// Spaces or control characters, which parsers strip or read differently.
    #[error("it contains spaces or control characters")]
    Whitespace,
    /// A scheme other than `https` or `http` (`javascript:`, `data:`, `file:`, …).
    #[error("its scheme {0:?} is not https or http")]
    Scheme(String),
    /// `http://` to a host that is not loopback: tokens would cross the network in clear.
    #[error("plain http is allowed only to a loopback host, not {0:?}")]
    PlainHttp(String),
    /// `https://user:pass@host/`: the part before `@` hides where the URL goes.
    #[error("it has a user name or password before the host")]
    UserInfo,
    /// No host at all.
    #[error("it has no host")]
    NoHost,
}

impl Refusal {
    /// A short name of the rule broken, for a finding card's title.
    pub fn rule(&self) -> &'static str {
        match self {
            Refusal::NotAUrl => "absolute URL",
            Refusal::Whitespace => "no spaces or control characters",
            Refusal::Scheme(_) => "https or loopback http only",
            Refusal::PlainHttp(_) => "https or loopback http only",
            Refusal::UserInfo => "no user name or password in a URL",
            Refusal::NoHost => "a host is required",
        }
    }
}

/// A URL that passed [`check`]: safe to fetch or to open on the learner's click.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    url: Url,
}

impl Checked {
    /// The URL as the WHATWG serializer writes it (host in punycode, lower case).
    pub fn as_str(&self) -> &str {
        self.url.as_str()
    }

    /// The parsed URL.
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// The host as it goes on the wire: ASCII, punycode for international names.
    pub fn host_ascii(&self) -> String {
        match self.url.host() {
            Some(url::Host::Domain(d)) => d.to_owned(),
            Some(url::Host::Ipv4(a)) => a.to_string(),
            Some(url::Host::Ipv6(a)) => format!("[{a}]"),
            None => String::new(),
        }
    }

    /// The host as a person reads it: Unicode where the name is international.
    /// Show it beside [`Checked::host_ascii`] when the two differ, so a look-alike
    /// (`аррlе.com` in Cyrillic) shows its `xn--` form.
    pub fn host_unicode(&self) -> String {
        let ascii = self.host_ascii();
        let (unicode, result) = idna::domain_to_unicode(&ascii);
        if result.is_ok() { unicode } else { ascii }
    }

    /// Whether the host is loopback (`localhost`, `*.localhost`, `127/8`, `::1`).
    pub fn is_loopback(&self) -> bool {
        is_loopback_host(&self.url)
    }
}

impl std::fmt::Display for Checked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.url.as_str())
    }
}

/// Checks `raw` against [`RULE`].
pub fn check(raw: &str) -> Result<Checked, Refusal> {
    if raw.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(Refusal::Whitespace);
    }
    let url = Url::parse(raw).map_err(|_| Refusal::NotAUrl)?;
    match url.scheme() {
        "https" | "http" => {}
        other => return Err(Refusal::Scheme(other.to_owned())),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Refusal::UserInfo);
    }
    if url.host().is_none() {
        return Err(Refusal::NoHost);
    }
    if url.scheme() == "http" && !is_loopback_host(&url) {
        return Err(Refusal::PlainHttp(
            url.host_str().unwrap_or_default().to_owned(),
        ));
    }
    Ok(Checked { url })
}

/// Whether the URL's host is a loopback name or address.
fn is_loopback_host(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => {
            let d = d.trim_end_matches('.');
            d == "localhost" || d.ends_with(".localhost")
        }
        Some(url::Host::Ipv4(a)) => IpAddr::V4(a).is_loopback(),
        Some(url::Host::Ipv6(a)) => IpAddr::V6(a).is_loopback(),
        None => false,
    }
}

#[cfg(test)]
// A test fails by panicking.
#[allow(clippy::unwrap_used, clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn https_and_loopback_http_pass() {
        for ok in [
            "https://as.example/authorize?x=1",
            "https://as.example:8443/",
            "http://localhost:3000/token",
            "http://app.localhost/x",
            "http://127.0.0.1:9/",
            "http://127.1.2.3/",
            "http://[::1]:80/",
            "HTTPS://AS.Example/",
        ] {
            assert!(check(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn everything_else_is_refused_by_name() {
        let cases: &[(&str, Refusal)] = &[
            ("javascript:alert(1)", Refusal::Scheme("javascript".into())),
            ("JavaScript:alert(1)", Refusal::Scheme("javascript".into())),
            (
                "data:text/html,<script>x</script>",
                Refusal::Scheme("data".into()),
            ),
            ("file:///etc/passwd", Refusal::Scheme("file".into())),
            (
                "blob:https://a.example/uuid",
                Refusal::Scheme("blob".into()),
            ),
            ("vscode://x/y", Refusal::Scheme("vscode".into())),
            (
                "http://as.example/",
                Refusal::PlainHttp("as.example".into()),
            ),
            ("http://10.0.0.1/", Refusal::PlainHttp("10.0.0.1".into())),
            ("https://bank.example@evil.example/", Refusal::UserInfo),
            ("https://u:p@as.example/", Refusal::UserInfo),
            (" javascript:alert(1)", Refusal::Whitespace),
            ("java\tscript:alert(1)", Refusal::Whitespace),
            ("https://a.example/\n", Refusal::Whitespace),
            ("/relative", Refusal::NotAUrl),
            ("", Refusal::NotAUrl),
        ];
        for (raw, want) in cases {
            assert_eq!(check(raw).err().as_ref(), Some(want), "{raw}");
        }
    }

    #[test]
    fn numeric_and_odd_hosts_are_read_as_the_browser_reads_them() {
        // Decimal 127.0.0.1 is loopback to a browser, so it is to the check.
        let c = check("http://2130706433:8080/").unwrap();
        assert!(c.is_loopback());
        assert_eq!(c.host_ascii(), "127.0.0.1");
        // A backslash is a path separator in http(s) URLs (WHATWG): the host is a.example.
        let c = check("https://a.example\\@evil.example/").unwrap();
        assert_eq!(c.host_ascii(), "a.example");
        // "localhost.evil.example" is not loopback.
        assert!(check("http://localhost.evil.example/").is_err());
    }

    #[test]
    fn international_names_show_both_forms() {
        let c = check("https://bücher.example/").unwrap();
        assert_eq!(c.host_ascii(), "xn--bcher-kva.example");
        assert_eq!(c.host_unicode(), "bücher.example");
        let c = check("https://\u{430}\u{440}\u{440}l\u{435}.com/").unwrap();
        assert!(c.host_ascii().starts_with("xn--"), "{}", c.host_ascii());
    }
}
