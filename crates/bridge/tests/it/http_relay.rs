//! The Streamable HTTP relay against a scripted upstream on a real port.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use support::*;
use tokio::sync::Notify;

#[derive(Clone, Default)]
struct Upstream {
    seen: Arc<Mutex<Vec<(String, HeaderMap, String)>>>,
    release: Arc<Notify>,
}

async fn start_upstream() -> (String, Upstream) {
    let up = Upstream::default();
    let (a, b, c) = (up.clone(), up.clone(), up.clone());
    let router = Router::new().route(
        "/mcp",
        post(move |headers: HeaderMap, body: String| async move {
            a.seen
                .lock()
                .unwrap()
                .push(("POST".into(), headers, body.clone()));
            (
                [
                    ("content-type", "application/json"),
                    ("mcp-session-id", "s-1"),
                    ("x-internal", "no"),
                ],
                json!({"jsonrpc":"2.0","id":1,"result":{"echo": body}}).to_string(),
            )
        })
        .get(move |headers: HeaderMap| async move {
            b.seen
                .lock()
                .unwrap()
                .push(("GET".into(), headers, String::new()));
            let release = b.release.clone();
            let stream = async_stream(release);
            Response::builder()
                .header("content-type", "text/event-stream")
                .body(Body::from_stream(stream))
                .unwrap()
        })
        .delete(move |headers: HeaderMap| async move {
            c.seen
                .lock()
                .unwrap()
                .push(("DELETE".into(), headers, String::new()));
            StatusCode::NO_CONTENT.into_response()
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, up)
}

/// One SSE event now, the second only once the test releases it.
fn async_stream(
    release: Arc<Notify>,
) -> impl futures_util::Stream<Item = Result<String, std::io::Error>> {
    futures_util::stream::unfold(0, move |step| {
        let release = release.clone();
        async move {
            match step {
                0 => Some((Ok("id: 1\ndata: {\"first\":true}\n\n".to_owned()), 1)),
                1 => {
                    release.notified().await;
                    Some((Ok("id: 2\ndata: {\"second\":true}\n\n".to_owned()), 2))
                }
                _ => None,
            }
        }
    })
}

fn config(url: &str) -> String {
    format!("[[remote]]\nname = \"far\"\nurl = {url:?}\n")
}

#[tokio::test]
async fn a_post_forwards_the_mcp_headers_both_ways_and_nothing_else() {
    let (url, up) = start_upstream().await;
    let live = Live::start(&config(&url)).await;
    let origin = format!("http://localhost:{}", live.addr.port());
    let resp = reqwest::Client::new()
        .post(live.http("/relay/far"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("origin", &origin)
        .header("accept", "application/json, text/event-stream")
        .header("content-type", "application/json")
        .header("mcp-session-id", "s-0")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "get_weather")
        .header("mcp-param-city", "Austin")
        .header("last-event-id", "7")
        .header("cookie", "secret=1")
        .header("x-other", "1")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let h = resp.headers().clone();
    assert_eq!(h["mcp-session-id"], "s-1");
    assert!(h.get("x-internal").is_none());
    assert_eq!(h["access-control-allow-origin"], origin.as_str());
    let exposed = h["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_ascii_lowercase();
    assert!(exposed.contains("mcp-session-id"), "{exposed}");
    let body: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    assert_eq!(
        body["result"]["echo"],
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#
    );

    let seen = up.seen.lock().unwrap();
    let (method, headers, _) = &seen[0];
    assert_eq!(method, "POST");
    for (k, v) in [
        ("accept", "application/json, text/event-stream"),
        ("content-type", "application/json"),
        ("mcp-session-id", "s-0"),
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "get_weather"),
        ("mcp-param-city", "Austin"),
        ("last-event-id", "7"),
    ] {
        assert_eq!(headers.get(k).map(|v| v.to_str().unwrap()), Some(v), "{k}");
    }
    for k in ["authorization", "cookie", "x-other", "origin"] {
        assert!(headers.get(k).is_none(), "{k} leaked to the remote");
    }
}

#[tokio::test]
async fn an_sse_answer_streams_through_before_it_ends() {
    let (url, up) = start_upstream().await;
    let live = Live::start(&config(&url)).await;
    let mut resp = reqwest::Client::new()
        .get(live.http(&format!("/relay/far?token={TOKEN}")))
        .header("accept", "text/event-stream")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut got = String::new();
    while !got.contains("\n\n") {
        let chunk = tokio::time::timeout(PATIENCE, resp.chunk())
            .await
            .unwrap()
            .unwrap()
            .unwrap();
        got.push_str(&String::from_utf8_lossy(&chunk));
    }
    // The upstream has not finished: the first event came through on its own.
    assert!(got.contains(r#"{"first":true}"#), "{got}");
    assert!(!got.contains("second"));
    up.release.notify_one();
    while let Some(chunk) = tokio::time::timeout(PATIENCE, resp.chunk())
        .await
        .unwrap()
        .unwrap()
    {
        got.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(got.contains(r#"{"second":true}"#), "{got}");
}

#[tokio::test]
async fn delete_is_forwarded_and_an_unreachable_remote_is_a_clear_502() {
    let (url, up) = start_upstream().await;
    let config = format!(
        "{}[[remote]]\nname = \"gone\"\nurl = \"http://127.0.0.1:9/mcp\"\n",
        config(&url)
    );
    let live = Live::start(&config).await;
    let client = reqwest::Client::new();
    let resp = client
        .delete(live.http(&format!("/relay/far?token={TOKEN}")))
        .header("mcp-session-id", "s-1")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    assert_eq!(up.seen.lock().unwrap()[0].0, "DELETE");
    let resp = client
        .post(live.http(&format!("/relay/gone?token={TOKEN}")))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 502);
    let v: Value = serde_json::from_str(&resp.text().await.unwrap()).unwrap();
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("could not reach remote \"gone\""),
        "{v}"
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_413_and_never_sent() {
    let (url, up) = start_upstream().await;
    let live = Live::start(&format!(
        "[limits]\nmax_message_bytes = 1024\n{}",
        config(&url)
    ))
    .await;
    let resp = reqwest::Client::new()
        .post(live.http(&format!("/relay/far?token={TOKEN}")))
        .body("x".repeat(2000))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 413);
    assert!(up.seen.lock().unwrap().is_empty());
}

/// What the page's `HttpMachine` sends on a resume and on close reaches the remote:
/// GET with `Last-Event-ID` (and the session), DELETE with the session and the
/// revision.
#[tokio::test]
async fn a_resume_get_and_the_closing_delete_carry_their_headers() {
    let (url, up) = start_upstream().await;
    let live = Live::start(&config(&url)).await;
    let client = reqwest::Client::new();
    let resp = client
        .get(live.http(&format!("/relay/far?token={TOKEN}")))
        .header("accept", "text/event-stream")
        .header("mcp-session-id", "s-1")
        .header("mcp-protocol-version", "2025-11-25")
        .header("last-event-id", "e-1")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    up.release.notify_one();
    drop(resp);
    let resp = client
        .delete(live.http(&format!("/relay/far?token={TOKEN}")))
        .header("mcp-session-id", "s-1")
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 204);
    let seen = up.seen.lock().unwrap();
    let methods: Vec<&str> = seen.iter().map(|(m, _, _)| m.as_str()).collect();
    assert_eq!(methods, ["GET", "DELETE"]);
    let get = &seen[0].1;
    assert_eq!(get["last-event-id"], "e-1");
    assert_eq!(get["mcp-session-id"], "s-1");
    let delete = &seen[1].1;
    assert_eq!(delete["mcp-session-id"], "s-1");
    assert_eq!(delete["mcp-protocol-version"], "2025-11-25");
}
