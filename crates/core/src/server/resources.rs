//! Resources: the two paged lists, `resources/read` (checked, then handed to the
//! application), subscriptions in the initialize generation, and the application's
//! calls when its resources change.

use serde_json::{Value, json};

use super::dispatch::string_param;
use super::{Server, ServerEvent, paging, template};
use crate::jsonrpc::{Message, RequestId, RpcError, code};
use crate::model::JsonObject;
use crate::time::Timestamp;
use crate::version::ProtocolVersion;

/// `-32002`, the spec's "Resource not found", carrying the URI in `data`. The
/// server sends it as `-32602` under 2026-07-28 (`respond.rs`), so an
/// application answers with this one error in every revision.
pub fn resource_not_found(uri: &str) -> RpcError {
    RpcError {
        code: code::RESOURCE_NOT_FOUND,
        message: format!("Resource not found: {uri}"),
        data: Some(json!({ "uri": uri })),
    }
}

fn str_member<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

impl Server {
    /// The resources offered.
    pub fn resources(&self) -> &[Value] {
        &self.resources
    }

    /// The resource templates offered.
    pub fn resource_templates(&self) -> &[Value] {
        &self.templates
    }

    /// Replaces the resources and templates; tells clients that asked when the
    /// server declared `resources.listChanged`.
    pub fn set_resources(&mut self, now: Timestamp, resources: Vec<Value>, templates: Vec<Value>) {
        self.resources = resources;
        self.templates = templates;
        if self.cfg.resources.is_some_and(|r| r.list_changed) {
            self.announce(now, "notifications/resources/list_changed", |l| l.resources);
        }
    }

    /// Tells subscribed clients that `uri` changed: after `resources/subscribe`
    /// (initialize generation), or on every listen stream whose
    /// `resourceSubscriptions` names it (2026-07-28).
    pub fn resource_updated(&mut self, now: Timestamp, uri: &str) {
        if !self.cfg.resources.is_some_and(|r| r.subscribe) {
            return;
        }
        if self.initialized && self.subscribed.iter().any(|u| u == uri) {
            let params = json!({ "uri": uri });
            self.send(
                now,
                Message::notification("notifications/resources/updated", Some(params)),
            );
        }
        let streams: Vec<RequestId> = self
            .listeners
            .iter()
            .filter(|l| l.uris.iter().any(|u| u == uri))
            .map(|l| l.id.clone())
            .collect();
        for id in streams {
            let params =
                json!({ "uri": uri, "_meta": { super::listen::SUBSCRIPTION_ID: id.to_value() } });
            self.send(
                now,
                Message::notification("notifications/resources/updated", Some(params)),
            );
        }
    }

    /// Where `uri` comes from: `Some(None)` for a listed resource,
    /// `Some(Some((template, variables)))` for a templated one, `None` when unknown.
    pub(super) fn locate(&self, uri: &str) -> Option<Option<(String, JsonObject)>> {
        if self
            .resources
            .iter()
            .any(|r| str_member(r, "uri") == Some(uri))
            || self.unlisted.iter().any(|u| u == uri)
        {
            return Some(None);
        }
        self.templates.iter().find_map(|t| {
            let tpl = str_member(t, "uriTemplate")?;
            template::matches(tpl, uri).map(|vars| Some((tpl.to_owned(), vars)))
        })
    }

    pub(super) fn list_resources(
        &self,
        params: Option<&Value>,
        version: ProtocolVersion,
    ) -> Result<Value, RpcError> {
        let size = self.cfg.page_size;
        paging::list(&self.resources, params, size, version, "resources")
    }

    pub(super) fn list_templates(
        &self,
        params: Option<&Value>,
        version: ProtocolVersion,
    ) -> Result<Value, RpcError> {
        let size = self.cfg.page_size;
        paging::list(&self.templates, params, size, version, "resourceTemplates")
    }

    pub(super) fn read(
        &self,
        id: &RequestId,
        params: Option<&Value>,
    ) -> Result<ServerEvent, RpcError> {
        let uri = string_param(params, "uri", "resources/read")?;
        let found = self.locate(uri).ok_or_else(|| resource_not_found(uri))?;
        let (template, variables) = match found {
            Some((t, v)) => (Some(t), v),
            None => (None, JsonObject::new()),
        };
        Ok(ServerEvent::ReadResource {
            id: id.clone(),
            uri: uri.to_owned(),
            template,
            variables,
        })
    }

    pub(super) fn subscribe(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        let uri = string_param(params, "uri", "resources/subscribe")?;
        if self.locate(uri).is_none() {
            return Err(resource_not_found(uri));
        }
        if !self.subscribed.iter().any(|u| u == uri) {
            self.subscribed.push(uri.to_owned());
        }
        Ok(json!({}))
    }

    pub(super) fn unsubscribe(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        // Unsubscribing from what was never subscribed is harmless, so not an error.
        let uri = string_param(params, "uri", "resources/unsubscribe")?;
        self.subscribed.retain(|u| u != uri);
        Ok(json!({}))
    }
}
