//! [`BridgeLink`]: the bridge's address and token as a hosted page's link carries
//! them, in its fragment: `https://SITE/playground/#bridge=http://127.0.0.1:PORT&token=…`.
//!
//! The bridge writes it (`mcpg serve --page-origin`) and the page reads it, so the
//! format lives here once. A fragment is never sent to the page's host; the page
//! removes it from the address bar as soon as it has read it.

use std::fmt;

/// The longest token accepted (the bridge's is 64 hex digits).
const MAX_TOKEN: usize = 256;

/// Why a fragment meant for the bridge cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BridgeLinkError {
    /// `bridge=` is missing.
    #[error("the link has a token but no bridge address (bridge=http://127.0.0.1:PORT)")]
    NoAddress,
    /// `token=` is missing or empty.
    #[error("the link names a bridge but carries no token")]
    NoToken,
    /// The address is not `http(s)://HOST[:PORT]`.
    #[error("{0:?} is not a bridge address like http://127.0.0.1:PORT")]
    BadAddress(String),
    /// The address names another machine: a link must never send the page to a
    /// host chosen by whoever wrote the link.
    #[error(
        "{0:?} is not on this machine; the page only uses a bridge on 127.0.0.1, localhost or [::1]"
    )]
    NotLoopback(String),
    /// The token has characters a bridge token never has.
    #[error("the token is not one a bridge prints")]
    BadToken,
}

/// Where the bridge listens and the token it printed.
#[derive(Clone, PartialEq, Eq)]
pub struct BridgeLink {
    base: String,
    token: String,
}

impl BridgeLink {
    /// Checks and keeps `base` (`http://127.0.0.1:PORT`, on this machine) and `token`.
    pub fn new(base: &str, token: &str) -> Result<BridgeLink, BridgeLinkError> {
        let base = loopback_base(base)?;
        let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
        if token.is_empty() {
            return Err(BridgeLinkError::NoToken);
        }
        if token.len() > MAX_TOKEN || !token.bytes().all(plain) {
            return Err(BridgeLinkError::BadToken);
        }
        Ok(BridgeLink {
            base,
            token: token.to_owned(),
        })
    }

    /// Reads a URL fragment (with or without its `#`). `None` when it is not meant
    /// for the bridge (a session link `#s1.…`, an anchor): only a fragment with a
    /// `bridge` or `token` parameter is.
    pub fn read_fragment(fragment: &str) -> Option<Result<BridgeLink, BridgeLinkError>> {
        let f = fragment.strip_prefix('#').unwrap_or(fragment);
        let (mut base, mut token) = (None, None);
        for part in f.split('&') {
            let (key, value) = part.split_once('=').unwrap_or((part, ""));
            match key {
                "bridge" => base = Some(value),
                "token" => token = Some(value),
                _ => {}
            }
        }
        if base.is_none() && token.is_none() {
            return None;
        }
        Some(match (base, token) {
            (None, _) => Err(BridgeLinkError::NoAddress),
            (_, None) => Err(BridgeLinkError::NoToken),
            (Some(b), Some(t)) => match (percent_decode(b), percent_decode(t)) {
                (Some(b), Some(t)) => BridgeLink::new(&b, &t),
                (None, _) => Err(BridgeLinkError::BadAddress(b.to_owned())),
                (_, None) => Err(BridgeLinkError::BadToken),
            },
        })
    }

    /// The fragment, without `#`: `bridge=http://127.0.0.1:PORT&token=…`.
    pub fn to_fragment(&self) -> String {
        format!("bridge={}&token={}", self.base, self.token)
    }

    /// `http://127.0.0.1:PORT`, with no trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The token, for the bridge's own URLs only.
    pub fn token(&self) -> &str {
        &self.token
    }
}

// Never print the token by accident (in a log of the page's state, say).
impl fmt::Debug for BridgeLink {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BridgeLink({}, token …)", self.base)
    }
}

/// `http(s)://HOST[:PORT][/]` with a loopback HOST, normalized (lowercase, no slash).
fn loopback_base(given: &str) -> Result<String, BridgeLinkError> {
    let bad = || BridgeLinkError::BadAddress(given.to_owned());
    let lower = given.to_ascii_lowercase();
    let (scheme, rest) = lower.split_once("://").ok_or_else(bad)?;
    if !matches!(scheme, "http" | "https") {
        return Err(bad());
    }
    let authority = rest.strip_suffix('/').unwrap_or(rest);
    if authority.is_empty() || authority.contains(['/', '?', '#', '@', '\\', ' ']) {
        return Err(bad());
    }
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (inner, after) = v6.split_once(']').ok_or_else(bad)?;
            (format!("[{inner}]"), after)
        }
        None => match authority.split_once(':') {
            Some((h, _)) => (h.to_owned(), &authority[h.len()..]),
            None => (authority.to_owned(), ""),
        },
    };
    if let Some(p) = port.strip_prefix(':') {
        if p.is_empty() || p.len() > 5 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
    } else if !port.is_empty() {
        return Err(bad());
    }
    // By hand, not `Ipv4Addr`/`Ipv6Addr` parsing: std's address parsers cost the page
    // ~7 KB (brotli), and a browser writes loopback in these forms only.
    let loopback = host == "localhost" || host == "[::1]" || is_127(&host);
    if !loopback {
        return Err(BridgeLinkError::NotLoopback(given.to_owned()));
    }
    Ok(format!("{scheme}://{authority}"))
}

/// `127.a.b.c` in dotted decimal, each part 0-255 without leading zeros.
fn is_127(host: &str) -> bool {
    let Some(rest) = host.strip_prefix("127.") else {
        return false;
    };
    let octet = |p: &str| {
        let b = p.as_bytes();
        if b.is_empty() || b.len() > 3 || !b.iter().all(u8::is_ascii_digit) {
            return false;
        }
        // Integer parsing by hand, like the rest: the page carries no `FromStr`.
        let value = b.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
        !(b.len() > 1 && b[0] == b'0') && value <= 255
    };
    let mut parts = rest.split('.');
    (0..3).all(|_| parts.next().is_some_and(octet)) && parts.next().is_none()
}

/// `%XX` escapes decoded (a link may have been escaped on its way); `None` for a
/// broken escape or text that is not UTF-8.
fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b == b'%' {
            let hi = hex_value(*bytes.get(i + 1)?)?;
            let lo = hex_value(*bytes.get(i + 2)?)?;
            out.push(hi << 4 | lo);
            i += 3;
        } else {
            out.push(b);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}
