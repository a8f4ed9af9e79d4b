//! The server's declared capabilities as the client checks them, and the
//! notifications of resources, prompts and logging (resource updates, list
//! changes, log messages, subscription acknowledgements).

use serde_json::Value;

use super::{Client, Event};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::Message;
use crate::model::LogMessage;
use crate::validate::truncate;
use crate::version::{Generation, ProtocolVersion};

impl Client {
    /// Whether the server declared capability `path` (e.g. `["resources",
    /// "subscribe"]`): a last member that is `true` or an object; `None` before
    /// anything was negotiated.
    pub(super) fn server_declares(&self, path: &[&str]) -> Option<bool> {
        let n = self.negotiated.as_ref()?;
        let mut at = n.capabilities.get(*path.first()?);
        for key in &path[1..] {
            at = at.and_then(|v| v.get(key));
        }
        Some(matches!(at, Some(Value::Bool(true) | Value::Object(_))))
    }

    /// A diagnostic when the server did not declare `path` but `doing` needs it.
    pub(super) fn require_capability(&mut self, path: &[&str], doing: &str, msg: Option<&Message>) {
        if self.server_declares(path) != Some(false) {
            return;
        }
        let cap = path.join(".");
        let text = format!("{doing}, but the server did not declare the {cap:?} capability");
        let mut d = Diagnostic::new(Rule::CapabilityNotDeclared, Severity::Warning, text);
        if let Some(m) = msg {
            d = d.with_raw(m.raw_shared());
        }
        self.diag(d);
    }

    /// The capability a request of the client relies on, if any (`completions`
    /// exists from 2025-03-26 on; before, `completion/complete` needed none).
    pub(super) fn check_request_capability(&mut self, method: &str) {
        let path: &[&str] = match method {
            "resources/list" | "resources/templates/list" | "resources/read" => &["resources"],
            "resources/subscribe" | "resources/unsubscribe" => &["resources", "subscribe"],
            "prompts/list" | "prompts/get" => &["prompts"],
            "logging/setLevel" => &["logging"],
            "completion/complete"
                if self
                    .stamp_version()
                    .is_some_and(|v| v >= ProtocolVersion::V2025_03_26) =>
            {
                &["completions"]
            }
            _ => return,
        };
        self.require_capability(path, &format!("the client sends {method}"), None);
    }

    /// Handles the notifications of this module; `false` when the notification
    /// should (also) surface as a plain [`Event::Notification`].
    pub(super) fn on_catalog_notice(
        &mut self,
        method: &str,
        params: Option<&Value>,
        msg: &Message,
    ) -> bool {
        if matches!(
            method,
            "notifications/resources/updated"
                | "notifications/resources/list_changed"
                | "notifications/prompts/list_changed"
        ) {
            self.check_stream_id(method, params, msg);
        }
        match method {
            "notifications/resources/updated" => self.on_updated(params, msg),
            "notifications/resources/list_changed" => {
                self.require_capability(
                    &["resources", "listChanged"],
                    "the server sent notifications/resources/list_changed",
                    Some(msg),
                );
                self.events.push_back(Event::ResourcesListChanged);
            }
            "notifications/prompts/list_changed" => {
                self.require_capability(
                    &["prompts", "listChanged"],
                    "the server sent notifications/prompts/list_changed",
                    Some(msg),
                );
                self.events.push_back(Event::PromptsListChanged);
            }
            "notifications/message" => self.on_log(params, msg),
            "notifications/subscriptions/acknowledged" => {
                // Read here, and still surfaced as a plain notification: hosts show
                // which notification types the server agreed to.
                self.on_acknowledged(params, msg);
                return false;
            }
            _ => return false,
        }
        true
    }

    /// Under 2026-07-28 these notifications come only on a listen stream, and each
    /// must name it in `_meta` (`io.modelcontextprotocol/subscriptionId`).
    fn check_stream_id(&mut self, method: &str, params: Option<&Value>, msg: &Message) {
        let stateless = self.generation() == Some(Generation::Stateless);
        let named = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(crate::model::meta::SUBSCRIPTION_ID))
            .is_some();
        if stateless && !named {
            let text = format!(
                "{method} carries no io.modelcontextprotocol/subscriptionId (2026-07-28 delivers it on a subscriptions/listen stream, which it must name)"
            );
            let d = Diagnostic::new(Rule::Subscription, Severity::Warning, text);
            self.diag(d.with_raw(msg.raw_shared()));
        }
    }

    fn on_updated(&mut self, params: Option<&Value>, msg: &Message) {
        self.require_capability(
            &["resources", "subscribe"],
            "the server sent notifications/resources/updated",
            Some(msg),
        );
        let Some(uri) = params.and_then(|p| p.get("uri")).and_then(Value::as_str) else {
            let d = Diagnostic::new(
                Rule::ResourceShape,
                Severity::Error,
                "notifications/resources/updated has no uri string; ignored",
            );
            return self.diag(d.with_raw(msg.raw_shared()));
        };
        // The URI may be a sub-resource of the one subscribed to.
        if !self.subscribed.iter().any(|s| uri.starts_with(s.as_str())) {
            let text = format!(
                "the server sent an update for {:?}, which the client did not subscribe to",
                truncate(uri, 80)
            );
            self.diag(
                Diagnostic::new(Rule::Subscription, Severity::Warning, text)
                    .with_raw(msg.raw_shared()),
            );
        }
        self.events.push_back(Event::ResourceUpdated {
            uri: uri.to_owned(),
        });
    }

    fn on_log(&mut self, params: Option<&Value>, msg: &Message) {
        self.require_capability(
            &["logging"],
            "the server sent notifications/message",
            Some(msg),
        );
        let m = match LogMessage::from_json(params.unwrap_or(&Value::Null)) {
            Ok(m) => m,
            Err(e) => {
                let text = format!("a log message could not be read: {e}");
                self.diag(
                    Diagnostic::new(Rule::LogLevel, Severity::Error, text)
                        .with_raw(msg.raw_shared()),
                );
                // Kept as a plain notification so it is still seen.
                let params = params.cloned();
                let method = "notifications/message".to_owned();
                return self
                    .events
                    .push_back(Event::Notification { method, params });
            }
        };
        let stateless = self
            .negotiated
            .as_ref()
            .is_some_and(|n| n.generation == Generation::Stateless);
        let complaint = match self.log_level {
            None if stateless => Some("the server sent a log message, but no request asked for any (no io.modelcontextprotocol/logLevel)".to_owned()),
            Some(floor) if m.level < floor => Some(format!("the server sent a {} message below the level asked for ({floor})", m.level)),
            _ => None,
        };
        if let Some(text) = complaint {
            self.diag(
                Diagnostic::new(Rule::LogLevel, Severity::Warning, text).with_raw(msg.raw_shared()),
            );
        }
        self.events.push_back(Event::Log(m));
    }
}
