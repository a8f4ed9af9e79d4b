//! The learner's headers (`--header`, `--bearer-env`) stay with the origin they were
//! sent to: a redirect to another origin is not followed; one within it is.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{any, post};
use mcpg_transport::Driver;
use mcpg_transport::http::HttpConfig;

type Seen = Arc<Mutex<Vec<(String, HeaderMap)>>>;

/// Serves `router` on a loopback port; its base URL.
async fn serve(router: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    base
}

/// A server that records every request (path and headers) and answers 404.
async fn recorder() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let s = seen.clone();
    let router = Router::new().route(
        "/{*path}",
        any(move |uri: axum::http::Uri, headers: HeaderMap| async move {
            s.lock().unwrap().push((uri.path().to_owned(), headers));
            StatusCode::NOT_FOUND
        }),
    );
    (serve(router).await, seen)
}

/// A server whose `/mcp` redirects (307, so the POST is repeated) to `to`.
async fn redirecting_to(to: String) -> String {
    let router = Router::new().route(
        "/mcp",
        post(move || async move { (StatusCode::TEMPORARY_REDIRECT, [("location", to)]) }),
    );
    serve(router).await
}

fn driver(url: &str) -> Driver {
    let mut h = HttpConfig::new(url);
    h.headers = vec![
        ("X-Api-Key".into(), "s3cret-key".into()),
        ("Authorization".into(), "Bearer s3cret-token".into()),
    ];
    h.max_resumes = 0;
    Driver::http(h, support::config()).unwrap()
}

#[tokio::test]
async fn a_redirect_to_another_origin_is_not_followed() {
    let (elsewhere, seen) = recorder().await;
    let base = redirecting_to(format!("{elsewhere}/collect")).await;
    let d = driver(&format!("{base}/mcp"));
    let err = tokio::time::timeout(Duration::from_secs(20), d.connect())
        .await
        .expect("connect ends")
        .expect_err("the redirect is refused");
    let text = err.to_string();
    assert!(text.contains("another origin"), "{text}");
    assert!(!text.contains("s3cret"), "{text}");
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        seen.lock().unwrap().is_empty(),
        "the other origin was reached"
    );
}

#[tokio::test]
async fn a_redirect_within_the_origin_keeps_the_headers() {
    // The recorder's own origin, from a redirect route mounted beside it.
    let seen: Seen = Arc::default();
    let s = seen.clone();
    let router = Router::new()
        .route(
            "/mcp",
            post(|| async { (StatusCode::TEMPORARY_REDIRECT, [("location", "/real")]) }),
        )
        .route(
            "/real",
            any(move |headers: HeaderMap| async move {
                s.lock().unwrap().push(("/real".into(), headers));
                StatusCode::NOT_FOUND
            }),
        );
    let base = serve(router).await;
    let d = driver(&format!("{base}/mcp"));
    let _ = tokio::time::timeout(Duration::from_secs(20), d.connect()).await;
    let seen = seen.lock().unwrap();
    let (_, headers) = seen.first().expect("the same-origin redirect was followed");
    assert_eq!(headers["x-api-key"], "s3cret-key");
}
