//! Resource subscriptions in both generations. Up to 2025-11-25:
//! `resources/subscribe` / `unsubscribe`. Under 2026-07-28 there is no such
//! request: the `subscriptions/listen` stream carries the filter
//! (`resourceSubscriptions`, and the `*ListChanged` flags), so a change closes
//! the open stream (`notifications/cancelled`) and opens one with the new filter;
//! the change is done when the server's `notifications/subscriptions/acknowledged`
//! for the new stream arrives.

use std::time::Duration;

use serde_json::{Map, Value};

use super::answers::Answer;
use super::{AckWait, Ask, Client, Deferred, Failure, OpError, OpId, What};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Message, RequestId};
use crate::model::meta;
use crate::time::Timestamp;
use crate::validate::truncate;
use crate::version::Generation;

/// The subscribed URIs, sorted and unique. A sorted `Vec` rather than a
/// `BTreeSet`: the set stays small, and B-tree code costs the page ~10 KB of wasm.
#[derive(Clone, Debug, Default)]
pub(super) struct UriSet(Vec<String>);

impl UriSet {
    pub(super) fn insert(&mut self, uri: String) {
        if let Err(at) = self.0.binary_search(&uri) {
            self.0.insert(at, uri);
        }
    }

    pub(super) fn remove(&mut self, uri: &str) {
        if let Ok(at) = self.0.binary_search_by(|u| u.as_str().cmp(uri)) {
            self.0.remove(at);
        }
    }

    pub(super) fn contains(&self, uri: &str) -> bool {
        self.0.binary_search_by(|u| u.as_str().cmp(uri)).is_ok()
    }

    pub(super) fn iter(&self) -> std::slice::Iter<'_, String> {
        self.0.iter()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Client {
    /// Subscribes to updates of resource `uri` ([`crate::client::Event::ResourceUpdated`]).
    /// Ends in [`crate::client::Event::Answered`] with [`Answer::Done`]: the
    /// server's answer up to 2025-11-25, its acknowledgement of the new listen
    /// stream under 2026-07-28 (an error if it does not honour this URI).
    pub fn subscribe_resource(&mut self, now: Timestamp, uri: &str) -> OpId {
        self.change_subscription(now, uri, true)
    }

    /// Ends a subscription, like [`Client::subscribe_resource`].
    pub fn unsubscribe_resource(&mut self, now: Timestamp, uri: &str) -> OpId {
        self.change_subscription(now, uri, false)
    }

    fn change_subscription(&mut self, now: Timestamp, uri: &str, subscribe: bool) -> OpId {
        if self.is_ready() && self.generation() == Some(Generation::Stateless) {
            let op = self.new_op();
            self.apply_change(uri, subscribe);
            let listen = self.reopen_listen(now);
            self.await_ack(now, op, uri, subscribe, listen);
            return op;
        }
        let (ask, method) = if subscribe {
            (Ask::Subscribe(uri.to_owned()), "resources/subscribe")
        } else {
            (Ask::Unsubscribe(uri.to_owned()), "resources/unsubscribe")
        };
        let mut params = Map::new();
        params.insert("uri".into(), Value::from(uri));
        self.ask(now, ask, method, params)
    }

    fn apply_change(&mut self, uri: &str, subscribe: bool) {
        if subscribe {
            self.subscribed.insert(uri.to_owned());
        } else {
            self.subscribed.remove(uri);
        }
    }

    fn await_ack(
        &mut self,
        now: Timestamp,
        op: OpId,
        uri: &str,
        subscribe: bool,
        listen: Option<RequestId>,
    ) {
        match listen {
            Some(listen) => self.acks.push(AckWait {
                op,
                listen,
                uri: uri.to_owned(),
                subscribe,
                deadline: now.after(self.cfg.request_timeout),
            }),
            // Nothing left to listen for: the last subscription ended with the stream.
            None => self.answered(op, Ok(Answer::Done), None),
        }
    }

    /// Once a stateless session is connected: applies the subscription changes and
    /// log level asked for before the generation was known, opens the listen
    /// stream (if there is anything to listen for), and returns the other
    /// requests, to send as usual.
    pub(super) fn open_stateless(
        &mut self,
        now: Timestamp,
        waiting: Vec<Deferred>,
    ) -> Vec<Deferred> {
        let mut changes = Vec::new();
        let mut rest = Vec::new();
        for d in waiting {
            match d.what {
                What::Ask(Ask::Subscribe(uri)) => changes.push((d.op, uri, true)),
                What::Ask(Ask::Unsubscribe(uri)) => changes.push((d.op, uri, false)),
                What::Ask(Ask::SetLevel(level)) => {
                    self.log_level = Some(level);
                    self.answered(d.op, Ok(Answer::Done), None);
                }
                _ => rest.push(d),
            }
        }
        for (_, uri, subscribe) in &changes {
            self.apply_change(uri, *subscribe);
        }
        let listen = self.reopen_listen(now);
        for (op, uri, subscribe) in changes {
            self.await_ack(now, op, &uri, subscribe, listen.clone());
        }
        rest
    }

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
