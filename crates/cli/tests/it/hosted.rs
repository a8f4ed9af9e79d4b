//! `mcpg serve --page-origin`: a page hosted elsewhere, trusted for its origin, opened
//! by a printed link that carries the bridge's address and token in the fragment.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::bridge_support;

use std::process::Command;
use std::time::{Duration, Instant};

use bridge_support::PATIENCE;
use bridge_support::process::{Bridge, mcpg};

/// The hosted line, once the reader thread has seen it.
fn hosted_line(bridge: &Bridge) -> String {
    let start = Instant::now();
    while start.elapsed() < PATIENCE {
        if let Some(l) = bridge.extra.lock().unwrap().first() {
            return l.clone();
        }
        // Polling another thread's output; nothing depends on the timing.
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("no hosted-page line after {:?}", bridge.line);
}

#[tokio::test]
async fn the_printed_link_opens_the_hosted_page_and_only_its_origin_may_use_the_bridge() {
    let mut bridge = Bridge::start_with(
        None,
        &["--page-origin", "http://localhost:8123/playground/"],
    );
    let line = hosted_line(&bridge);
    let link = format!(
        "http://localhost:8123/playground/#bridge=http://{}&token={}",
        bridge.authority, bridge.token
    );
    assert_eq!(
        line,
        format!("MCP Playground (hosted page, http://localhost:8123): open {link}")
    );
    let (page, fragment) = link.split_once('#').unwrap();
    assert!(!page.contains(&bridge.token), "never in what the host sees");
    assert!(fragment.contains(&bridge.token));

    let http = reqwest::Client::new();
    let servers = format!("{}?token={}", bridge.http("/api/servers"), bridge.token);
    let ok = http
        .get(&servers)
        .header("origin", "http://localhost:8123")
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status(), 200);
    assert_eq!(
        ok.headers()["access-control-allow-origin"],
        "http://localhost:8123"
    );
    let third = http
        .get(&servers)
        .header("origin", "http://127.0.0.1:8123")
        .send()
        .await
        .unwrap();
    assert_eq!(third.status(), 403);
    assert!(third.headers().get("access-control-allow-origin").is_none());
    assert_eq!(bridge.terminate(), Some(0));
}

#[test]
fn a_bad_page_origin_is_a_usage_error_that_says_why() {
    for (value, needle) in [
        ("example.org", "not an absolute URL"),
        ("file:///tmp/dist/", "http: or https:"),
        ("https://example.org/?x=1", "query or a fragment"),
        ("http://example.org/playground/", "plain http"),
    ] {
        let out = Command::new(mcpg())
            .args(["serve", "--port", "0", "--page-origin", value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{value}");
        assert!(out.stdout.is_empty(), "nothing was served");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--page-origin") && err.contains(needle),
            "{err}"
        );
    }
}
