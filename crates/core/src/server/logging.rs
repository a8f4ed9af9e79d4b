//! Logging: `logging/setLevel` (up to 2025-11-25) and the 2026-07-28 per-request
//! level in `_meta`, and `notifications/message` sent only at or above the level
//! the client chose. With no level chosen nothing is sent: the spec lets a server
//! decide, and staying quiet keeps recorded sessions replaying byte for byte.

use serde_json::{Map, Value};

use super::Server;
use crate::jsonrpc::{Message, RequestId, RpcError, code};
use crate::model::{LoggingLevel, meta};
use crate::time::Timestamp;
use crate::version::Generation;

/// Reads a level from a JSON value, or says why not (`-32602`).
pub(super) fn level_param(v: Option<&Value>, what: &str) -> Result<LoggingLevel, RpcError> {
    v.and_then(Value::as_str)
        .and_then(LoggingLevel::parse)
        .ok_or_else(|| {
            RpcError::new(
                code::INVALID_PARAMS,
                format!("{what} must be one of debug, info, notice, warning, error, critical, alert, emergency"),
            )
        })
}

/// The 2026-07-28 per-request level in a request's `_meta`, if any.
pub(super) fn request_level(params: Option<&Value>) -> Result<Option<LoggingLevel>, RpcError> {
    match params
        .and_then(|p| p.get("_meta"))
        .and_then(|m| m.get(meta::LOG_LEVEL))
    {
        None => Ok(None),
        v => level_param(v, meta::LOG_LEVEL).map(Some),
    }
}

impl Server {
    /// The level set with `logging/setLevel` (initialize generation), if any.
    pub fn log_level(&self) -> Option<LoggingLevel> {
        self.log_level
    }

    /// Sends `notifications/message` when the client asked for messages at `level` or
    /// above: under 2026-07-28 through the `_meta` level of the open request `request`
    /// (no request, or none with a level: nothing is sent); before, through
    /// `logging/setLevel`. Returns whether the message was sent.
    pub fn log(
        &mut self,
        now: Timestamp,
        request: Option<&RequestId>,
        level: LoggingLevel,
        logger: Option<&str>,
        data: Value,
    ) -> bool {
        if !self.cfg.logging {
            return false;
        }
        let open = request.and_then(|id| self.open.get(id));
        let threshold = match open {
            Some(o) if o.ctx.version.generation() == Generation::Stateless => o.log_level,
            // A stateless client with no open request has asked for nothing.
            None if self.session.is_none() => None,
            _ if self.initialized => self.log_level,
            _ => None,
        };
        if threshold.is_none_or(|t| level < t) {
            return false;
        }
        let mut p = Map::new();
        p.insert("level".into(), Value::from(level.as_str()));
        if let Some(l) = logger {
            p.insert("logger".into(), Value::from(l));
        }
        p.insert("data".into(), data);
        self.send(
            now,
            Message::notification("notifications/message", Some(Value::Object(p))),
        );
        true
    }
}
