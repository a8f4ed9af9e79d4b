//! URL elicitation (2025-11-25) as the client sees it, and the roots
//! notification the client sends: the elicitations a server sent the user to
//! (as `elicitation/create` in URL mode or inside a `-32042` error), checked
//! against the `notifications/elicitation/complete` that ends them.

use serde_json::Value;

use super::{Client, Phase};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Message, RpcError};
use crate::model::{ElicitationComplete, UrlElicitationRequired};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// How many open URL elicitations the client remembers (a server that never
/// completes them must not grow the client without bound).
const OPEN_MEMORY: usize = 64;

impl Client {
    /// Sends `notifications/roots/list_changed` (the host's list of roots
    /// changed). Only when connected through `initialize` with `roots.listChanged`
    /// declared: 2026-07-28 has no such notification (the server asks again with
    /// each request that needs roots). Returns whether it was sent.
    pub fn roots_list_changed(&mut self, now: Timestamp) -> bool {
        let declared = self
            .cfg
            .capabilities
            .get("roots")
            .and_then(|r| r.get("listChanged"))
            .and_then(Value::as_bool)
            == Some(true);
        let initialize = self
            .negotiated
            .as_ref()
            .is_some_and(|n| n.generation == Generation::Initialize);
        if !declared || !initialize || self.phase != Phase::Ready {
            return false;
        }
        self.transmit(
            now,
            Message::notification("notifications/roots/list_changed", None),
        );
        true
    }

    /// Whether URL mode exists in the negotiated revision (2025-11-25 and later).
    fn has_url_mode(&self) -> bool {
        self.negotiated
            .as_ref()
            .is_some_and(|n| n.version >= ProtocolVersion::V2025_11_25)
    }

    fn remember_elicitation(&mut self, id: &str) {
        if self.open_elicitations.len() >= OPEN_MEMORY {
            self.open_elicitations.pop_front();
        }
        self.open_elicitations.push_back(id.to_owned());
    }

    /// An `elicitation/create` the host will see: a URL one is checked and remembered.
    pub(super) fn on_elicit_request(&mut self, params: Option<&Value>, msg: &Message) {
        if params.and_then(|p| p.get("mode")).and_then(Value::as_str) != Some("url") {
            return;
        }
        let mut problems = Vec::new();
        if !self.has_url_mode() {
            problems.push("URL-mode elicitation exists only from 2025-11-25".to_owned());
        }
        let declared = self
            .cfg
            .capabilities
            .get("elicitation")
            .is_some_and(|e| e.get("url").is_some());
        if !declared {
            problems.push(
                "the client did not declare elicitation.url, so the server must not send URL mode"
                    .to_owned(),
            );
        }
        match params
            .and_then(|p| p.get("elicitationId"))
            .and_then(Value::as_str)
        {
            Some(id) => self.remember_elicitation(id),
            None if self.has_url_mode() => {
                problems.push("a URL elicitation has no elicitationId".to_owned())
            }
            None => {}
        }
        for p in problems {
            let d = Diagnostic::new(Rule::Elicitation, Severity::Warning, p);
            self.diag(d.with_raw(msg.raw_shared()));
        }
    }

    /// A `-32042` answer: its elicitations are remembered, and a malformed one named.
    pub(super) fn on_url_elicitation_required(&mut self, error: &RpcError, msg: Option<&Message>) {
        let Some(req) = UrlElicitationRequired::from_error(error) else {
            return;
        };
        let mut problems = Vec::new();
        if !self.has_url_mode() {
            problems.push("the -32042 URL-elicitation-required error exists only from 2025-11-25");
        }
        if req.elicitations.is_empty() {
            problems.push("a -32042 error must carry data.elicitations, each with a url");
        }
        for e in &req.elicitations {
            if let Some(id) = &e.elicitation_id {
                self.remember_elicitation(id);
            }
        }
        for p in problems {
            let mut d = Diagnostic::new(Rule::Elicitation, Severity::Warning, p);
            if let Some(m) = msg {
                d = d.with_raw(m.raw_shared());
            }
            self.diag(d);
        }
    }

    /// `notifications/elicitation/complete`: true when it was one (it still
    /// surfaces as a plain notification, read with [`ElicitationComplete`]).
    pub(super) fn on_elicitation_complete(&mut self, params: Option<&Value>, msg: &Message) {
        let Some(done) =
            ElicitationComplete::from_notification(ElicitationComplete::METHOD, params)
        else {
            let d = Diagnostic::new(
                Rule::Elicitation,
                Severity::Warning,
                "notifications/elicitation/complete has no elicitationId",
            );
            self.diag(d.with_raw(msg.raw_shared()));
            return;
        };
        let known = self
            .open_elicitations
            .iter()
            .position(|id| *id == done.elicitation_id);
        match known {
            Some(i) => {
                self.open_elicitations.remove(i);
            }
            None => {
                // The spec: clients ignore completions for elicitations they do not know.
                let d = Diagnostic::new(
                    Rule::Elicitation,
                    Severity::Info,
                    format!(
                        "notifications/elicitation/complete names {:?}, an elicitation this client never saw; it is ignored",
                        done.elicitation_id
                    ),
                );
                self.diag(d.with_raw(msg.raw_shared()));
            }
        }
    }
}
