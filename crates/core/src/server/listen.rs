//! Change notifications in both generations. Initialize generation: every list
//! change the server declared goes to the initialized client. 2026-07-28: only on
//! `subscriptions/listen` streams that opted in, after the stream's
//! `notifications/subscriptions/acknowledged`, each carrying the stream's id.

use serde_json::{Map, Value, json};

use super::Server;
use super::handlers::not_loaded;
use crate::jsonrpc::{Message, RequestId, RpcError};
use crate::time::Timestamp;

/// `_meta` key naming the listen stream a notification belongs to.
pub(super) const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

/// One open `subscriptions/listen` stream and what it agreed to carry.
#[derive(Clone, Debug)]
pub(super) struct Listener {
    /// The listen request's id (the subscription id).
    pub id: RequestId,
    /// `toolsListChanged`.
    pub tools: bool,
    /// `resourcesListChanged`.
    pub resources: bool,
    /// `promptsListChanged`.
    pub prompts: bool,
    /// `resourceSubscriptions` the server knows.
    pub uris: Vec<String>,
}

impl Server {
    /// Replaces the tool list; tells clients when the server declared `tools.listChanged`.
    pub fn set_tools(&mut self, now: Timestamp, tools: Vec<crate::model::Tool>) {
        self.tools = tools;
        if self.cfg.tools_list_changed {
            self.announce(now, "notifications/tools/list_changed", |l| l.tools);
        }
    }

    /// Sends a list change to the initialized client and to the listen streams `wants`.
    pub(super) fn announce(&mut self, now: Timestamp, method: &str, wants: fn(&Listener) -> bool) {
        if self.initialized {
            self.send(now, Message::notification(method, None));
        }
        let ids: Vec<RequestId> = self
            .listeners
            .iter()
            .filter(|l| wants(l))
            .map(|l| l.id.clone())
            .collect();
        for id in ids {
            let params = json!({ "_meta": { SUBSCRIPTION_ID: id.to_value() } });
            self.send(now, Message::notification(method, Some(params)));
        }
    }

    /// Opens a listen stream: acknowledge first with what is honoured (the spec
    /// requires it), then keep the request open; it is never answered, and a
    /// `notifications/cancelled` naming it closes it. Resource subscriptions need
    /// the [`super::RequestHandlers`] (to know the URIs); the rest does not.
    pub(super) fn listen(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        params: Option<&Value>,
    ) -> Result<(), RpcError> {
        let asked = params.and_then(|p| p.get("notifications"));
        let flag =
            |key: &str| asked.and_then(|n| n.get(key)).and_then(Value::as_bool) == Some(true);
        let res = self.cfg.resources;
        let listener = Listener {
            id: id.clone(),
            tools: flag("toolsListChanged") && self.cfg.tools_list_changed,
            resources: flag("resourcesListChanged") && res.is_some_and(|r| r.list_changed),
            prompts: flag("promptsListChanged") && self.cfg.prompts.is_some_and(|p| p.list_changed),
            uris: if res.is_some_and(|r| r.subscribe) {
                self.known_uris(asked)?
            } else {
                Vec::new()
            },
        };
        let mut honoured = Map::new();
        for (key, on) in [
            ("toolsListChanged", listener.tools),
            ("resourcesListChanged", listener.resources),
            ("promptsListChanged", listener.prompts),
        ] {
            if on {
                honoured.insert(key.into(), Value::Bool(true));
            }
        }
        let wants_uris = asked.is_some_and(|n| n.get("resourceSubscriptions").is_some());
        if wants_uris && res.is_some_and(|r| r.subscribe) {
            honoured.insert("resourceSubscriptions".into(), json!(listener.uris));
        }
        let ack = json!({
            "_meta": { SUBSCRIPTION_ID: id.to_value() },
            "notifications": honoured,
        });
        // A stream with nothing to carry is acknowledged but not kept.
        if listener.tools || listener.resources || listener.prompts || !listener.uris.is_empty() {
            self.listeners.push(listener);
        }
        self.send(
            now,
            Message::notification("notifications/subscriptions/acknowledged", Some(ack)),
        );
        Ok(())
    }

    /// The `resourceSubscriptions` of a listen request that this server knows.
    fn known_uris(&self, asked: Option<&Value>) -> Result<Vec<String>, RpcError> {
        let mut uris = Vec::new();
        let requested = asked
            .and_then(|n| n.get("resourceSubscriptions"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str);
        for uri in requested {
            let known = self
                .knows(uri)
                .ok_or_else(|| not_loaded("subscriptions/listen"))?;
            if known {
                uris.push(uri.to_owned());
            }
        }
        Ok(uris)
    }
}
