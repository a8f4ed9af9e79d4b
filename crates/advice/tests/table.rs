//! The table, row by row, on the exact answers real SDKs sent (copied from their
//! wire logs; the CLI's tests in `crates/cli/tests/it/advice.rs` meet the same
//! answers live), and the near misses each row must not take.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_advice::{AdviceId, Situation, advise};
use mcpg_core::ProtocolVersion;
use mcpg_core::client::GenerationMode;
use mcpg_core::jsonrpc::{Body, Message, RpcError};

const V2026: Option<ProtocolVersion> = Some(ProtocolVersion::V2026_07_28);
const V2025: Option<ProtocolVersion> = Some(ProtocolVersion::V2025_11_25);

/// The error of a JSON-RPC error response, as it crossed the wire.
fn wire(line: &str) -> RpcError {
    match Message::decode(line).unwrap().body() {
        Body::Error { error, .. } => error.clone(),
        other => panic!("not an error response: {other:?}"),
    }
}

fn id(s: &Situation) -> Option<AdviceId> {
    advise(s).map(|a| a.id)
}

/// The Python SDK 2.3.0 (`classic_asks.py`'s `roots` tool) under 2026-07-28.
const NO_BACK_CHANNEL: &str = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"Cannot send 'roots/list': this transport context has no back-channel for server-initiated requests."}}"#;

#[test]
fn python_no_back_channel_under_2026_names_2025_11_25() {
    let s = Situation::rpc("tools/call", &wire(NO_BACK_CHANNEL)).under(V2026);
    let a = advise(&s).unwrap();
    assert_eq!(a.id, AdviceId::NoBackChannel);
    assert_eq!(
        a.cli.as_deref(),
        Some("--protocol-version 2025-11-25 --root file:///PATH")
    );
    assert!(a.why.contains("roots/list") && a.why.contains("input_required"));
    assert!(a.page.unwrap().contains("\"2025-11-25 only\""));
    // Each method the SDK may name gets its own flag.
    for (method, flag) in [
        ("sampling/createMessage", "--on-sample mock"),
        ("elicitation/create", "--on-elicit ask"),
    ] {
        let e = wire(&NO_BACK_CHANNEL.replace("roots/list", method));
        let a = advise(&Situation::rpc("tools/call", &e).under(V2026)).unwrap();
        assert!(a.cli.unwrap().ends_with(flag));
    }
}

#[test]
fn no_back_channel_needs_2026_and_the_sdks_words() {
    let e = wire(NO_BACK_CHANNEL);
    // Under 2025-11-25 the fix would be no fix.
    assert_eq!(id(&Situation::rpc("tools/call", &e).under(V2025)), None);
    // Unknown revision: only when the client was held to 2026-07-28.
    assert_eq!(id(&Situation::rpc("tools/call", &e)), None);
    let held = Situation::rpc("tools/call", &e).allowing(GenerationMode::Stateless);
    assert_eq!(id(&held), Some(AdviceId::NoBackChannel));
    // Another -32600 is another matter.
    let other = RpcError::new(-32600, "Bad Request: Missing session ID");
    assert_eq!(id(&Situation::rpc("tools/call", &other).under(V2026)), None);
    // An unknown method in the words is never repeated.
    let odd = wire(&NO_BACK_CHANNEL.replace("roots/list", "\\u001b[31mx"));
    let a = advise(&Situation::rpc("tools/call", &odd).under(V2026)).unwrap();
    assert_eq!(a.cli.as_deref(), Some("--protocol-version 2025-11-25"));
    assert!(!a.why.contains('\u{1b}') && !a.why.contains("[31m"));
}

/// The Python SDK over Streamable HTTP, given a second `Mcp-Name` (HTTP 400).
const HEADER_MISMATCH: &str = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"mcp-name header appears more than once"}}"#;

#[test]
fn header_mismatch_names_the_headers_and_2025_11_25() {
    let s = Situation::rpc("tools/call", &wire(HEADER_MISMATCH)).under(V2026);
    let a = advise(&s).unwrap();
    assert_eq!(a.id, AdviceId::HeaderMismatch);
    assert!(a.cli.unwrap().contains("Mcp-Name"));
    // rmcp's wording for a missing header is a -32020 too.
    let rmcp = RpcError::new(-32020, "missing required Mcp-Method header");
    assert_eq!(
        id(&Situation::rpc("tools/list", &rmcp)),
        Some(AdviceId::HeaderMismatch)
    );
}

/// The Python SDK's `book` tool, called without the elicitation capability.
const MISSING_ELICITATION: &str = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32021,"message":"Client did not declare the form elicitation capability required by resolver '__main__:ask_booking'","data":{"requiredCapabilities":{"elicitation":{"form":{}}}}}}"#;

#[test]
fn missing_capability_names_the_flag_that_declares_it() {
    let a = advise(&Situation::rpc("tools/call", &wire(MISSING_ELICITATION))).unwrap();
    assert_eq!(a.id, AdviceId::MissingClientCapability);
    assert_eq!(a.cli.as_deref(), Some("--on-elicit ask"));
    assert!(a.why.contains("elicitation"));
    assert!(
        !a.why.contains("ask_booking"),
        "the server's words stay out"
    );
    // The spec's example shape, several at once, and what mcpg cannot declare.
    let e = RpcError {
        data: Some(serde_json::json!({"requiredCapabilities": {
            "roots": {}, "sampling": {}, "experimental": {"x": {}},
            "extensions": {"io.modelcontextprotocol/tasks": {}}
        }})),
        ..RpcError::new(-32021, "Missing required client capability")
    };
    let a = advise(&Situation::rpc("tasks/get", &e)).unwrap();
    assert_eq!(
        a.cli.as_deref(),
        Some("--on-sample mock --root file:///PATH")
    );
    assert!(a.why.contains("Tasks extension") && a.why.contains("does not know"));
    assert!(!a.why.contains("experimental"));
    // No data at all still says what the code means.
    let bare = RpcError::new(-32021, "Missing required client capability");
    let a = advise(&Situation::rpc("tasks/get", &bare)).unwrap();
    assert_eq!((a.id, a.cli), (AdviceId::MissingClientCapability, None));
}

/// What the Python SDK answers `initialize` on a connection serving 2026-07-28
/// (`mcp/server/runner.py`, `_serve_modern_stream`).
const INITIALIZE_REFUSED: &str = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"connection is serving the 2026-07-28 protocol; the initialize handshake is not accepted","data":{"supported":["2026-07-28"],"requested":"2025-11-25"}}}"#;

#[test]
fn a_stateless_only_server_refusing_initialize_wants_auto() {
    let s = Situation::rpc("initialize", &wire(INITIALIZE_REFUSED))
        .allowing(GenerationMode::Initialize);
    let a = advise(&s).unwrap();
    assert_eq!(a.id, AdviceId::StatelessOnlyServer);
    assert!(a.cli.unwrap().starts_with("--protocol auto"));
    assert!(a.page.unwrap().contains("auto"));
    assert!(a.why.contains("2026-07-28"));
}

/// server-everything 2026.8.31 answering `server/discover` (stdio).
const DISCOVER_UNKNOWN: &str =
    r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32601,"message":"Method not found"}}"#;

#[test]
fn an_initialize_only_server_probed_under_stateless_wants_auto() {
    let s = Situation::rpc("server/discover", &wire(DISCOVER_UNKNOWN));
    // Under auto the client falls back by itself: not a failure to advise on.
    assert_eq!(id(&s), None);
    let held = s.allowing(GenerationMode::Stateless);
    let a = advise(&held).unwrap();
    assert_eq!(a.id, AdviceId::InitializeOnlyServer);
    assert!(a.cli.unwrap().contains("--protocol-version 2025-11-25"));
    // An HTTP refusal of the probe (no JSON-RPC body) is the same answer; a 401 is not.
    let s = Situation::http("server/discover", 405);
    assert_eq!(
        id(&s.allowing(GenerationMode::Stateless)),
        Some(AdviceId::InitializeOnlyServer)
    );
    let s = Situation::http("server/discover", 401);
    assert_eq!(id(&s.allowing(GenerationMode::Stateless)), None);
    // The same -32601 answering initialize is no such advice.
    let s = Situation::rpc("initialize", &wire(DISCOVER_UNKNOWN));
    assert_eq!(id(&s.allowing(GenerationMode::Stateless)), None);
}

/// rmcp 3.11 (and the Python SDK) answering a request whose `_meta` names an
/// unknown revision.
const UNSUPPORTED: &str = r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"2099-01-01","supported":["2024-11-05","2025-03-26","2025-06-18","2025-11-25","2026-07-28"]}}}"#;

#[test]
fn unsupported_version_names_the_newest_both_speak() {
    let a = advise(&Situation::rpc("tools/list", &wire(UNSUPPORTED))).unwrap();
    assert_eq!(a.id, AdviceId::UnsupportedProtocolVersion);
    assert_eq!(a.cli.as_deref(), Some("--protocol-version 2026-07-28"));
    assert!(
        !a.why.contains("2099"),
        "the requested value is the peer's to say"
    );
    // Unknown dates only: no flag to offer.
    let e = RpcError {
        data: Some(serde_json::json!({"supported": ["2030-01-01"], "requested": "x"})),
        ..RpcError::new(-32022, "Unsupported protocol version")
    };
    let a = advise(&Situation::rpc("tools/list", &e)).unwrap();
    assert_eq!((a.id, a.cli), (AdviceId::UnsupportedProtocolVersion, None));
}

#[test]
fn http_406_and_415_are_read_from_the_status() {
    // The Python SDK and server-everything put a JSON-RPC error of their own in
    // the 406's body (-32600, -32000); the status decides, not that error.
    let python = wire(
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Not Acceptable: Client must accept both application/json and text/event-stream"}}"#,
    );
    let s = Situation {
        status: Some(406),
        ..Situation::rpc("initialize", &python).under(V2026)
    };
    assert_eq!(id(&s), Some(AdviceId::NotAcceptable));
    let s = Situation::http("initialize", 406).typed("text/plain");
    let a = advise(&s).unwrap();
    assert_eq!(a.id, AdviceId::NotAcceptable);
    assert!(a.cli.unwrap().contains("Accept"));
    let s = Situation::http("initialize", 415);
    assert_eq!(id(&s), Some(AdviceId::UnsupportedMediaType));
    assert_eq!(id(&Situation::http("tools/call", 500)), None);
}

#[test]
fn ids_are_stable_kebab_case_and_unique() {
    let names: Vec<&str> = AdviceId::ALL.iter().map(|i| i.as_str()).collect();
    for n in &names {
        assert!(n.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{n}");
        assert_eq!(AdviceId::parse(n).map(|i| i.as_str()), Some(*n));
    }
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    assert_eq!(names[2], "no-back-channel");
}

#[test]
fn an_error_no_row_knows_gets_no_advice() {
    for (code, msg) in [(-32601, "Method not found"), (-32602, "tool not found")] {
        let e = RpcError::new(code, msg);
        assert_eq!(id(&Situation::rpc("tools/call", &e).under(V2026)), None);
    }
}
