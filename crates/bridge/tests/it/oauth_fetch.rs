//! `POST /api/oauth-fetch`: the bridge as the page's go-between with an
//! authorization server that sends no CORS headers, and its limits. The test
//! authorization server is on loopback, so these bridges run with
//! `allow_private_auth = true` (`private_destinations.rs` tests the refusal).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use serde_json::{Value, json};
use support::*;

/// An AS without CORS: `/meta` (JSON, sets a cookie), `/token` (echoes what it
/// got), `/moved` (a redirect), `/huge` (over the limit). Records request headers.
async fn server() -> (String, Arc<Mutex<Vec<HeaderMap>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let (a, b) = (seen.clone(), seen.clone());
    let router = Router::new()
        .route(
            "/meta",
            get(move |headers: HeaderMap| async move {
                a.lock().unwrap().push(headers);
                (
                    [("content-type", "application/json"), ("set-cookie", "as=1")],
                    r#"{"issuer":"x"}"#,
                )
            }),
        )
        .route(
            "/token",
            post(move |headers: HeaderMap, body: String| async move {
                b.lock().unwrap().push(headers);
                (StatusCode::BAD_REQUEST, format!("got {body}"))
            }),
        )
        .route(
            "/moved",
            get(|| async {
                (
                    StatusCode::FOUND,
                    [("location", "http://elsewhere.invalid/")],
                )
            }),
        )
        .route(
            "/huge",
            get(|| async { "x".repeat((1 << 20) + 1).into_response() }),
        );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (base, seen)
}

/// A bridge config that lets the loopback test server in.
const LOCAL_AS: &str = "allow_private_auth = true\n";

/// Asks the bridge for `ask`; the status and the JSON answer.
async fn ask(live: &Live, ask: &Value) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .post(live.http("/api/oauth-fetch"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("cookie", "bridge=1")
        .header("content-type", "application/json")
        .body(ask.to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&resp.text().await.unwrap()).unwrap(),
    )
}

fn header<'a>(answer: &'a Value, name: &str) -> Option<&'a str> {
    answer["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0] == name)
        .and_then(|h| h[1].as_str())
}

#[tokio::test]
async fn it_relays_one_exchange_without_the_bridges_token_or_cookies() {
    let (base, seen) = server().await;
    let live = Live::start(LOCAL_AS).await;
    let (status, answer) = ask(&live, &json!({"method":"GET","url":format!("{base}/meta"),"headers":[["Accept","application/json"]],"body":null})).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["status"], 200);
    assert_eq!(answer["body"], r#"{"issuer":"x"}"#);
    assert_eq!(header(&answer, "content-type"), Some("application/json"));
    assert_eq!(header(&answer, "set-cookie"), None);
    let got = seen.lock().unwrap().pop().unwrap();
    assert_eq!(got["accept"], "application/json");
    assert!(
        got.get("authorization").is_none() && got.get("cookie").is_none(),
        "{got:?}"
    );

    // A POST with the page's client_secret_basic; the AS's 400 is an answer, not an error.
    let basic = "Basic Y2xpZW50OnNlY3JldA==";
    let (status, answer) = ask(
        &live,
        &json!({"method":"POST","url":format!("{base}/token"),
        "headers":[["Content-Type","application/x-www-form-urlencoded"],["Authorization",basic]],
        "body":"grant_type=authorization_code&code=c"}),
    )
    .await;
    assert_eq!((status, &answer["status"]), (200, &json!(400)));
    assert_eq!(answer["body"], "got grant_type=authorization_code&code=c");
    let got = seen.lock().unwrap().pop().unwrap();
    assert_eq!(got["authorization"], basic);
}

#[tokio::test]
async fn redirects_come_back_unfollowed() {
    let (base, _) = server().await;
    let live = Live::start(LOCAL_AS).await;
    let (status, answer) = ask(
        &live,
        &json!({"method":"GET","url":format!("{base}/moved")}),
    )
    .await;
    assert_eq!((status, &answer["status"]), (200, &json!(302)));
    assert_eq!(
        header(&answer, "location"),
        Some("http://elsewhere.invalid/")
    );
}

#[tokio::test]
async fn asks_outside_the_limits_are_refused() {
    let (base, seen) = server().await;
    let live = Live::start(LOCAL_AS).await;
    let meta = format!("{base}/meta");
    for (bad, status, needle) in [
        (json!({"method":"PUT","url":meta}), 400, "GET or POST"),
        (
            json!({"method":"GET","url":"file:///etc/passwd"}),
            400,
            "not https or http",
        ),
        (
            json!({"method":"GET","url":"http://example.org/"}),
            400,
            "only to a loopback host",
        ),
        (
            json!({"method":"GET","url":"https://user:pw@example.org/"}),
            400,
            "user name or password",
        ),
        (
            json!({"method":"GET","url":"/relative"}),
            400,
            "not an absolute URL",
        ),
        (
            json!({"method":"GET","url":meta,"headers":[["Cookie","a=1"]]}),
            400,
            "Cookie",
        ),
        (
            json!({"method":"GET","url":meta,"headers":[["Host","x"]]}),
            400,
            "Host",
        ),
        (
            json!({"method":"GET","url":format!("{meta}?t={TOKEN}")}),
            400,
            "token",
        ),
        (
            json!({"method":"GET","url":meta,"headers":[["Authorization",format!("Bearer {TOKEN}")]]}),
            400,
            "token",
        ),
        (
            json!({"method":"POST","url":meta,"body":format!("x={TOKEN}")}),
            400,
            "token",
        ),
        (json!({"method":"GET"}), 400, "url"),
        // Refused for the token before anything could quote it back.
        (
            json!({"method":"GET","url":format!("file:///{TOKEN}")}),
            400,
            "token",
        ),
        (json!({"method":"GET","headers":TOKEN}), 400, "token"),
        (
            json!({"method":"GET","url":format!("{base}/huge")}),
            502,
            "limit",
        ),
        (
            json!({"method":"GET","url":"http://127.0.0.1:9/"}),
            502,
            "could not reach",
        ),
    ] {
        let (got, answer) = ask(&live, &bad).await;
        let why = answer["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{bad} gave {answer}");
        assert!(why.contains(needle), "{bad} gave {answer}");
        assert!(
            !why.contains(TOKEN),
            "an error text quotes the token: {why}"
        );
    }
    // Only the over-limit ask reached the server (the refused ones never left).
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn it_needs_the_bridge_token() {
    let st = state("");
    let req = axum::http::Request::post("/api/oauth-fetch")
        .header("host", format!("127.0.0.1:{PORT}"))
        .body(axum::body::Body::from(
            r#"{"method":"GET","url":"http://127.0.0.1:9/"}"#,
        ))
        .unwrap();
    let (status, _, _) = send(&st, req).await;
    assert_eq!(status, 401);
}
