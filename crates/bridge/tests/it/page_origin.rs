//! A page hosted elsewhere (`--page-origin`): its origin passes the Origin check on
//! every route and gets CORS answers naming exactly it; every other origin is refused
//! before any route runs, with no CORS header to read the refusal by.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use axum::body::Body;
use axum::http::{HeaderMap, Request};
use mcpg_bridge::{AppState, Config, PageOrigin, Token};
use support::*;

const CONFIG: &str = r#"
[[server]]
name = "echo"
command = "sh"
args = ["-c", "cat"]
[[remote]]
name = "far"
url = "http://127.0.0.1:9/mcp"
"#;

/// Where the hosted page lives (given with a path, as a learner would paste it).
const PAGE: &str = "http://localhost:8123/playground/";
/// The origin a browser sends for it.
const ORIGIN: &str = "http://localhost:8123";

/// Origins that must not pass: same host other port, other host same port (the
/// third origin of the e2e test), other scheme, a look-alike, an opaque origin.
const FOREIGN: &[&str] = &[
    "http://localhost:8124",
    "http://127.0.0.1:8123",
    "https://localhost:8123",
    "http://localhost:8123.evil.example",
    "null",
];

fn hosted_state() -> AppState {
    let mut cfg = Config::parse(CONFIG).unwrap();
    cfg.trust_pages(&[PageOrigin::parse(PAGE).unwrap()]);
    let addr = ([127, 0, 0, 1], PORT).into();
    AppState::new(
        cfg,
        Token::from_string(TOKEN),
        addr,
        "/nonexistent-mcpg-dist".into(),
    )
    .unwrap()
}

fn preflight(path: &str, origin: &str, pna: bool) -> Request<Body> {
    let mut req = Request::options(path)
        .header("host", format!("127.0.0.1:{PORT}"))
        .header("origin", origin)
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization, content-type, mcp-protocol-version, mcp-session-id, mcp-method, mcp-param-city",
        );
    if pna {
        req = req.header("access-control-request-private-network", "true");
    }
    req.body(Body::empty()).unwrap()
}

fn vary_names(h: &HeaderMap) -> String {
    h.get_all("vary")
        .iter()
        .map(|v| v.to_str().unwrap().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(",")
}

#[tokio::test]
async fn a_preflight_from_the_page_is_answered_for_every_api_route_without_the_token() {
    let st = hosted_state();
    for path in ["/api/servers", "/api/events?channel=c1", "/relay/far"] {
        let (status, h, body) = send(&st, preflight(path, ORIGIN, true)).await;
        assert!(status < 300, "{path}: {status} {body}");
        assert_eq!(h["access-control-allow-origin"], ORIGIN, "{path}");
        let methods = h["access-control-allow-methods"].to_str().unwrap();
        for m in ["GET", "POST", "DELETE"] {
            assert!(methods.contains(m), "{path}: {methods}");
        }
        let headers = h["access-control-allow-headers"].to_str().unwrap();
        for name in [
            "authorization",
            "content-type",
            "mcp-protocol-version",
            "mcp-session-id",
            "mcp-method",
            "mcp-param-city",
        ] {
            assert!(headers.contains(name), "{path}: {headers}");
        }
        assert_eq!(h["access-control-allow-private-network"], "true", "{path}");
        assert!(vary_names(&h).contains("origin"), "{path}: {h:?}");
    }
    // Private Network Access is answered only when asked.
    let (_, h, _) = send(&st, preflight("/api/servers", ORIGIN, false)).await;
    assert_eq!(h["access-control-allow-origin"], ORIGIN);
    assert!(h.get("access-control-allow-private-network").is_none());
}

#[tokio::test]
async fn the_page_reads_the_api_with_its_own_origin_named_never_a_wildcard() {
    let st = hosted_state();
    let q = format!("/api/servers?token={TOKEN}");
    let req = get(&q)
        .header("origin", ORIGIN)
        .body(Body::empty())
        .unwrap();
    let (status, h, body) = send(&st, req).await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("\"echo\""), "{body}");
    assert_eq!(h["access-control-allow-origin"], ORIGIN);
    assert!(vary_names(&h).contains("origin"), "{h:?}");
    // The relay's session headers are readable by the page.
    let exposed = h["access-control-expose-headers"].to_str().unwrap();
    assert!(exposed.contains("mcp-session-id"), "{exposed}");

    // A wrong token (a link from an earlier launch) is still readable as a 401, so
    // the page can say which it is.
    let req = get("/api/servers?token=nope")
        .header("origin", ORIGIN)
        .body(Body::empty())
        .unwrap();
    let (status, h, _) = send(&st, req).await;
    assert_eq!(status, 401);
    assert_eq!(h["access-control-allow-origin"], ORIGIN);
}

#[tokio::test]
async fn the_page_passes_the_origin_check_of_the_websocket_upgrade() {
    let st = hosted_state();
    let ws = |origin: &str, server: &str| {
        let q = format!("/ws?server={server}&channel=c1&token={TOKEN}");
        get(&q)
            .header("origin", origin)
            .header("connection", "upgrade")
            .header("upgrade", "websocket")
            .header("sec-websocket-version", "13")
            .header("sec-websocket-key", "dGhlIHNhbXBsZSBub25jZQ==")
            .body(Body::empty())
            .unwrap()
    };
    // Past the guards, the handler itself answers (an unknown name: 404).
    let (status, _, body) = send(&st, ws(ORIGIN, "nope")).await;
    assert_eq!(status, 404, "{body}");
    assert!(body.contains("no server named"), "{body}");
    for bad in FOREIGN {
        let (status, _, body) = send(&st, ws(bad, "echo")).await;
        assert_eq!(status, 403, "{bad}: {body}");
    }
    assert_eq!(st.running_children(), 0, "a refused upgrade starts nothing");
}

#[tokio::test]
async fn every_other_origin_is_refused_on_every_route_with_nothing_to_read() {
    let st = hosted_state();
    let q = format!("/api/servers?token={TOKEN}");
    let relay = format!("/relay/far?token={TOKEN}");
    let events = format!("/api/events?channel=c2&token={TOKEN}");
    for bad in FOREIGN {
        for path in [q.as_str(), relay.as_str(), events.as_str(), "/"] {
            let req = get(path)
                .header("origin", *bad)
                .body(Body::empty())
                .unwrap();
            let (status, h, body) = send(&st, req).await;
            assert_eq!(status, 403, "{bad} {path}: {body}");
            assert!(body.contains("--page-origin"), "{body}");
            assert!(h.get("access-control-allow-origin").is_none(), "{bad}");
        }
        let (status, h, _) = send(&st, preflight("/api/servers", bad, true)).await;
        assert_eq!(status, 403, "{bad} preflight");
        assert!(h.get("access-control-allow-origin").is_none(), "{bad}");
        assert!(h.get("access-control-allow-private-network").is_none());
    }
}

#[tokio::test]
async fn without_page_origin_the_hosted_origin_is_foreign_and_the_bridge_keeps_its_own() {
    let st = state(CONFIG);
    let q = format!("/api/servers?token={TOKEN}");
    let req = get(&q)
        .header("origin", ORIGIN)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&st, req).await.0, 403);
    let (status, h, _) = send(&st, preflight("/api/servers", ORIGIN, true)).await;
    assert_eq!(status, 403);
    assert!(h.get("access-control-allow-private-network").is_none());
    // Trusting a page leaves the bridge's own origins and its Host check alone.
    let st = hosted_state();
    let own = format!("http://127.0.0.1:{PORT}");
    let req = get(&q).header("origin", &own).body(Body::empty()).unwrap();
    assert_eq!(send(&st, req).await.0, 200);
    let req = Request::get(&q)
        .header("host", "localhost:8123")
        .header("origin", ORIGIN)
        .body(Body::empty())
        .unwrap();
    assert_eq!(send(&st, req).await.0, 421, "the Host check is unchanged");
}

#[test]
fn trusting_the_same_page_twice_lists_its_origin_once() {
    let mut cfg = Config::parse(CONFIG).unwrap();
    let p = PageOrigin::parse(PAGE).unwrap();
    let root = PageOrigin::parse(ORIGIN).unwrap();
    cfg.trust_pages(&[p.clone(), root, p]);
    assert_eq!(cfg.allowed_origins, [ORIGIN]);
}
