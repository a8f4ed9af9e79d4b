//! The security boundary, route by route, without sockets (`oneshot`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::net::{IpAddr, Ipv4Addr};

use axum::body::Body;
use axum::http::Request;
use mcpg_bridge::{BridgeError, ServeOptions, check_bind, serve};
use serde_json::Value;
use support::*;

const CONFIG: &str = r#"
allowed_origins = ["http://localhost:8080"]
[[server]]
name = "echo"
command = "/bin/secret-command"
args = ["--secret-arg"]
[[remote]]
name = "far"
url = "http://127.0.0.1:9/mcp"
"#;

const GUARDED: &[&str] = &[
    "/api/servers",
    "/api/events?channel=c1",
    "/ws?server=echo",
    "/relay/far",
];

#[tokio::test]
async fn every_api_route_needs_the_token() {
    let st = state(CONFIG);
    for path in GUARDED {
        let (status, _, body) = send(&st, get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, 401, "{path}: {body}");
        assert!(body.contains("token"), "{path}: {body}");
        let sep = if path.contains('?') { '&' } else { '?' };
        let wrong = format!("{path}{sep}token=00{}", &TOKEN[2..]);
        let (status, _, _) = send(&st, get(&wrong).body(Body::empty()).unwrap()).await;
        assert_eq!(status, 401, "{wrong}");
    }
}

#[tokio::test]
async fn the_token_works_in_the_query_or_as_a_bearer_header() {
    let st = state(CONFIG);
    let q = format!("/api/servers?token={TOKEN}");
    let (status, _, _) = send(&st, get(&q).body(Body::empty()).unwrap()).await;
    assert_eq!(status, 200);
    let req = get("/api/servers")
        .header("authorization", format!("Bearer {TOKEN}"))
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&st, req).await.0, 200);
    let req = get("/api/servers")
        .header("authorization", "Bearer nope")
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&st, req).await.0, 401);
}

#[tokio::test]
async fn static_files_need_no_token_and_explain_how_to_build_when_missing() {
    let st = state(CONFIG);
    let (status, headers, body) = send(&st, get("/").body(Body::empty()).unwrap()).await;
    assert_eq!(status, 200);
    assert!(
        headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    assert!(body.contains("cargo xtask play"), "{body}");

    let dist = tempfile::tempdir().unwrap();
    std::fs::write(dist.path().join("index.html"), "<h1>the page</h1>").unwrap();
    std::fs::write(dist.path().join("app.js"), "let x = 1;").unwrap();
    let st = state_with(CONFIG, dist.path().to_owned());
    let (status, _, body) = send(&st, get("/").body(Body::empty()).unwrap()).await;
    assert_eq!((status, body.as_str()), (200, "<h1>the page</h1>"));
    let (status, _, body) = send(&st, get("/app.js").body(Body::empty()).unwrap()).await;
    assert_eq!((status, body.as_str()), (200, "let x = 1;"));
}

#[tokio::test]
async fn a_foreign_origin_is_refused_and_our_own_are_allowed() {
    let st = state(CONFIG);
    let q = format!("/api/servers?token={TOKEN}");
    for bad in [
        "http://evil.example",
        "null",
        "http://127.0.0.1:4001",
        "https://127.0.0.1:4000",
    ] {
        for path in [q.as_str(), "/"] {
            let req = get(path).header("origin", bad).body(Body::empty()).unwrap();
            let (status, _, body) = send(&st, req).await;
            assert_eq!(status, 403, "{bad} {path}: {body}");
            assert!(body.contains("Origin"), "{body}");
        }
    }
    for good in [
        "http://127.0.0.1:4000",
        "http://localhost:4000",
        "http://[::1]:4000",
        "http://localhost:8080",
    ] {
        let req = get(&q).header("origin", good).body(Body::empty()).unwrap();
        assert_eq!(send(&st, req).await.0, 200, "{good}");
    }
}

#[tokio::test]
async fn a_foreign_host_is_refused_on_every_route_including_static() {
    let st = state(CONFIG);
    let q = format!("/api/servers?token={TOKEN}");
    for bad in [
        "evil.example",
        "evil.example:4000",
        "127.0.0.1:4001",
        "127.0.0.1",
    ] {
        for path in [q.as_str(), "/", "/index.html"] {
            let req = Request::get(path)
                .header("host", bad)
                .body(Body::empty())
                .unwrap();
            let (status, _, body) = send(&st, req).await;
            assert_eq!(status, 421, "{bad} {path}: {body}");
            assert!(body.contains("DNS rebinding"), "{body}");
        }
    }
    for good in [
        "127.0.0.1:4000",
        "localhost:4000",
        "LOCALHOST:4000",
        "[::1]:4000",
    ] {
        let req = Request::get(&q)
            .header("host", good)
            .body(Body::empty())
            .unwrap();
        assert_eq!(send(&st, req).await.0, 200, "{good}");
    }
}

#[tokio::test]
async fn the_server_list_has_names_and_never_commands() {
    let st = state(CONFIG);
    let q = format!("/api/servers?token={TOKEN}");
    let (status, _, body) = send(&st, get(&q).body(Body::empty()).unwrap()).await;
    assert_eq!(status, 200);
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["servers"], serde_json::json!([{"name": "echo"}]));
    assert_eq!(v["remotes"][0]["name"], "far");
    assert!(!body.contains("secret"), "{body}");
}

#[tokio::test]
async fn an_unknown_server_is_404_and_starts_nothing() {
    let st = state(CONFIG);
    for name in ["nope", "..%2Fbin%2Fsh", "%2Fbin%2Fsh"] {
        let q = format!("/ws?server={name}&channel=c1&token={TOKEN}");
        let req = get(&q)
            .header("connection", "upgrade")
            .header("upgrade", "websocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
            .body(Body::empty())
            .unwrap();
        let (status, headers, body) = send(&st, req).await;
        assert_eq!(status, 404, "{name}: {body}");
        assert_eq!(headers["content-type"], "application/json");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(
            v["error"].as_str().unwrap().contains("no server named"),
            "{body}"
        );
    }
    assert_eq!(st.running_children(), 0);
    // Nothing was said on the side channel either: no spawn was attempted.
    let c = st.channels().get("c1").unwrap();
    let mut reader = c.reader(0);
    let none =
        tokio::time::timeout(std::time::Duration::from_millis(50), reader.next_batch()).await;
    assert!(none.is_err(), "unexpected events: {none:?}");
}

#[tokio::test]
async fn an_unknown_remote_is_404() {
    let st = state(CONFIG);
    let q = format!("/relay/elsewhere?token={TOKEN}");
    let req = Request::post(&q)
        .header("host", format!("127.0.0.1:{PORT}"))
        .body(Body::from("{}"))
        .unwrap();
    let (status, _, body) = send(&st, req).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no remote named"), "{body}");
}

#[tokio::test]
async fn a_cors_preflight_from_our_origin_is_answered_without_the_token() {
    let st = state(CONFIG);
    let req = Request::options("/relay/far")
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("origin", "http://localhost:8080")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization, mcp-session-id, mcp-param-city",
        )
        .body(Body::empty())
        .unwrap();
    let (status, headers, _) = send(&st, req).await;
    assert!(status < 300, "{status}");
    assert_eq!(
        headers["access-control-allow-origin"],
        "http://localhost:8080"
    );
    let allowed = headers["access-control-allow-headers"].to_str().unwrap();
    assert!(allowed.contains("mcp-param-city"), "{allowed}");
}

#[test]
fn a_non_loopback_address_is_refused_unless_allowed() {
    let mut opts = ServeOptions {
        bind: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        ..ServeOptions::default()
    };
    assert!(matches!(
        check_bind(&opts),
        Err(BridgeError::NonLoopback { .. })
    ));
    opts.bind = "192.168.1.10".parse().unwrap();
    assert!(matches!(
        check_bind(&opts),
        Err(BridgeError::NonLoopback { .. })
    ));
    opts.allow_remote_bind = true;
    assert!(check_bind(&opts).is_ok());
    for lo in ["127.0.0.1", "::1", "127.0.0.2"] {
        let opts = ServeOptions {
            bind: lo.parse().unwrap(),
            ..ServeOptions::default()
        };
        assert!(check_bind(&opts).is_ok(), "{lo}");
    }
}

#[tokio::test]
async fn serve_refuses_a_non_loopback_address_before_binding() {
    let opts = ServeOptions {
        bind: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        ..ServeOptions::default()
    };
    let err = serve(opts).await.unwrap_err();
    assert!(err.to_string().contains("--allow-remote-bind"), "{err}");
}
