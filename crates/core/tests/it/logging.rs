//! Log messages and the log level: `logging/setLevel` up to 2025-11-25, the
//! 2026-07-28 per-request `_meta` level, and the messages checked against both.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{Answer, ClientConfig, Event};
use mcpg_core::diag::Rule;
use mcpg_core::model::LoggingLevel;
use serde_json::json;
use support::{Scripted, answered, rules};

fn connected(version: &str) -> Scripted {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with(version, json!({"logging": {}, "resources": {}}));
    s
}

#[test]
fn set_level_is_a_request_up_to_2025_11_25_and_log_messages_are_typed() {
    let mut s = connected("2025-11-25");
    let op = s
        .client
        .set_log_level(s.now, LoggingLevel::Warning)
        .expect("a request");
    s.drain();
    assert_eq!(
        s.last_request("logging/setLevel").1.unwrap(),
        json!({"level": "warning"})
    );
    s.reply("logging/setLevel", json!({}));
    assert!(matches!(answered(&s.take(), op), Ok(Answer::Done)));
    assert_eq!(s.client.log_level(), Some(LoggingLevel::Warning));
    s.notify(
        "notifications/message",
        json!({"level": "error", "logger": "db", "data": {"e": 1}}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), []);
    assert!(ev.iter().any(|e| matches!(e, Event::Log(m) if m.level == LoggingLevel::Error && m.logger.as_deref() == Some("db"))));
    // Below the level asked for: delivered, and named.
    s.notify(
        "notifications/message",
        json!({"level": "info", "data": "chatty"}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::LogLevel]);
    assert!(ev.iter().any(|e| matches!(e, Event::Log(_))));
    // A level outside the eight: named, and kept as a plain notification.
    s.notify(
        "notifications/message",
        json!({"level": "fatal", "data": "x"}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::LogLevel]);
    assert!(ev.iter().any(
        |e| matches!(e, Event::Notification { method, .. } if method == "notifications/message")
    ));
}

#[test]
fn under_2026_07_28_the_level_is_stamped_on_every_later_request() {
    let mut s = connected("2026-07-28");
    // Not asked for: a log message is named.
    s.notify(
        "notifications/message",
        json!({"level": "info", "data": "x"}),
    );
    assert_eq!(rules(&s.take()), [Rule::LogLevel]);
    assert_eq!(s.client.set_log_level(s.now, LoggingLevel::Debug), None);
    s.drain();
    assert!(
        !s.sent
            .iter()
            .any(|m| m.method() == Some("logging/setLevel"))
    );
    s.client.list_resources(s.now);
    s.client.read_resource(s.now, "note://x/a");
    s.drain();
    for method in ["resources/list", "resources/read"] {
        let meta = s.last_request(method).1.unwrap()["_meta"].clone();
        assert_eq!(
            meta["io.modelcontextprotocol/logLevel"], "debug",
            "{method}"
        );
    }
    s.notify(
        "notifications/message",
        json!({"level": "debug", "data": "x"}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), []);
    assert!(ev.iter().any(|e| matches!(e, Event::Log(_))));
}
