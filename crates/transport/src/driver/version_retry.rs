//! Workaround for the core: when a 2026-07-28 server rejects a request with
//! `UnsupportedProtocolVersion` (-32022) while listing the very version we sent as
//! supported, the spec says to retry with a shared version, which is that same one.
//! The core only retries with a *different* version (and otherwise falls back to
//! `initialize`), so the driver sends the rejected request once more itself.
//!
//! Only HTTP reports such rejections as send failures (a 400 with the error in the
//! body), which is where this applies; the request was refused whole, so sending the
//! identical message again cannot duplicate any work.

use std::collections::{HashSet, VecDeque};

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Body, Message, RequestId, code};
use serde_json::Value;

/// How many recent requests are kept for a possible resend.
const KEEP: usize = 64;

/// Recent requests, and which ones were already sent twice.
#[derive(Debug, Default)]
pub(crate) struct VersionRetry {
    sent: VecDeque<Outgoing>,
    resent: HashSet<RequestId>,
}

impl VersionRetry {
    /// Remembers a request on its way out.
    pub fn remember(&mut self, out: &Outgoing) {
        if !matches!(out.message.body(), Body::Request { .. }) {
            return;
        }
        if self.sent.len() >= KEEP {
            self.sent.pop_front();
        }
        self.sent.push_back(out.clone());
    }

    /// The request to send again, if `failure` is a version rejection that names
    /// the rejected version as supported and this request was not resent before.
    pub fn resend(&mut self, id: &RequestId, failure: &SendFailure) -> Option<Outgoing> {
        let SendFailure::Rejected { body, .. } = failure else {
            return None;
        };
        let msg = Message::decode(body).ok()?;
        let Body::Error { error, .. } = msg.body() else {
            return None;
        };
        let data = error.data.as_ref()?;
        let requested = data.get("requested").and_then(Value::as_str)?;
        let supported = data.get("supported").and_then(Value::as_array)?;
        let listed = supported.iter().any(|v| v.as_str() == Some(requested));
        if error.code != code::UNSUPPORTED_PROTOCOL_VERSION
            || !listed
            || !self.resent.insert(id.clone())
        {
            return None;
        }
        self.sent
            .iter()
            .find(|o| o.message.id() == Some(id))
            .cloned()
    }
}
