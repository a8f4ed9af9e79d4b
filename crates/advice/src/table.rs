//! The rows: one function per known refusal, tried in the order of `AdviceId::ALL`
//! (HTTP statuses first, since an SDK may put a JSON-RPC error in a 406 body).

use mcpg_core::Generation;
use mcpg_core::client::GenerationMode;
use mcpg_core::jsonrpc::code;
use mcpg_core::version::ProtocolVersion;
use serde_json::Value;

use crate::capability::{self, Capability};
use crate::{Advice, AdviceId, Situation};

/// Row `id`: the advice when the situation has its shape. A `match`, not a table
/// of function pointers: in the page each pointer would be an entry of the
/// indirect-call table, which lives in the first load's module.
pub(crate) fn row(id: AdviceId, s: &Situation) -> Option<Advice> {
    match id {
        AdviceId::NotAcceptable => not_acceptable(s),
        AdviceId::UnsupportedMediaType => unsupported_media_type(s),
        AdviceId::NoBackChannel => no_back_channel(s),
        AdviceId::HeaderMismatch => header_mismatch(s),
        AdviceId::MissingClientCapability => missing_client_capability(s),
        AdviceId::StatelessOnlyServer => stateless_only_server(s),
        AdviceId::InitializeOnlyServer => initialize_only_server(s),
        AdviceId::UnsupportedProtocolVersion => unsupported_protocol_version(s),
    }
}

/// The page's setting for the revision: the Server panel's picker, and the option
/// to choose as it reads there.
fn picker(option: &str) -> Option<String> {
    Some(format!(
        "set Protocol revision in the Server panel to \"{option}\""
    ))
}

/// The picker's option that speaks only `v`.
fn only(v: ProtocolVersion) -> String {
    format!("{} only", v.as_str())
}

const AUTO: &str = "auto (negotiate the newest both speak)";

fn advice(id: AdviceId, why: String, cli: Option<String>, page: Option<String>) -> Advice {
    Advice { id, why, cli, page }
}

fn not_acceptable(s: &Situation) -> Option<Advice> {
    (s.status? == 406).then(|| advice(
        AdviceId::NotAcceptable,
        "The server refused the POST with HTTP 406 Not Acceptable: Streamable HTTP wants `Accept: application/json, text/event-stream` on every POST. mcpg sends both, so a `--header 'Accept: …'` or a proxy in between changed the header.".into(),
        Some("drop any --header 'Accept: …', or connect without the proxy that rewrites Accept".into()),
        None,
    ))
}

fn unsupported_media_type(s: &Situation) -> Option<Advice> {
    (s.status? == 415).then(|| advice(
        AdviceId::UnsupportedMediaType,
        "The server refused the POST with HTTP 415 Unsupported Media Type: Streamable HTTP wants `Content-Type: application/json`. mcpg sends it, so a `--header 'Content-Type: …'` or a proxy in between changed the header.".into(),
        Some("drop any --header 'Content-Type: …', or connect without the proxy that rewrites it".into()),
        None,
    ))
}

/// The Python SDK 2.x (`mcp` 2.3.0, `NoBackChannelError` in
/// `mcp/shared/exceptions.py`) refuses a server-to-client request it cannot send
/// with `-32600` and no `data`: its message, "Cannot send '<method>': this
/// transport context has no back-channel for server-initiated requests.", is the
/// only signal, so this row matches its stable wording (tested against the SDK).
fn no_back_channel(s: &Situation) -> Option<Advice> {
    let e = s.coded(code::INVALID_REQUEST)?;
    if !e.message.contains("has no back-channel") {
        return None;
    }
    let stateless = s.revision.map(ProtocolVersion::generation) == Some(Generation::Stateless)
        || (s.revision.is_none() && s.mode == GenerationMode::Stateless);
    if !stateless {
        return None;
    }
    // Only a method this crate knows is named: the message is the server's text.
    let asked = ["roots/list", "sampling/createMessage", "elicitation/create"]
        .into_iter()
        .find(|m| e.message.contains(&format!("'{m}'")));
    let (what, cap) = match asked {
        Some("roots/list") => ("its roots (roots/list)", Some(Capability::Roots)),
        Some("sampling/createMessage") => (
            "a model's answer (sampling/createMessage)",
            Some(Capability::Sampling),
        ),
        Some(_) => (
            "the user's answer (elicitation/create)",
            Some(Capability::Elicitation),
        ),
        None => ("something, with a request of its own,", None),
    };
    // Under 2025-11-25 the server asks only a client that declared the capability.
    let flag = cap
        .and_then(Capability::flag)
        .map(|f| format!(" {f}"))
        .unwrap_or_default();
    Some(advice(
        AdviceId::NoBackChannel,
        format!(
            "The tool asked the client for {what} the classic way, in the middle of the call. 2026-07-28 has no server-to-client requests outside input_required (multi round-trip requests), so the server's SDK refused to send it; under 2025-11-25 the same call works."
        ),
        Some(format!("--protocol-version 2025-11-25{flag}")),
        picker(&only(ProtocolVersion::V2025_11_25)),
    ))
}

fn header_mismatch(s: &Situation) -> Option<Advice> {
    s.coded(code::HEADER_MISMATCH)?;
    Some(advice(
        AdviceId::HeaderMismatch,
        "The server found the request's HTTP headers (MCP-Protocol-Version, Mcp-Method, Mcp-Name or an Mcp-Param-* header) disagreeing with its body (-32020, 2026-07-28). mcpg sets them from the body, so a --header of the same name or a proxy that rewrites them made them disagree.".into(),
        Some("drop any --header naming MCP-Protocol-Version, Mcp-Method, Mcp-Name or Mcp-Param-*; or --protocol-version 2025-11-25, whose servers compare no such headers with the body".into()),
        picker(&only(ProtocolVersion::V2025_11_25)),
    ))
}

fn missing_client_capability(s: &Situation) -> Option<Advice> {
    let e = s.coded(code::MISSING_CLIENT_CAPABILITY)?;
    let (caps, others) = capability::required(e.data.as_ref());
    let mut names: Vec<&str> = caps.iter().map(|c| c.name()).collect();
    if others {
        names.push("a capability mcpg does not know");
    }
    let named = if names.is_empty() {
        "a client capability".to_owned()
    } else {
        names.join(", ")
    };
    let flags: Vec<&str> = caps.iter().filter_map(|c| c.flag()).collect();
    Some(advice(
        AdviceId::MissingClientCapability,
        format!(
            "The server answers this request only to a client that declares {named} (-32021). mcpg declares a capability only when a flag says how to answer what the server asks."
        ),
        (!flags.is_empty()).then(|| flags.join(" ")),
        None,
    ))
}

/// The revisions a `-32022`'s (or a refused `initialize`'s) `data.supported`
/// names that this client knows, newest last.
fn supported(s: &Situation) -> Vec<ProtocolVersion> {
    let mut v: Vec<ProtocolVersion> = s
        .error
        .as_ref()
        .and_then(|e| e.data.as_ref())
        .and_then(|d| d.get("supported"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|v| v.as_str().and_then(ProtocolVersion::parse))
        .collect();
    v.sort();
    v.dedup();
    v
}

fn list(vs: &[ProtocolVersion]) -> String {
    vs.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
}

/// The Python SDK answers `initialize` on a connection that speaks 2026-07-28
/// with `-32022` naming `supported: ["2026-07-28"]`; any refusal of `initialize`
/// naming only stateless revisions means the same.
fn stateless_only_server(s: &Situation) -> Option<Advice> {
    if !s.is("initialize") {
        return None;
    }
    let vs = supported(s);
    let all_stateless =
        !vs.is_empty() && vs.iter().all(|v| v.generation() == Generation::Stateless);
    all_stateless.then(|| advice(
        AdviceId::StatelessOnlyServer,
        format!("The server speaks only {} and has no initialize handshake: it refused the one the client sent because the client was told to speak the initialize generation only.", list(&vs)),
        Some("--protocol auto in place of --protocol initialize or an older --protocol-version; or --protocol-version 2026-07-28".into()),
        picker(AUTO),
    ))
}

/// server-everything (and any server of the `initialize` generation) answers
/// `server/discover` with `-32601`, or an HTTP 4xx, which is fatal only when the
/// client may speak nothing else.
fn initialize_only_server(s: &Situation) -> Option<Advice> {
    if !s.is("server/discover") || s.mode != GenerationMode::Stateless {
        return None;
    }
    let refused = matches!(s.status, Some(400 | 404 | 405));
    if s.error.is_none() && !refused {
        return None;
    }
    Some(advice(
        AdviceId::InitializeOnlyServer,
        "The server does not answer server/discover: it speaks only the initialize generation (2025-11-25 and earlier), and the client was told to speak 2026-07-28 only.".into(),
        Some("--protocol auto in place of --protocol stateless or --protocol-version 2026-07-28; or --protocol-version 2025-11-25".into()),
        picker(AUTO),
    ))
}

fn unsupported_protocol_version(s: &Situation) -> Option<Advice> {
    s.coded(code::UNSUPPORTED_PROTOCOL_VERSION)?;
    let vs = supported(s);
    let Some(best) = vs.last().copied() else {
        return Some(advice(
            AdviceId::UnsupportedProtocolVersion,
            "The server does not speak the protocol revision the request carried (-32022), and names no revision this client speaks.".into(),
            None,
            None,
        ));
    };
    Some(advice(
        AdviceId::UnsupportedProtocolVersion,
        format!(
            "The server does not speak the protocol revision the request carried (-32022); it speaks {}.",
            list(&vs)
        ),
        Some(format!("--protocol-version {}", best.as_str())),
        picker(&only(best)),
    ))
}
