//! The native driver runs the OAuth flow (`HttpConfig.auth`): a 401 leads through
//! discovery, registration, the browser leg (`FollowRedirect`) and the token
//! exchange, and the held request is re-sent with the token; an expired cached
//! token is refreshed before the first request, without a browser.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use mcpg_auth::{AuthConfig, ClientIdentity, Tokens};
use mcpg_transport::{AuthOptions, Driver, FollowRedirect, HttpConfig, Observed};
use serde_json::{Value, json};

/// What the fake servers saw.
#[derive(Clone, Default)]
struct Log {
    base: Arc<Mutex<String>>,
    grants: Arc<Mutex<Vec<String>>>,
    authorizations: Arc<Mutex<u32>>,
    unauthorized: Arc<Mutex<u32>>,
}

async fn mcp(State(log): State<Log>, headers: HeaderMap, body: String) -> Response {
    let bearer = headers.get("authorization").and_then(|v| v.to_str().ok());
    let base = log.base.lock().unwrap().clone();
    if bearer != Some("Bearer good-token-0123456789") {
        *log.unauthorized.lock().unwrap() += 1;
        let www = format!(
            r#"Bearer resource_metadata="{base}/.well-known/oauth-protected-resource/mcp""#
        );
        return (StatusCode::UNAUTHORIZED, [("www-authenticate", www)], "").into_response();
    }
    let req: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let result = match req["method"].as_str().unwrap_or("") {
        "initialize" => {
            json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "rs", "version": "1"}})
        }
        "tools/list" => json!({"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}),
        _ => return StatusCode::ACCEPTED.into_response(),
    };
    let answer = json!({"jsonrpc": "2.0", "id": req["id"], "result": result});
    ([("content-type", "application/json")], answer.to_string()).into_response()
}

async fn prm(State(log): State<Log>) -> Response {
    let base = log.base.lock().unwrap().clone();
    axum::Json(json!({"resource": format!("{base}/mcp"), "authorization_servers": [base]}))
        .into_response()
}

async fn as_meta(State(log): State<Log>) -> Response {
    let b = log.base.lock().unwrap().clone();
    axum::Json(json!({
        "issuer": b, "authorization_endpoint": format!("{b}/authorize"),
        "token_endpoint": format!("{b}/token"), "registration_endpoint": format!("{b}/register"),
        "code_challenge_methods_supported": ["S256"], "authorization_response_iss_parameter_supported": true,
    }))
    .into_response()
}

async fn register() -> Response {
    (
        StatusCode::CREATED,
        axum::Json(json!({"client_id": "client-1"})),
    )
        .into_response()
}

async fn authorize(State(log): State<Log>, Query(q): Query<HashMap<String, String>>) -> Response {
    *log.authorizations.lock().unwrap() += 1;
    let base = log.base.lock().unwrap().clone();
    let to = format!(
        "{}?code=code-1&state={}&iss={}",
        q["redirect_uri"],
        q["state"],
        mcpg_auth::url::encode(&base)
    );
    Redirect::to(&to).into_response()
}

async fn token(State(log): State<Log>, body: String) -> Response {
    let form = mcpg_auth::url::parse_query(&body);
    let grant = form
        .iter()
        .find(|(k, _)| k == "grant_type")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    log.grants.lock().unwrap().push(grant);
    axum::Json(
        json!({"access_token": "good-token-0123456789", "token_type": "Bearer",
                      "expires_in": 3600, "refresh_token": "refresh-0123456789"}),
    )
    .into_response()
}

async fn serve() -> (String, Log) {
    let log = Log::default();
    let app = Router::new()
        .route(
            "/mcp",
            post(mcp).get(|| async { StatusCode::METHOD_NOT_ALLOWED }),
        )
        .route("/.well-known/oauth-protected-resource/mcp", get(prm))
        .route("/.well-known/oauth-authorization-server", get(as_meta))
        .route("/register", post(register))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .with_state(log.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    *log.base.lock().unwrap() = base.clone();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, log)
}

fn options(url: &str, tokens: Option<Tokens>, saved: Arc<Mutex<Vec<Tokens>>>) -> AuthOptions {
    let identity = ClientIdentity::Auto {
        metadata_url: None,
        client_name: "transport test".into(),
    };
    AuthOptions {
        config: AuthConfig::new(url, "http://localhost:3000/callback", identity),
        tokens,
        authorizer: Arc::new(FollowRedirect),
        on_tokens: Some(Arc::new(move |t: &Tokens| {
            saved.lock().unwrap().push(t.clone())
        })),
    }
}

#[tokio::test]
async fn a_401_runs_the_flow_and_the_request_goes_through() {
    let (base, log) = serve().await;
    let url = format!("{base}/mcp");
    let saved = Arc::new(Mutex::new(Vec::new()));
    let cards = Arc::new(Mutex::new(Vec::new()));
    let mut cfg = support::config();
    let c = cards.clone();
    cfg.observer = Some(Arc::new(move |o: &Observed| {
        if let Observed::Auth(x) = o {
            c.lock()
                .unwrap()
                .push(format!("{} {:?}", x.request, x.response));
        }
    }));
    let mut http = HttpConfig::new(&url);
    http.auth = Some(options(&url, None, saved.clone()));
    let d = Driver::http(http, cfg).unwrap();
    d.connect().await.expect("connected after authorizing");
    let tools = d.list_tools().await.unwrap();
    assert_eq!(tools.tools().count(), 1);
    d.close().await.unwrap();

    assert_eq!(*log.authorizations.lock().unwrap(), 1);
    assert_eq!(*log.grants.lock().unwrap(), ["authorization_code"]);
    let saved = saved.lock().unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].client_id, "client-1");
    let cards = cards.lock().unwrap();
    assert!(
        cards.len() >= 4,
        "PRM, AS metadata, registration, authorization, token: {cards:?}"
    );
    assert!(
        cards
            .iter()
            .all(|c| !c.contains("good-token-0123") && !c.contains("refresh-0123")),
        "a token leaked into a card"
    );
}

fn cached(base: &str, expires_at: Option<u64>) -> Tokens {
    Tokens {
        access_token: "stale-token-0123456789".into(),
        token_type: "Bearer".into(),
        refresh_token: Some("refresh-0123456789".into()),
        expires_at,
        scope: None,
        issuer: base.to_owned(),
        token_endpoint: format!("{base}/token"),
        client_id: "client-1".into(),
        client_secret: None,
        token_endpoint_auth_method: "none".into(),
        resource: format!("{base}/mcp"),
    }
}

#[tokio::test]
async fn a_refused_cached_token_is_refreshed_before_the_full_flow() {
    let (base, log) = serve().await;
    let url = format!("{base}/mcp");
    let saved = Arc::new(Mutex::new(Vec::new()));
    let mut http = HttpConfig::new(&url);
    // Not expired by the clock, but the server refuses it (revoked, say).
    http.auth = Some(options(&url, Some(cached(&base, None)), saved.clone()));
    let d = Driver::http(http, support::config()).unwrap();
    d.connect().await.expect("connected after the refresh");
    d.close().await.unwrap();
    assert_eq!(
        *log.unauthorized.lock().unwrap(),
        1,
        "the stale token was refused once"
    );
    assert_eq!(*log.grants.lock().unwrap(), ["refresh_token"]);
    assert_eq!(*log.authorizations.lock().unwrap(), 0, "no browser");
}

#[tokio::test]
async fn an_expired_cached_token_is_refreshed_first() {
    let (base, log) = serve().await;
    let url = format!("{base}/mcp");
    let saved = Arc::new(Mutex::new(Vec::new()));
    let mut http = HttpConfig::new(&url);
    http.auth = Some(options(&url, Some(cached(&base, Some(1))), saved.clone()));
    let d = Driver::http(http, support::config()).unwrap();
    d.connect()
        .await
        .expect("connected with the refreshed token");
    d.close().await.unwrap();
    assert_eq!(*log.grants.lock().unwrap(), ["refresh_token"]);
    assert_eq!(*log.authorizations.lock().unwrap(), 0, "no browser");
    assert_eq!(
        *log.unauthorized.lock().unwrap(),
        0,
        "the stale token was never sent"
    );
    assert_eq!(saved.lock().unwrap().len(), 1);
}
