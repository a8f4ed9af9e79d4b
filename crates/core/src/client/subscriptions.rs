//! Resource subscriptions in both generations. Up to 2025-11-25:
//! `resources/subscribe` / `unsubscribe`. Under 2026-07-28 there is no such
//! request: the `subscriptions/listen` stream carries the filter
//! (`resourceSubscriptions`, and the `*ListChanged` flags), so a change closes
//! the open stream (`notifications/cancelled`) and opens one with the new filter;
//! the change is done when the server's `notifications/subscriptions/acknowledged`
//! for the new stream arrives (`listen.rs`).

use serde_json::{Map, Value};

use super::answers::Answer;
use super::{AckWait, Ask, Client, Deferred, OpId, What};
use crate::jsonrpc::RequestId;
use crate::time::Timestamp;
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

    /// After an `initialize` that replaced an expired session: the server forgot
    /// what the old one asked, so the subscriptions and the log level are asked
    /// again (their answers come under operations of their own). Nothing on a
    /// first connection.
    pub(super) fn restore_session(&mut self, now: Timestamp) {
        let uris: Vec<String> = self.subscribed.iter().cloned().collect();
        for uri in uris {
            let mut params = Map::new();
            params.insert("uri".into(), Value::from(uri.as_str()));
            self.ask(now, Ask::Subscribe(uri), "resources/subscribe", params);
        }
        if let Some(level) = self.log_level {
            let mut params = Map::new();
            params.insert("level".into(), Value::from(level.as_str()));
            self.ask(now, Ask::SetLevel(level), "logging/setLevel", params);
        }
    }
}
