//! The scripted server behind `mcpg_http::cases`, over real HTTP: `ANY
//! /cases/{name}` answers as that case's script says (streaming the chunks, keeping
//! "hanging" answers open and noting when the client drops them), `GET
//! /log/{name}` returns what the case's endpoint saw, `POST /reset/{name}` forgets it.
//! Every answer carries permissive CORS headers and exposes `Mcp-Session-Id`, so the
//! browser run can use it from any origin.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex, MutexGuard};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get, post};
use mcpg_http::cases::{self, Seen};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// What each case's endpoint saw, by case name.
type Logs = Arc<Mutex<HashMap<String, Vec<Seen>>>>;

/// A running cases server.
#[derive(Clone, Debug)]
pub struct CasesServer {
    /// `http://127.0.0.1:PORT` (case endpoints are `{base}/cases/{name}`).
    pub base: String,
    logs: Logs,
}

impl CasesServer {
    /// Serves on `listener` in a background task (inside a tokio runtime).
    pub fn spawn(listener: TcpListener) -> std::io::Result<Self> {
        let base = format!("http://{}", listener.local_addr()?);
        let logs = Logs::default();
        let app = app(logs.clone());
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(CasesServer { base, logs })
    }

    /// The endpoint of case `name`.
    pub fn url(&self, name: &str) -> String {
        format!("{}/cases/{name}", self.base)
    }

    /// What case `name`'s endpoint saw so far.
    pub fn seen(&self, name: &str) -> Vec<Seen> {
        lock(&self.logs).get(name).cloned().unwrap_or_default()
    }
}

fn lock(logs: &Logs) -> MutexGuard<'_, HashMap<String, Vec<Seen>>> {
    logs.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The router.
fn app(logs: Logs) -> Router {
    Router::new()
        .route("/cases/{name}", any(case))
        .route("/log/{name}", get(log))
        .route("/reset/{name}", post(reset))
        .with_state(logs)
}

async fn case(
    State(logs): State<Logs>,
    Path(name): Path<String>,
    method: Method,
    headers: HeaderMap,
    body: String,
) -> Response {
    if method == Method::OPTIONS {
        return cors(StatusCode::NO_CONTENT.into_response(), &headers);
    }
    let Some(case) = cases::find(&name) else {
        return cors(StatusCode::NOT_FOUND.into_response(), &headers);
    };
    let seen = Seen {
        method: method.as_str().to_owned(),
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_owned(),
                    String::from_utf8_lossy(v.as_bytes()).into_owned(),
                )
            })
            .collect(),
        body,
        aborted: false,
    };
    let (reply, index) = {
        let mut all = lock(&logs);
        let log = all.entry(name.clone()).or_default();
        let reply = (case.serve)(&seen, log);
        log.push(seen);
        (reply, log.len() - 1)
    };
    // The body is fed through a channel so that a dropped answer (the client
    // aborted) is noticed: the sender sees its receiver go.
    let (tx, rx) = mpsc::channel::<Vec<u8>>(4);
    let chunks = reply.chunks.clone();
    let hang = reply.hang;
    tokio::spawn(async move {
        for c in chunks {
            if tx.send(c).await.is_err() {
                break;
            }
        }
        if hang {
            tx.closed().await;
            if let Some(s) = lock(&logs).get_mut(&name).and_then(|l| l.get_mut(index)) {
                s.aborted = true;
            }
        }
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|c| (Ok::<_, Infallible>(Bytes::from(c)), rx))
    });
    let mut resp = Response::new(Body::from_stream(stream));
    *resp.status_mut() =
        StatusCode::from_u16(reply.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (k, v) in &reply.headers {
        if let (Ok(k), Ok(v)) = (
            axum::http::HeaderName::try_from(k.as_str()),
            HeaderValue::try_from(v.as_str()),
        ) {
            resp.headers_mut().append(k, v);
        }
    }
    cors(resp, &headers)
}

async fn log(State(logs): State<Logs>, Path(name): Path<String>, headers: HeaderMap) -> Response {
    let seen: Vec<Value> = lock(&logs)
        .get(&name)
        .map(|l| l.iter().map(Seen::to_value).collect())
        .unwrap_or_default();
    let resp = (
        [("content-type", "application/json")],
        Value::Array(seen).to_string(),
    )
        .into_response();
    cors(resp, &headers)
}

async fn reset(State(logs): State<Logs>, Path(name): Path<String>, headers: HeaderMap) -> Response {
    lock(&logs).remove(&name);
    cors(StatusCode::NO_CONTENT.into_response(), &headers)
}

/// Lets any origin call, send any header (echoing the preflight's list, since `*`
/// does not cover `Authorization`) and read `Mcp-Session-Id`.
fn cors(mut resp: Response, req: &HeaderMap) -> Response {
    let h = resp.headers_mut();
    h.insert("access-control-allow-origin", HeaderValue::from_static("*"));
    h.insert(
        "access-control-allow-methods",
        HeaderValue::from_static("GET, POST, DELETE, OPTIONS"),
    );
    let asked = req
        .get("access-control-request-headers")
        .cloned()
        .unwrap_or_else(|| HeaderValue::from_static("*"));
    h.insert("access-control-allow-headers", asked);
    h.insert(
        "access-control-expose-headers",
        HeaderValue::from_static("mcp-session-id, content-type"),
    );
    resp
}
