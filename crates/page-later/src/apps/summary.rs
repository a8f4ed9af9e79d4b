//! A view's messages in a few words for the wire log ("ui/initialize", "result of
//! ui/initialize"), remembering which request each answer is for.

use std::collections::BTreeMap;

use mcpg_core::jsonrpc::{Body, Message};

/// The requests in flight each way, by id.
#[derive(Debug, Default)]
pub(super) struct Summaries {
    /// (sent by the view, id as JSON) → method.
    asked: BTreeMap<(bool, String), String>,
}

/// The most requests remembered each way (a view that never reads its answers
/// must not grow this without end).
const MAX_ASKED: usize = 256;

impl Summaries {
    /// The summary of `raw`, sent by the view when `from_view`.
    pub(super) fn of(&mut self, from_view: bool, raw: &str) -> String {
        let Ok(msg) = Message::decode(raw) else {
            return "not JSON-RPC".to_owned();
        };
        match msg.body() {
            Body::Request { id, method, .. } => {
                if self.asked.len() < MAX_ASKED {
                    self.asked
                        .insert((from_view, id.to_value().to_string()), method.clone());
                }
                method.clone()
            }
            Body::Notification { method, .. } => method.clone(),
            Body::Response { id, .. } => {
                match self.asked.remove(&(!from_view, id.to_value().to_string())) {
                    Some(m) => format!("result of {m}"),
                    None => "result".to_owned(),
                }
            }
            Body::Error { id, error } => {
                let of = id
                    .as_ref()
                    .and_then(|id| self.asked.remove(&(!from_view, id.to_value().to_string())));
                match of {
                    Some(m) => format!("error {} on {m}", error.code),
                    None => format!("error {}", error.code),
                }
            }
        }
    }
}
