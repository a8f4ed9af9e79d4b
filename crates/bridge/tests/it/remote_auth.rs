//! Authorization through the relay (issue 15): a remote's configured headers, the
//! page's own token for it, the bridge's token never leaving, and the remote's
//! 401 challenge coming back unchanged.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::post;
use mcpg_bridge::{AppState, Config, Token};
use support::*;

/// A remote that records every request's headers and refuses any request
/// without `Authorization: Bearer good`, the way a protected MCP server does.
async fn protected_remote() -> (String, Arc<Mutex<Vec<HeaderMap>>>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let router = Router::new().route(
        "/mcp",
        post(move |headers: HeaderMap| async move {
            let authorized = headers
                .get("authorization")
                .is_some_and(|v| v == "Bearer good");
            log.lock().unwrap().push(headers);
            if authorized {
                ([("content-type", "application/json")], "{}").into_response()
            } else {
                let challenge = r#"Bearer error="invalid_token", resource_metadata="http://r.example/.well-known/oauth-protected-resource/mcp""#;
                (
                    StatusCode::UNAUTHORIZED,
                    [("www-authenticate", challenge)],
                    r#"{"error":"invalid_token"}"#,
                )
                    .into_response()
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (url, seen)
}

/// POSTs to `/relay/far` with the bridge token and `extra` headers.
async fn relay(live: &Live, extra: &[(&str, &str)]) -> reqwest::Response {
    let mut req = reqwest::Client::new()
        .post(live.http("/relay/far"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("origin", format!("http://127.0.0.1:{}", live.addr.port()))
        .header("content-type", "application/json")
        .body("{}");
    for (k, v) in extra {
        req = req.header(*k, *v);
    }
    req.send().await.unwrap()
}

fn remote(url: &str, headers: &str) -> String {
    format!("[[remote]]\nname = \"far\"\nurl = {url:?}\nheaders = {headers}\n")
}

#[tokio::test]
async fn configured_headers_reach_the_remote_with_env_values_read_at_launch() {
    let (url, seen) = protected_remote().await;
    // Cargo sets CARGO_PKG_NAME for the test process: a variable that surely exists.
    let live = Live::start(&remote(
        &url,
        r#"{ X-Api-Key = "env:CARGO_PKG_NAME", X-Team = "blue" }"#,
    ))
    .await;
    let resp = relay(&live, &[("cookie", "session=1")]).await;
    assert_eq!(resp.status(), 401);
    let got = seen.lock().unwrap().pop().unwrap();
    assert_eq!(got["x-api-key"], "mcpg-bridge");
    assert_eq!(got["x-team"], "blue");
    assert!(got.get("cookie").is_none());
    // The bridge's token is the page's credential for the bridge, never the remote's.
    assert!(got.get("authorization").is_none(), "{got:?}");
    assert!(
        got.values().all(|v| !v.to_str().unwrap().contains(TOKEN)),
        "{got:?}"
    );
    // The values never show in the list of remotes.
    let list = reqwest::Client::new()
        .get(live.http("/api/servers"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(list.contains("\"far\"") && !list.contains("blue") && !list.contains("mcpg-bridge"));
}

#[tokio::test]
async fn the_pages_token_goes_on_as_authorization_and_the_401_comes_back_unchanged() {
    let (url, seen) = protected_remote().await;
    let live = Live::start(&format!("[[remote]]\nname = \"far\"\nurl = {url:?}\n")).await;
    let refused = relay(&live, &[]).await;
    assert_eq!(refused.status(), 401);
    let h = refused.headers();
    let challenge = h["www-authenticate"].to_str().unwrap();
    assert!(
        challenge
            .starts_with("Bearer error=\"invalid_token\", resource_metadata=\"http://r.example/")
    );
    let exposed = h["access-control-expose-headers"].to_str().unwrap();
    assert!(
        exposed.to_ascii_lowercase().contains("www-authenticate"),
        "{exposed}"
    );
    assert_eq!(
        refused.text().await.unwrap(),
        r#"{"error":"invalid_token"}"#
    );

    let ok = relay(&live, &[("mcpg-remote-authorization", "Bearer good")]).await;
    assert_eq!(ok.status(), 200);
    let got = seen.lock().unwrap().pop().unwrap();
    assert_eq!(got["authorization"], "Bearer good");
    assert!(got.get("mcpg-remote-authorization").is_none());
}

#[tokio::test]
async fn a_configured_authorization_wins_over_the_pages() {
    let (url, seen) = protected_remote().await;
    let live = Live::start(&remote(&url, r#"{ Authorization = "Bearer good" }"#)).await;
    let resp = relay(&live, &[("mcpg-remote-authorization", "Bearer page")]).await;
    assert_eq!(resp.status(), 200);
    let got = seen.lock().unwrap().pop().unwrap();
    let all: Vec<_> = got.get_all("authorization").iter().collect();
    assert_eq!(all, ["Bearer good"]);
}

#[tokio::test]
async fn a_preflight_may_ask_for_the_pages_authorization_header() {
    let st = state("[[remote]]\nname = \"far\"\nurl = \"http://127.0.0.1:9/mcp\"\n");
    let origin = format!("http://127.0.0.1:{PORT}");
    let req = axum::http::Request::options("/relay/far")
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("origin", &origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "mcpg-remote-authorization",
        )
        .body(axum::body::Body::empty())
        .unwrap();
    let (status, headers, _) = send(&st, req).await;
    assert_eq!(status, 200);
    let allowed = headers["access-control-allow-headers"].to_str().unwrap();
    assert!(allowed.contains("mcpg-remote-authorization"), "{allowed}");
}

#[test]
fn an_unset_variable_stops_the_bridge_naming_it() {
    let cfg = Config::parse(
        "[[remote]]\nname = \"far\"\nurl = \"http://127.0.0.1:9/mcp\"\nheaders = { Authorization = \"env:MCPG_TEST_NEVER_SET_7Q\" }\n",
    )
    .unwrap();
    let addr: SocketAddr = ([127, 0, 0, 1], PORT).into();
    let err = AppState::new(cfg, Token::from_string(TOKEN), addr, PathBuf::from("/none"))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("MCPG_TEST_NEVER_SET_7Q") && err.contains("far"),
        "{err}"
    );
}
