//! Logging: the eight RFC 5424 levels and `notifications/message`.

use std::fmt;

use serde_json::Value;

use super::json::{Members, Out, via_json};
use super::{JsonObject, ModelError, ModelErrorKind};

/// `LoggingLevel`, ordered by severity (`Debug` least, `Emergency` most).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LoggingLevel {
    /// `debug`.
    Debug,
    /// `info`.
    Info,
    /// `notice`.
    Notice,
    /// `warning`.
    Warning,
    /// `error`.
    Error,
    /// `critical`.
    Critical,
    /// `alert`.
    Alert,
    /// `emergency`.
    Emergency,
}

impl LoggingLevel {
    /// Every level, least severe first.
    pub const ALL: [LoggingLevel; 8] = [
        LoggingLevel::Debug,
        LoggingLevel::Info,
        LoggingLevel::Notice,
        LoggingLevel::Warning,
        LoggingLevel::Error,
        LoggingLevel::Critical,
        LoggingLevel::Alert,
        LoggingLevel::Emergency,
    ];

    /// The wire string.
    pub fn as_str(self) -> &'static str {
        match self {
            LoggingLevel::Debug => "debug",
            LoggingLevel::Info => "info",
            LoggingLevel::Notice => "notice",
            LoggingLevel::Warning => "warning",
            LoggingLevel::Error => "error",
            LoggingLevel::Critical => "critical",
            LoggingLevel::Alert => "alert",
            LoggingLevel::Emergency => "emergency",
        }
    }

    /// Parses a wire string; `None` for anything but the eight levels.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == s)
    }
}

impl fmt::Display for LoggingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `LoggingMessageNotification`'s params: one log message from the server.
#[derive(Clone, Debug, PartialEq)]
pub struct LogMessage {
    /// How severe.
    pub level: LoggingLevel,
    /// Which part of the server logged it.
    pub logger: Option<String>,
    /// The message: any JSON (often a string).
    pub data: Value,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

impl LogMessage {
    /// Reads the params of `notifications/message`: `level` must be one of the
    /// eight, `data` is required (any JSON but `null` counts).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let level = m.req_string("level")?;
        let level = LoggingLevel::parse(&level).ok_or_else(|| {
            ModelError::new(ModelErrorKind::UnknownLevel {
                level: crate::validate::truncate(&level, 40),
            })
        })?;
        let logger = m.string("logger")?;
        let data = m.value("data").unwrap_or(Value::Null);
        Ok(LogMessage {
            level,
            logger,
            data,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The params as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("level", self.level.as_str())
            .string("logger", &self.logger)
            .put("data", self.data.clone())
            .meta(&self.meta)
            .with(&self.extra)
    }
}

via_json!(LogMessage);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn levels_order_by_severity_and_parse_only_the_eight() {
        assert!(LoggingLevel::Debug < LoggingLevel::Emergency);
        assert!(LoggingLevel::Warning < LoggingLevel::Error);
        for l in LoggingLevel::ALL {
            assert_eq!(LoggingLevel::parse(l.as_str()), Some(l));
        }
        assert_eq!(LoggingLevel::parse("fatal"), None);
        assert_eq!(LoggingLevel::parse("INFO"), None);
    }

    #[test]
    fn a_message_round_trips_and_an_odd_level_is_refused() {
        let raw = json!({"level": "error", "logger": "db", "data": {"e": 1}, "x": 2});
        let m = LogMessage::from_json(&raw).unwrap();
        assert_eq!(m.level, LoggingLevel::Error);
        assert_eq!(m.to_json(), raw);
        let e = LogMessage::from_json(&json!({"level": "fatal", "data": 1})).unwrap_err();
        assert!(e.to_string().contains("\"fatal\""), "{e}");
    }
}
