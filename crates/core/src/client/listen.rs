//! The 2026-07-28 `subscriptions/listen` stream: its filter, reopening it when
//! the filter changes (the old stream is cancelled), its end, and the
//! `notifications/subscriptions/acknowledged` that finishes a subscription change.

use std::time::Duration;

use serde_json::{Map, Value};

use super::answers::Answer;
use super::{AckWait, Client, Failure, OpError, OpId, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Message, RequestId};
use crate::model::meta;
use crate::time::Timestamp;
use crate::validate::truncate;

impl Client {
    /// What the listen stream asks for: list changes the configuration wants and
    /// the server declares, and the subscribed resources.
    fn listen_filter(&self) -> Map<String, Value> {
        let mut f = Map::new();
        if self.cfg.listen_for_list_changes {
            for (key, cap) in [
                ("toolsListChanged", "tools"),
                ("resourcesListChanged", "resources"),
                ("promptsListChanged", "prompts"),
            ] {
                if self.server_declares(&[cap, "listChanged"]) == Some(true) {
                    f.insert(key.into(), Value::Bool(true));
                }
            }
        }
        if !self.subscribed.is_empty() {
            let uris = self.subscribed.iter().cloned().map(Value::String).collect();
            f.insert("resourceSubscriptions".into(), Value::Array(uris));
        }
        f
    }

    /// Closes the open listen stream, if any, and opens one with the current
    /// filter (none when the filter is empty). Changes waiting for an
    /// acknowledgement move to the new stream, which carries them too.
    pub(super) fn reopen_listen(&mut self, now: Timestamp) -> Option<RequestId> {
        if let Some(old) = self.listen.take()
            && let Some(p) = self.pending.remove(&old)
        {
            self.forget(&old, &p);
            self.send_cancelled(now, &old, "replaced by a new subscriptions/listen");
        }
        let filter = self.listen_filter();
        if filter.is_empty() {
            for w in std::mem::take(&mut self.acks) {
                self.answered(w.op, Ok(Answer::Done), None);
            }
            return None;
        }
        if filter.contains_key("resourceSubscriptions") {
            self.require_capability(
                &["resources", "subscribe"],
                "subscribing to resources",
                None,
            );
        }
        let mut params = Map::new();
        params.insert("notifications".into(), Value::Object(filter));
        let op = self.new_op();
        // A listen stream has no answer until the server ends it: no deadline.
        let id = self.send_request(
            now,
            op,
            What::Listen,
            "subscriptions/listen",
            Some(Value::Object(params)),
            Duration::MAX,
        );
        for w in &mut self.acks {
            w.listen = id.clone();
        }
        self.listen = Some(id.clone());
        Some(id)
    }

    /// The open listen stream ended (the server answered it, or it failed):
    /// changes waiting for its acknowledgement fail with `error`.
    pub(super) fn listen_ended(&mut self, error: OpError) {
        self.listen = None;
        for w in std::mem::take(&mut self.acks) {
            if w.subscribe {
                self.subscribed.remove(&w.uri);
            }
            self.answered(w.op, Err(error.clone()), None);
        }
    }

    /// `notifications/subscriptions/acknowledged`: finishes the changes waiting
    /// for the stream it names.
    pub(super) fn on_acknowledged(&mut self, params: Option<&Value>, msg: &Message) {
        let raw = msg.raw_shared();
        let sid = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::SUBSCRIPTION_ID))
            .and_then(RequestId::from_value);
        let current = match (sid, self.listen.clone()) {
            (Some(s), Some(l)) if s == l => l,
            (None, Some(l)) => {
                let text = "the acknowledgement carries no io.modelcontextprotocol/subscriptionId (it must name the listen request)";
                self.diag(
                    Diagnostic::new(Rule::Subscription, Severity::Warning, text)
                        .with_raw(raw.clone()),
                );
                l
            }
            (sid, _) => {
                let which = sid.map_or_else(|| "no stream".to_owned(), |s| format!("stream {s}"));
                let text = format!(
                    "ignored an acknowledgement for {which}, which is not the open subscriptions/listen"
                );
                return self
                    .diag(Diagnostic::new(Rule::Subscription, Severity::Info, text).with_raw(raw));
            }
        };
        let granted = params.and_then(|p| p.get("notifications"));
        let acked: Vec<&str> = granted
            .and_then(|n| n.get("resourceSubscriptions"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let unasked: Vec<&str> = acked
            .iter()
            .copied()
            .filter(|u| !self.subscribed.contains(u))
            .collect();
        for uri in unasked {
            let text = format!(
                "the server acknowledged a subscription to {:?}, which the client did not ask for",
                truncate(uri, 80)
            );
            self.diag(
                Diagnostic::new(Rule::Subscription, Severity::Warning, text).with_raw(raw.clone()),
            );
        }
        let (mine, rest): (Vec<AckWait>, Vec<AckWait>) = std::mem::take(&mut self.acks)
            .into_iter()
            .partition(|w| w.listen == current);
        self.acks = rest;
        for w in mine {
            if w.subscribe && !acked.contains(&w.uri.as_str()) {
                let text = format!(
                    "the server's acknowledgement leaves out {:?}: it does not honour that subscription",
                    truncate(&w.uri, 80)
                );
                self.diag(
                    Diagnostic::new(Rule::Subscription, Severity::Warning, text.clone())
                        .with_raw(raw.clone()),
                );
                self.subscribed.remove(&w.uri);
                self.answered(
                    w.op,
                    Err(OpError::Failed(Failure::Malformed(text))),
                    Some(msg.clone()),
                );
            } else {
                self.answered(w.op, Ok(Answer::Done), Some(msg.clone()));
            }
        }
    }

    /// Fails the subscription changes whose acknowledgement is overdue.
    pub(super) fn expire_acks(&mut self, now: Timestamp) {
        let (due, rest): (Vec<AckWait>, Vec<AckWait>) = std::mem::take(&mut self.acks)
            .into_iter()
            .partition(|w| w.deadline <= now);
        self.acks = rest;
        for w in due {
            let f = Failure::Timeout(self.cfg.request_timeout);
            self.answered(w.op, Err(OpError::Failed(f)), None);
        }
    }

    /// Forgets a change waiting for its acknowledgement (the host cancelled it).
    pub(super) fn cancel_ack(&mut self, op: OpId, reason: &str) -> bool {
        let Some(pos) = self.acks.iter().position(|w| w.op == op) else {
            return false;
        };
        self.acks.remove(pos);
        let f = Failure::Cancelled(reason.to_owned());
        self.answered(op, Err(OpError::Failed(f)), None);
        true
    }
}
