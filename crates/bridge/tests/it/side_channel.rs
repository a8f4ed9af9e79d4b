//! The side channel's HTTP face: SSE ids, resuming with `Last-Event-ID`, bad ids.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use mcpg_bridge::SideEvent;
use support::*;

#[tokio::test]
async fn events_carry_ids_and_a_reconnect_resumes_after_the_last_one() {
    let live = Live::start("").await;
    let channel = live.state.channels().get("resume").unwrap();
    for i in 0..3 {
        channel.push(SideEvent::Stderr {
            line: format!("line {i}"),
        });
    }
    let url = live.http(&format!("/api/events?channel=resume&token={TOKEN}"));
    let mut resp = reqwest::Client::new()
        .get(&url)
        .header("last-event-id", "0")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut got = String::new();
    while !got.contains("line 2") {
        let chunk = tokio::time::timeout(PATIENCE, resp.chunk())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        got.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(!got.contains("line 0"), "{got}");
    assert!(got.contains("id: 1\n") && got.contains("id: 2\n"), "{got}");
    assert!(
        got.contains(r#"data: {"type":"stderr","line":"line 1"}"#),
        "{got}"
    );
}

#[tokio::test]
async fn a_missing_or_odd_channel_id_is_400() {
    let live = Live::start("").await;
    for q in [
        "",
        "&channel=",
        "&channel=a%20b",
        &format!("&channel={}", "x".repeat(65)),
    ] {
        let url = live.http(&format!("/api/events?token={TOKEN}{q}"));
        let resp = reqwest::get(&url).await.unwrap();
        assert_eq!(resp.status(), 400, "{q}");
    }
}
