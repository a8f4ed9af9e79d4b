//! 2026-07-28 MRTR: the asks inside an `InputRequiredResult`, and the
//! `inputResponses` a retry carries. The same [`Ask`]s and [`Reply`]s as the
//! classic server requests: only the envelope differs.

use mcpg_core::model::JsonObject;
use serde_json::Value;

use super::{Ask, AskError, Reply, parse};

/// The `inputRequests` of an `InputRequiredResult`, read one by one (in key order):
/// an entry the host cannot read does not hide the others.
pub fn input_requests(result: &Value) -> Vec<(String, Result<Ask, AskError>)> {
    let Some(map) = result.get("inputRequests").and_then(Value::as_object) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Result<Ask, AskError>)> = map
        .iter()
        .map(|(key, req)| {
            let ask = match req.get("method") {
                Some(Value::String(m)) => parse(m, req.get("params")),
                Some(_) => Err(AskError::Invalid {
                    field: format!("inputRequests.{key}.method"),
                    expected: "a string",
                }),
                None => Err(AskError::Missing(format!("inputRequests.{key}.method"))),
            };
            (key.clone(), ask)
        })
        .collect();
    // serde_json keeps insertion order when `preserve_order` is on somewhere in the
    // build: sort, so the order never depends on a feature another crate enables.
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The `inputResponses` object for `Client::continue_call`: each reply's result
/// under its key. A rejected sampling request has no result form in MRTR (an
/// `InputResponse` is a result, never an error), so it is left out: the server
/// sees the request unanswered and may ask again or give up, and the core notes
/// the missing answer.
pub fn input_responses(replies: &[(String, Reply)]) -> JsonObject {
    replies
        .iter()
        .filter_map(|(key, reply)| reply.to_result().ok().map(|v| (key.clone(), v)))
        .collect()
}
