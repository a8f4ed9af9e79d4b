//! A hostile "authorization server" names a service on the learner's own machine,
//! and the page asks the go-between to fetch it. Without `allow_private_auth`
//! every spelling of loopback is refused and the service sees no connection at
//! all; with it, a local authorization server is reached. The relay never follows a
//! redirect, so configured headers never reach another origin.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// A local service that counts every connection it accepts (on 127.0.0.1 and, when
/// the machine has IPv6, on [::1] with the same port) and answers each with
/// `HTTP 200 {}` plus `extra` headers. Returns its port and the count.
async fn counting_service(status: &'static str, extra: String) -> (u16, Arc<AtomicUsize>) {
    let v4 = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = v4.local_addr().unwrap().port();
    let accepted = Arc::new(AtomicUsize::new(0));
    let mut listeners = vec![v4];
    if let Ok(v6) = TcpListener::bind(("::1", port)).await {
        listeners.push(v6);
    }
    for listener in listeners {
        let accepted = accepted.clone();
        let extra = extra.clone();
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                accepted.fetch_add(1, Ordering::SeqCst);
                let extra = extra.clone();
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 8192];
                    let mut got = Vec::new();
                    while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buf).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => got.extend_from_slice(&buf[..n]),
                        }
                    }
                    let answer = format!(
                        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\n{extra}\
                         content-length: 2\r\nconnection: close\r\n\r\n{{}}"
                    );
                    let _ = socket.write_all(answer.as_bytes()).await;
                });
            }
        });
    }
    (port, accepted)
}

async fn oauth_fetch(live: &Live, url: &str) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .post(live.http("/api/oauth-fetch"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(json!({"method": "GET", "url": url}).to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (
        status,
        serde_json::from_str(&resp.text().await.unwrap()).unwrap(),
    )
}

#[tokio::test]
async fn every_spelling_of_loopback_is_refused_and_the_service_sees_no_connection() {
    let (port, accepted) = counting_service("200 OK", String::new()).await;
    let live = Live::start("").await;
    for url in [
        format!("http://127.0.0.1:{port}/"),
        format!("http://localhost:{port}/"),
        // Decimal 127.0.0.1, which the WHATWG parser normalises.
        format!("http://2130706433:{port}/"),
        format!("http://[::ffff:127.0.0.1]:{port}/"),
        format!("http://[::1]:{port}/"),
        format!("http://0.0.0.0:{port}/"),
        format!("http://app.localhost:{port}/"),
        // https passes the scheme rule, so only the address check stands in the way.
        format!("https://127.0.0.1:{port}/"),
        format!("https://[::ffff:7f00:1]:{port}/"),
        format!("https://localhost:{port}/"),
    ] {
        let (status, answer) = oauth_fetch(&live, &url).await;
        let why = answer["error"].as_str().unwrap_or_default();
        assert_eq!(status, 403, "{url} gave {answer}");
        assert!(
            why.contains("--allow-private-auth") && why.contains("address"),
            "{url} gave {why}"
        );
    }
    // Give any stray connection time to land before counting.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        accepted.load(Ordering::SeqCst),
        0,
        "the service was reached"
    );
}

#[tokio::test]
async fn with_allow_private_auth_a_local_authorization_server_is_reached() {
    let (port, accepted) = counting_service("200 OK", String::new()).await;
    let live = Live::start("allow_private_auth = true\n").await;
    for url in [
        format!("http://127.0.0.1:{port}/.well-known/oauth-authorization-server"),
        format!("http://localhost:{port}/.well-known/oauth-authorization-server"),
    ] {
        let (status, answer) = oauth_fetch(&live, &url).await;
        assert_eq!((status, &answer["status"]), (200, &json!(200)), "{url}");
        assert_eq!(answer["body"], "{}");
    }
    assert_eq!(accepted.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn the_relay_reaches_a_configured_localhost_and_never_follows_a_redirect() {
    // The "other origin" the remote redirects to.
    let (elsewhere, reached) = counting_service("200 OK", String::new()).await;
    let redirect = format!("location: http://127.0.0.1:{elsewhere}/mcp\r\n");
    let (port, accepted) = counting_service("307 Temporary Redirect", redirect).await;
    // `localhost` in the config is the learner's own choice: reached as written.
    let config = format!(
        "[[remote]]\nname = \"far\"\nurl = \"http://localhost:{port}/mcp\"\n\
         headers = {{ X-Api-Key = \"s3cret\" }}\n"
    );
    let live = Live::start(&config).await;
    let resp = reqwest::Client::new()
        .post(live.http("/relay/far"))
        .header("authorization", format!("Bearer {TOKEN}"))
        .header("mcpg-remote-authorization", "Bearer page-token")
        .header("content-type", "application/json")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        .send()
        .await
        .unwrap();
    // The redirect comes back to the page as it came; nothing went to the other origin.
    assert_eq!(resp.status(), 307);
    assert_eq!(accepted.load(Ordering::SeqCst), 1);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(
        reached.load(Ordering::SeqCst),
        0,
        "the redirect was followed"
    );
}
