//! The HTTP rules of the stateless generation (2026-07-28) for a request sent with
//! no session: what a server checks before the demo sees it (SEP-2575: the `_meta`
//! every request carries and the `MCP-Protocol-Version` header that must repeat
//! it; SEP-2243: `Mcp-Method` and `Mcp-Name` repeating the body), and the HTTP
//! status a JSON-RPC error maps to (an unknown method is 404, a bad request 400).
//! The initialize generation answers every JSON-RPC error with 200.

use mcpg_core::jsonrpc::code;
use serde_json::Value;

use crate::Answer;

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// Methods 2026-07-28 removed that the demo's core still answers for a stamped
/// request (it serves both generations): refused here, on the stateless face.
/// (`initialize` reaches this only when stamped for 2026-07-28: see [`stamped`].)
const REMOVED: &[&str] = &["ping", "initialize"];

/// Whether a request speaks 2026-07-28: its `MCP-Protocol-Version` header or its
/// `_meta` names it (an `initialize` that is, is refused rather than opening a session).
pub(crate) fn stamped(body: &str, version_header: Option<&str>) -> bool {
    let stateless = |v: &str| v == "2026-07-28";
    version_header.is_some_and(stateless)
        || serde_json::from_str::<Value>(body).ok().is_some_and(|v| {
            v.pointer("/params/_meta")
                .and_then(|m| m.get(META_VERSION))
                .and_then(Value::as_str)
                .is_some_and(stateless)
        })
}

/// A refusal for a stateless request whose `_meta` or headers are wrong, or
/// `None` (not a request, or one that passes). `header` reads a request header.
pub(crate) fn refuse<'h>(body: &str, header: impl Fn(&str) -> Option<&'h str>) -> Option<Answer> {
    let v: Value = serde_json::from_str(body).ok()?;
    let method = v.get("method")?.as_str()?;
    let id = v.get("id")?;
    let invalid = |m: &str| crate::refusals::rpc_error_for(id, 400, code::INVALID_PARAMS, m);
    let mismatch = |m: &str| crate::refusals::rpc_error_for(id, 400, code::HEADER_MISMATCH, m);
    let params = v.get("params");
    let meta = params.and_then(|p| p.get("_meta"));
    if REMOVED.contains(&method) {
        let why = format!(
            "{method} is not a method of 2026-07-28 (requests carry _meta instead of a session)"
        );
        return Some(crate::refusals::rpc_error_for(
            id,
            404,
            code::METHOD_NOT_FOUND,
            &why,
        ));
    }
    let Some(version) = meta
        .and_then(|m| m.get(META_VERSION))
        .and_then(Value::as_str)
    else {
        return Some(invalid(
            "a request with no session carries _meta with io.modelcontextprotocol/protocolVersion (2026-07-28), or opens a session with initialize first",
        ));
    };
    if meta.and_then(|m| m.get(META_CAPABILITIES)).is_none() {
        return Some(invalid(
            "_meta lacks io.modelcontextprotocol/clientCapabilities (send {} for none)",
        ));
    }
    if header("mcp-protocol-version") != Some(version) {
        return Some(mismatch(
            "MCP-Protocol-Version must repeat _meta's protocolVersion",
        ));
    }
    if !header("mcp-method").is_some_and(|h| same(h, method)) {
        return Some(mismatch("Mcp-Method must repeat the body's method"));
    }
    let name = match method {
        "tools/call" | "prompts/get" => params.and_then(|p| p.get("name")),
        "resources/read" => params.and_then(|p| p.get("uri")),
        _ => None,
    };
    if let Some(name) = name.and_then(Value::as_str)
        && !header("mcp-name").is_some_and(|h| same(h, name))
    {
        return Some(mismatch("Mcp-Name must repeat the body's name (or uri)"));
    }
    None
}

/// The status for a stateless answer: a single JSON-RPC error keeps no 200.
pub(crate) fn status(answer: &mut Answer) {
    if answer.status != 200 || answer.stream.is_some() {
        return;
    }
    let is_json = answer
        .headers
        .iter()
        .any(|(n, v)| n == "content-type" && v == "application/json");
    if !is_json {
        return;
    }
    let err = serde_json::from_str::<Value>(&answer.body)
        .ok()
        .and_then(|v| v.get("error")?.get("code")?.as_i64());
    answer.status = match err {
        Some(code::METHOD_NOT_FOUND) => 404,
        Some(
            code::INVALID_REQUEST
            | code::INVALID_PARAMS
            | code::HEADER_MISMATCH
            | code::MISSING_CLIENT_CAPABILITY
            | code::UNSUPPORTED_PROTOCOL_VERSION,
        ) => 400,
        _ => 200,
    };
}

/// Whether header value `h` names `value`: as is, or in the `=?base64?…?=` form
/// for values that are not visible ASCII.
fn same(h: &str, value: &str) -> bool {
    match h
        .strip_prefix("=?base64?")
        .and_then(|r| r.strip_suffix("?="))
    {
        Some(b64) => base64_decode(b64).is_some_and(|bytes| bytes == value.as_bytes()),
        None => h == value,
    }
}

/// Standard base64 with padding (RFC 4648 section 4); `None` for anything else.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    };
    if !s.len().is_multiple_of(4) {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for chunk in s.as_bytes().chunks(4) {
        let pad = chunk.iter().rev().take_while(|&&c| c == b'=').count();
        let mut n = 0u32;
        for &c in chunk {
            n = (n << 6) | if c == b'=' { 0 } else { digit(c)? };
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(bytes.get(1..4 - pad)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_names_are_read() {
        assert!(same("=?base64?w6l0w6k=?=", "été"));
        assert!(same("=?base64?YWI=?=", "ab"));
        assert!(same("=?base64?YWJj?=", "abc"));
        assert!(!same("=?base64?YWJj?=", "abd"));
        assert!(!same("=?base64?YW?=", "a"));
        assert!(same("tools/call", "tools/call"));
        assert!(!same("TOOLS/CALL", "tools/call"));
    }
}
