//! `--page-origin`: a page hosted elsewhere (a static site such as GitHub Pages) that
//! the bridge trusts, and the link that opens it with the bridge's address and token.
//!
//! Only `https://` pages, or `http://` on a loopback host (a dev server on this
//! machine): a page trusted over plain http from elsewhere could be rewritten on
//! the way by anyone on the network, and it would then hold the bridge's token.
//!
//! The address and token travel in the link's *fragment*, never its query: a browser
//! never sends the fragment to the static host, so neither the host's logs nor a
//! proxy on the way ever see the token. The page reads them and removes them from the
//! address bar at once.

use std::fmt;
use std::net::SocketAddr;

use mcpg_bridge_api::BridgeLink;
use reqwest::Url;

use crate::config::Config;

/// Why a `--page-origin` value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PageOriginError {
    /// Not an absolute URL at all.
    #[error(
        "{0:?} is not an absolute URL; give the page's origin, e.g. https://example.org or https://example.org/playground/"
    )]
    NotAUrl(String),
    /// A scheme other than `http` or `https`.
    #[error("{value:?} uses {scheme}:, but a page is served over http: or https:")]
    Scheme {
        /// What was given.
        value: String,
        /// Its scheme.
        scheme: String,
    },
    /// `http://` to a host that is not loopback: anyone on the way could rewrite
    /// the page, and the page gets the bridge's token.
    #[error(
        "{0:?} is plain http to a host that is not this machine; use https:// (or http:// on localhost, 127.0.0.1 or [::1])"
    )]
    PlainHttp(String),
    /// `user:password@`: an origin never has one, and it would end up in a link.
    #[error("{0:?} has a user name or password; give the page's address without them")]
    Credentials(String),
    /// A query or fragment: the bridge writes the fragment itself, and a query would
    /// reach the static host.
    #[error(
        "{0:?} has a query or a fragment; give the page's address without them (the bridge adds its own fragment)"
    )]
    QueryOrFragment(String),
}

/// A trusted page: its origin (what the browser sends as `Origin`) and the address
/// the printed link opens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageOrigin {
    origin: String,
    page: String,
}

impl PageOrigin {
    /// Reads `https://host[:port]` or a page URL under it (`https://host/playground/`):
    /// the origin is trusted, the path is used in the printed link.
    pub fn parse(value: &str) -> Result<PageOrigin, PageOriginError> {
        let url = Url::parse(value.trim()).map_err(|_| PageOriginError::NotAUrl(value.into()))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(PageOriginError::Scheme {
                value: value.into(),
                scheme: url.scheme().into(),
            });
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(PageOriginError::Credentials(value.into()));
        }
        if url.query().is_some() || url.fragment().is_some() {
            return Err(PageOriginError::QueryOrFragment(value.into()));
        }
        // The shared rule (https, or http to loopback); the checks above already
        // refused everything else it refuses, with their own words.
        match mcpg_safe_url::check(url.as_str()) {
            Ok(_) => {}
            Err(mcpg_safe_url::Refusal::PlainHttp(_)) => {
                return Err(PageOriginError::PlainHttp(value.into()));
            }
            Err(_) => return Err(PageOriginError::NotAUrl(value.into())),
        }
        // An http(s) URL always has a host (the parser refuses one without), so its
        // origin is a tuple and serializes as the browser's `Origin` header does:
        // lowercase, punycode, default port left out.
        let origin = url.origin().ascii_serialization();
        let page = [origin.as_str(), url.path()].concat();
        Ok(PageOrigin { origin, page })
    }

    /// The origin, as a browser sends it in `Origin` (`https://example.org`).
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The page's address without a fragment (`https://example.org/playground/`).
    pub fn page(&self) -> &str {
        &self.page
    }

    /// The link to print: the page with `#bridge=http://ADDR&token=TOKEN` (the
    /// format the page reads, [`BridgeLink`]).
    pub fn link(&self, bridge: &BridgeLink) -> String {
        format!("{}#{}", self.page, bridge.to_fragment())
    }
}

impl fmt::Display for PageOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.page)
    }
}

impl std::str::FromStr for PageOrigin {
    type Err = PageOriginError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PageOrigin::parse(s)
    }
}

impl Config {
    /// Trusts `pages` the way `allowed_origins` are trusted: the same Origin check and
    /// the same CORS answers, for each page's origin only (never its path, which a
    /// browser does not send).
    pub fn trust_pages(&mut self, pages: &[PageOrigin]) {
        for p in pages {
            if !self.allowed_origins.iter().any(|o| o == p.origin()) {
                self.allowed_origins.push(p.origin().to_owned());
            }
        }
    }
}

/// The bridge's own address as a browser elsewhere on this machine should reach it
/// (`http://127.0.0.1:PORT`; an unspecified bind address becomes 127.0.0.1).
pub fn bridge_base(local: SocketAddr) -> String {
    let host = match local.ip() {
        ip if ip.is_unspecified() => format!("127.0.0.1:{}", local.port()),
        _ => local.to_string(),
    };
    format!("http://{host}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_origin_or_a_page_url_is_read_as_the_browser_would_send_it() {
        for (given, origin, page) in [
            (
                "https://example.org",
                "https://example.org",
                "https://example.org/",
            ),
            (
                "https://Example.ORG:443/playground/",
                "https://example.org",
                "https://example.org/playground/",
            ),
            (
                "http://localhost:8080/playground",
                "http://localhost:8080",
                "http://localhost:8080/playground",
            ),
            (
                "http://127.0.0.1:80/",
                "http://127.0.0.1",
                "http://127.0.0.1/",
            ),
            (" https://a.b/x/ ", "https://a.b", "https://a.b/x/"),
            (
                "http://[::1]:8080/",
                "http://[::1]:8080",
                "http://[::1]:8080/",
            ),
            (
                "http://app.localhost:3000/",
                "http://app.localhost:3000",
                "http://app.localhost:3000/",
            ),
        ] {
            let p = PageOrigin::parse(given).unwrap();
            assert_eq!((p.origin(), p.page()), (origin, page), "{given}");
        }
    }

    #[test]
    fn bad_values_are_refused_with_a_typed_reason() {
        fn kind(e: &PageOriginError) -> &'static str {
            match e {
                PageOriginError::NotAUrl(_) => "url",
                PageOriginError::Scheme { .. } => "scheme",
                PageOriginError::Credentials(_) => "credentials",
                PageOriginError::QueryOrFragment(_) => "query",
                PageOriginError::PlainHttp(_) => "plain http",
            }
        }
        for (given, want) in [
            ("example.org", "url"),
            ("", "url"),
            ("*", "url"),
            ("file:///tmp/dist/", "scheme"),
            ("ftp://example.org", "scheme"),
            ("https://me:pw@example.org/", "credentials"),
            ("https://example.org/?token=x", "query"),
            ("https://example.org/#x", "query"),
            ("http://example.org/", "plain http"),
            ("http://192.168.1.5:8080/", "plain http"),
            ("http://localhost.example.org/", "plain http"),
        ] {
            let err = PageOrigin::parse(given).unwrap_err();
            assert_eq!(kind(&err), want, "{given:?} gave {err:?}");
            assert!(err.to_string().contains(given.trim()), "{err}");
        }
    }

    #[test]
    fn the_link_carries_address_and_token_in_the_fragment_only() {
        let p = PageOrigin::parse("https://example.org/playground/").unwrap();
        let link = p.link(&BridgeLink::new("http://127.0.0.1:4000", "abc").unwrap());
        assert_eq!(
            link,
            "https://example.org/playground/#bridge=http://127.0.0.1:4000&token=abc"
        );
        let (before, _) = link.split_once('#').unwrap();
        assert!(!before.contains("abc") && !before.contains('?'));
    }

    #[test]
    fn the_bridge_base_is_one_a_browser_here_can_open() {
        let at = |s: &str| bridge_base(s.parse().unwrap());
        assert_eq!(at("127.0.0.1:8080"), "http://127.0.0.1:8080");
        assert_eq!(at("0.0.0.0:8080"), "http://127.0.0.1:8080");
        assert_eq!(at("[::1]:8080"), "http://[::1]:8080");
    }
}
