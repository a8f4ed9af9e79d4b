//! Frames leaving the client, with the HTTP headers the protocol asks for.

use serde_json::Value;

use crate::jsonrpc::Message;
use crate::version::{Generation, ProtocolVersion};

/// One message to send, plus the protocol-level HTTP headers that go with it.
/// Transports that are not HTTP ignore the headers.
#[derive(Clone, Debug, PartialEq)]
pub struct Outgoing {
    /// The message (its `raw()` text is what goes on the wire).
    pub message: Message,
    /// `MCP-Protocol-Version`, and in 2026-07-28 `Mcp-Method` / `Mcp-Name`. The
    /// transport adds its own (`Accept`, `Content-Type`, `Mcp-Session-Id`).
    pub headers: Vec<(&'static str, String)>,
    /// 2026-07-28 `Mcp-Param-{Name}` headers of a `tools/call`: the arguments the
    /// tool's `inputSchema` marks with `x-mcp-header`, values already encoded. Kept
    /// apart from `headers` because their names come from the server, not from a
    /// fixed list. HTTP transports send both lists.
    pub param_headers: Vec<(String, String)>,
}

/// The request headers Streamable HTTP sets itself (the transport's and the
/// protocol's), in lower case. Extra headers (a learner's, a bridge config's) must
/// not override them, and a relay passes exactly these to a remote.
pub const TRANSPORT_HEADERS: [&str; 7] = [
    "accept",
    "content-type",
    "mcp-session-id",
    "mcp-protocol-version",
    "last-event-id",
    "mcp-method",
    "mcp-name",
];

/// Whether `lower` (a header name in lower case) is one Streamable HTTP sets
/// itself: one of [`TRANSPORT_HEADERS`] or a 2026-07-28 `Mcp-Param-*` header.
pub fn is_transport_header(lower: &str) -> bool {
    TRANSPORT_HEADERS.contains(&lower) || lower.starts_with("mcp-param-")
}

/// Why a request did not get through, as a transport reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum SendFailure {
    /// HTTP 404 on a request carrying a session id: the session is gone.
    SessionExpired,
    /// The server refused the request at the transport level (an HTTP status other
    /// than 2xx); `body` may hold a JSON-RPC error.
    Rejected {
        /// HTTP status.
        status: u16,
        /// Response body, as text.
        body: String,
    },
    /// The request could not be delivered at all.
    Network(String),
}

pub(crate) fn headers(
    msg: &Message,
    version: Option<ProtocolVersion>,
) -> Vec<(&'static str, String)> {
    let mut h = Vec::new();
    let Some(v) = version else { return h };
    let is_initialize = msg.method() == Some("initialize");
    if v.requires_version_header() && !is_initialize {
        h.push(("MCP-Protocol-Version", v.as_str().to_owned()));
    }
    if v.generation() == Generation::Stateless
        && let Some(method) = msg.method()
    {
        h.push(("Mcp-Method", header_value(method)));
        let params = msg.params();
        let name = match method {
            "tools/call" | "prompts/get" => params.and_then(|p| p.get("name")),
            "resources/read" => params.and_then(|p| p.get("uri")),
            _ => None,
        };
        if let Some(name) = name.and_then(Value::as_str) {
            h.push(("Mcp-Name", header_value(name)));
        }
    }
    h
}

/// A header value as 2026-07-28 asks: visible ASCII as is, anything else as
/// `=?base64?…?=` so that no byte can break the header line.
pub fn header_value(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes().all(|b| (0x20..0x7f).contains(&b))
        && !s.starts_with(' ')
        && !s.ends_with(' ')
        && !s.starts_with("=?");
    if plain {
        s.to_owned()
    } else {
        format!("=?base64?{}?=", base64_standard(s.as_bytes()))
    }
}

/// Standard base64 with padding (RFC 4648 section 4). Hand-written for size: the
/// `base64` crate's encoder, built for throughput, was about 2.9 KB of the page's
/// first-load wasm, for a few header values (December 2026). A test checks it
/// against that crate.
fn base64_standard(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let byte = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (byte(0) << 16) | (byte(1) << 8) | byte(2);
        // A chunk of k bytes gives k + 1 letters; `=` pads the group to four.
        for i in 0..4 {
            if i <= chunk.len() {
                let six = (n >> (18 - 6 * i)) & 63;
                out.push(char::from(ALPHABET[six as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_values_are_safe() {
        assert_eq!(header_value("get_weather"), "get_weather");
        assert_eq!(header_value("a\r\nb"), "=?base64?YQ0KYg==?=");
        assert_eq!(header_value("ünï"), "=?base64?w7xuw68=?=");
    }

    #[test]
    fn base64_matches_rfc_4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(base64_standard(plain.as_bytes()), encoded, "{plain}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn base64_matches_the_base64_crate(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            use base64::Engine as _;
            let expected = base64::engine::general_purpose::STANDARD.encode(&bytes);
            proptest::prop_assert_eq!(base64_standard(&bytes), expected);
        }
    }
}
