//! The 2026-07-28 per-request `_meta` stamp (revision, capabilities, client
//! info, log level), added to every request and removed before a retry.

use serde_json::{Map, Value};

use super::Client;
use super::task_types::TASKS_EXTENSION;
use crate::model::JsonObject;
use crate::model::meta;
use crate::version::ProtocolVersion;

impl Client {
    /// Adds the 2026-07-28 per-request `_meta` keys, keeping any the caller set.
    pub(super) fn stamp(&self, params: Option<Value>, version: Option<ProtocolVersion>) -> Value {
        let mut p = match params {
            Some(Value::Object(o)) => o,
            _ => Map::new(),
        };
        let m = p
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(m) = m {
            if let Some(v) = version {
                m.insert(meta::PROTOCOL_VERSION.into(), Value::from(v.as_str()));
            }
            let mut caps = self.cfg.capabilities.clone();
            self.declare_tasks_extension(&mut caps);
            m.insert(meta::CLIENT_CAPABILITIES.into(), Value::Object(caps));
            m.insert(meta::CLIENT_INFO.into(), self.cfg.client_info.to_json());
            if let Some(level) = self.log_level {
                m.insert(meta::LOG_LEVEL.into(), Value::from(level.as_str()));
            }
        }
        Value::Object(p)
    }

    /// Adds the Tasks extension to the capabilities a 2026-07-28 request is
    /// stamped with, when the configuration speaks it (keeping any other extension
    /// declared). It follows the configuration alone, not the answer readers: a
    /// host that hands the readers in later (the page) sends the same text before
    /// and after, so a recorded session replays whenever they came. A task handle
    /// answered before the readers are in ends its call as unread, with a failure
    /// that says so.
    fn declare_tasks_extension(&self, caps: &mut JsonObject) {
        if !self.cfg.tasks_extension {
            return;
        }
        let extensions = caps
            .entry("extensions")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(e) = extensions {
            e.entry(TASKS_EXTENSION)
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
}

/// Removes the per-request 2026-07-28 `_meta` keys so a retry can stamp them afresh.
pub(super) fn strip_stamp(params: Option<Value>) -> Option<Value> {
    let mut p = params?;
    if let Some(m) = p.get_mut("_meta").and_then(Value::as_object_mut) {
        m.remove(meta::PROTOCOL_VERSION);
        m.remove(meta::CLIENT_CAPABILITIES);
        m.remove(meta::CLIENT_INFO);
        m.remove(meta::LOG_LEVEL);
        if m.is_empty()
            && let Some(o) = p.as_object_mut()
        {
            o.remove("_meta");
        }
    }
    match &p {
        Value::Object(o) if o.is_empty() => None,
        _ => Some(p),
    }
}
