//! The small parts of `HttpDemo`'s answers: reading `Accept`, spotting
//! `initialize`, and JSON-RPC errors as the body of an HTTP refusal.

use crate::Answer;

/// Whether an `Accept` value admits `media` (exactly, `type/*` or `*/*`).
pub(crate) fn accepts(accept: &str, media: &str) -> bool {
    let kind = media.split('/').next().unwrap_or_default();
    accept.split(',').any(|part| {
        let m = part.split(';').next().unwrap_or_default().trim();
        m.eq_ignore_ascii_case(media)
            || m == "*/*"
            || m.strip_suffix("/*")
                .is_some_and(|k| k.eq_ignore_ascii_case(kind))
    })
}

pub(crate) fn is_initialize(body: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(body)
        .ok()
        .and_then(|v| {
            v.get("method")
                .and_then(|m| m.as_str())
                .map(|m| m == "initialize")
        })
        .unwrap_or(false)
}

pub(crate) fn unknown_session() -> Answer {
    rpc_error(
        404,
        -32001,
        "session not found (it ended, or the server restarted): initialize again",
    )
}

/// A JSON-RPC error with no id, as the status's body.
pub(crate) fn rpc_error(status: u16, code: i64, message: &str) -> Answer {
    rpc_error_for(&serde_json::Value::Null, status, code, message)
}

/// A JSON-RPC error answering request `id`, as the status's body.
pub(crate) fn rpc_error_for(
    id: &serde_json::Value,
    status: u16,
    code: i64,
    message: &str,
) -> Answer {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": id,
        "error": {"code": code, "message": message},
    });
    Answer {
        status,
        headers: vec![("content-type".into(), "application/json".into())],
        body: body.to_string(),
        stream: None,
    }
}
