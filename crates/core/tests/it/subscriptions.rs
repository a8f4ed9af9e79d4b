//! Resource subscriptions and updates (2025-11-25 `resources/subscribe`,
//! 2026-07-28 `subscriptions/listen`), list changes, and a new session after
//! expiry asking again.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use std::time::Duration;

use mcpg_core::client::{Answer, ClientConfig, Event, Failure, OpError};
use mcpg_core::diag::Rule;
use mcpg_core::jsonrpc::RequestId;
use mcpg_core::model::LoggingLevel;
use serde_json::{Value, json};
use support::{Scripted, answered, rules};

const CAPS: &str = r#"{"resources": {"subscribe": true, "listChanged": true}, "prompts": {"listChanged": true}, "logging": {}}"#;

fn connected(version: &str) -> Scripted {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with(version, serde_json::from_str(CAPS).unwrap());
    s
}

/// The server acknowledges listen stream `id` with these resource subscriptions.
fn acknowledge(s: &mut Scripted, id: &RequestId, uris: &[&str]) {
    let params = json!({
        "_meta": {"io.modelcontextprotocol/subscriptionId": id.to_value()},
        "notifications": {"resourceSubscriptions": uris}
    });
    s.notify("notifications/subscriptions/acknowledged", params);
}

#[test]
fn subscribe_and_unsubscribe_with_requests_up_to_2025_11_25() {
    let mut s = connected("2025-11-25");
    let op = s.client.subscribe_resource(s.now, "note://x/a");
    s.drain();
    assert_eq!(
        s.last_request("resources/subscribe").1.unwrap(),
        json!({"uri": "note://x/a"})
    );
    s.reply("resources/subscribe", json!({}));
    assert!(matches!(answered(&s.take(), op), Ok(Answer::Done)));
    assert_eq!(s.client.subscriptions().collect::<Vec<_>>(), ["note://x/a"]);
    // An update of the resource, or of a sub-resource of it.
    s.notify(
        "notifications/resources/updated",
        json!({"uri": "note://x/a"}),
    );
    s.notify(
        "notifications/resources/updated",
        json!({"uri": "note://x/a/part"}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), []);
    let uris: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::ResourceUpdated { uri } => Some(uri.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(uris, ["note://x/a", "note://x/a/part"]);
    // An update nobody asked for is delivered, and named.
    s.notify(
        "notifications/resources/updated",
        json!({"uri": "other://b"}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::Subscription]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ResourceUpdated { .. }))
    );
    let op = s.client.unsubscribe_resource(s.now, "note://x/a");
    s.drain();
    s.reply("resources/unsubscribe", json!({}));
    assert!(matches!(answered(&s.take(), op), Ok(Answer::Done)));
    assert_eq!(s.client.subscriptions().count(), 0);
    assert!(
        !s.sent
            .iter()
            .any(|m| m.method() == Some("subscriptions/listen"))
    );
}

#[test]
fn under_2026_07_28_each_change_reopens_the_listen_stream() {
    let mut s = connected("2026-07-28");
    let a = s.client.subscribe_resource(s.now, "note://x/a");
    s.drain();
    assert!(
        !s.sent
            .iter()
            .any(|m| m.method() == Some("resources/subscribe"))
    );
    let (first, params) = s.last_request("subscriptions/listen");
    assert_eq!(
        params.unwrap()["notifications"],
        json!({"resourceSubscriptions": ["note://x/a"]})
    );
    assert!(
        s.take()
            .iter()
            .all(|e| !matches!(e, Event::Answered { .. })),
        "done only once acknowledged"
    );
    acknowledge(&mut s, &first, &["note://x/a"]);
    let ev = s.take();
    assert!(matches!(answered(&ev, a), Ok(Answer::Done)), "{ev:#?}");
    assert_eq!(rules(&ev), []);
    // A second subscription closes the first stream and opens one with both.
    let b = s.client.subscribe_resource(s.now, "note://x/b");
    s.drain();
    let (second, params) = s.last_request("subscriptions/listen");
    assert_ne!(first, second);
    assert_eq!(
        params.unwrap()["notifications"]["resourceSubscriptions"],
        json!(["note://x/a", "note://x/b"])
    );
    let cancelled = s.last_request_like("notifications/cancelled");
    assert_eq!(cancelled["requestId"], first.to_value());
    // The server honours only one of them.
    acknowledge(&mut s, &second, &["note://x/a"]);
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::Subscription]);
    assert!(matches!(answered(&ev, b), Err(OpError::Failed(_))));
    assert_eq!(s.client.subscriptions().collect::<Vec<_>>(), ["note://x/a"]);
    let update = json!({"uri": "note://x/a", "_meta": {"io.modelcontextprotocol/subscriptionId": second.to_value()}});
    s.notify("notifications/resources/updated", update);
    assert!(
        s.take()
            .iter()
            .any(|e| matches!(e, Event::ResourceUpdated { uri } if uri == "note://x/a"))
    );
    // The last unsubscription closes the stream; nothing is left to acknowledge.
    let op = s.client.unsubscribe_resource(s.now, "note://x/a");
    s.drain();
    assert!(matches!(answered(&s.take(), op), Ok(Answer::Done)));
    assert_eq!(
        s.last_request_like("notifications/cancelled")["requestId"],
        second.to_value()
    );
    assert_eq!(s.client.poll_timeout(), None);
}

#[test]
fn a_missing_acknowledgement_times_out_and_a_stale_one_is_ignored() {
    let mut s = connected("2026-07-28");
    let op = s.client.subscribe_resource(s.now, "note://x/a");
    s.drain();
    let (id, _) = s.last_request("subscriptions/listen");
    acknowledge(&mut s, &RequestId::Number(999), &["note://x/a"]);
    assert_eq!(rules(&s.take()), [Rule::Subscription]);
    let deadline = s
        .client
        .poll_timeout()
        .expect("the acknowledgement has a deadline");
    s.advance(Duration::from_secs(60));
    assert_eq!(s.now, deadline);
    assert!(matches!(
        answered(&s.take(), op),
        Err(OpError::Failed(Failure::Timeout(_)))
    ));
    // The stream itself has no deadline and stays open.
    assert_eq!(s.client.poll_timeout(), None);
    // A server that ends the stream with an error fails what waits on it.
    let op = s.client.subscribe_resource(s.now, "note://x/b");
    s.drain();
    let (id2, _) = s.last_request("subscriptions/listen");
    assert_ne!(id, id2);
    s.reply_error("subscriptions/listen", -32603, "no", None);
    assert!(matches!(answered(&s.take(), op), Err(OpError::Rpc(_))));
}

#[test]
fn subscriptions_asked_before_connecting_ride_the_first_listen_stream() {
    let mut s = Scripted::new(ClientConfig {
        listen_for_list_changes: true,
        ..Default::default()
    });
    let op = s.client.subscribe_resource(s.now, "note://x/a");
    let level = s.client.set_log_level(s.now, LoggingLevel::Notice);
    s.drain();
    s.reply(
        "server/discover",
        json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": serde_json::from_str::<Value>(CAPS).unwrap()}),
    );
    let listens: Vec<_> = s
        .sent
        .iter()
        .filter(|m| m.method() == Some("subscriptions/listen"))
        .collect();
    assert_eq!(listens.len(), 1);
    let params = listens[0].params().unwrap();
    assert_eq!(
        params["notifications"],
        json!({"resourcesListChanged": true, "promptsListChanged": true, "resourceSubscriptions": ["note://x/a"]})
    );
    assert_eq!(
        params["_meta"]["io.modelcontextprotocol/logLevel"],
        "notice"
    );
    let ev = s.take();
    assert!(matches!(answered(&ev, level.unwrap()), Ok(Answer::Done)));
    let (id, _) = s.last_request("subscriptions/listen");
    acknowledge(&mut s, &id, &["note://x/a"]);
    assert!(matches!(answered(&s.take(), op), Ok(Answer::Done)));
    let on_stream = json!({"_meta": {"io.modelcontextprotocol/subscriptionId": id.to_value()}});
    s.notify("notifications/resources/list_changed", on_stream.clone());
    s.notify("notifications/prompts/list_changed", on_stream);
    let ev = s.take();
    assert!(ev.iter().any(|e| matches!(e, Event::ResourcesListChanged)));
    assert!(ev.iter().any(|e| matches!(e, Event::PromptsListChanged)));
    assert_eq!(rules(&ev), []);
    // Not naming the stream breaks a 2026-07-28 MUST; still delivered.
    s.notify(
        "notifications/resources/updated",
        json!({"uri": "note://x/a"}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::Subscription]);
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::ResourceUpdated { .. }))
    );
}

#[test]
fn list_changes_from_a_server_that_did_not_declare_them_are_named() {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with("2025-06-18", json!({"resources": {}, "prompts": {}}));
    s.notify("notifications/resources/list_changed", json!({}));
    s.notify("notifications/prompts/list_changed", json!({}));
    s.notify("notifications/resources/updated", json!({"uri": "a://b"}));
    let ev = s.take();
    assert_eq!(
        rules(&ev),
        [
            Rule::CapabilityNotDeclared,
            Rule::CapabilityNotDeclared,
            Rule::CapabilityNotDeclared,
            Rule::Subscription
        ]
    );
    assert_eq!(
        ev.iter()
            .filter(|e| !matches!(e, Event::Diagnostic(_)))
            .count(),
        3
    );
}

#[test]
fn a_new_session_after_expiry_asks_again_for_subscriptions_and_the_level() {
    let mut s = connected("2025-11-25");
    s.client.subscribe_resource(s.now, "note://x/a");
    s.drain();
    s.reply("resources/subscribe", json!({}));
    s.client.set_log_level(s.now, LoggingLevel::Error);
    s.drain();
    s.reply("logging/setLevel", json!({}));
    let op = s.client.list_resources(s.now);
    s.drain();
    let (id, _) = s.last_request("resources/list");
    s.client
        .handle_send_failed(s.now, &id, mcpg_core::client::SendFailure::SessionExpired);
    s.drain();
    let before = s.sent.len();
    s.reply(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": serde_json::from_str::<Value>(CAPS).unwrap(), "serverInfo": {"name": "x", "version": "1"}}),
    );
    let again: Vec<(String, Value)> = s.sent[before..]
        .iter()
        .filter_map(|m| {
            Some((
                m.method()?.to_owned(),
                m.params().cloned().unwrap_or_default(),
            ))
        })
        .filter(|(m, _)| m != "notifications/initialized")
        .collect();
    assert_eq!(
        again,
        [
            (
                "resources/subscribe".to_owned(),
                json!({"uri": "note://x/a"})
            ),
            ("logging/setLevel".to_owned(), json!({"level": "error"})),
            ("resources/list".to_owned(), Value::Null),
        ]
    );
    s.reply("resources/list", json!({"resources": []}));
    assert!(
        s.take()
            .iter()
            .any(|e| matches!(e, Event::Listed { op: o, .. } if *o == op))
    );
}
