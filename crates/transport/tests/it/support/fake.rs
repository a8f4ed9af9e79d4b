//! A scripted Streamable HTTP server on axum for the transport tests: it records
//! every request and answers as a script (which sees the history) decides.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use serde_json::{Value, json};

/// One request the fake server received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: Method,
    pub headers: HeaderMap,
    pub body: Value,
}

impl Seen {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    pub fn rpc_method(&self) -> &str {
        self.body
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

pub type Script = dyn Fn(&Seen, &[Seen]) -> Response + Send + Sync;

/// The fake server: records everything, answers by a script that sees the history.
#[derive(Clone)]
struct Fake {
    seen: Arc<Mutex<Vec<Seen>>>,
    script: Arc<Script>,
}

async fn handle(
    State(fake): State<Fake>,
    method: Method,
    headers: HeaderMap,
    body: String,
) -> Response {
    let body = serde_json::from_str(&body).unwrap_or(Value::Null);
    let req = Seen {
        method,
        headers,
        body,
    };
    let history = fake.seen.lock().unwrap().clone();
    let resp = (fake.script)(&req, &history);
    fake.seen.lock().unwrap().push(req);
    resp
}

/// Serves `script` on a free port; returns the URL and the request log.
pub async fn serve(
    script: impl Fn(&Seen, &[Seen]) -> Response + Send + Sync + 'static,
) -> (String, Arc<Mutex<Vec<Seen>>>) {
    let fake = Fake {
        seen: Arc::default(),
        script: Arc::new(script),
    };
    let seen = fake.seen.clone();
    let app = Router::new().route("/mcp", any(handle)).with_state(fake);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, seen)
}

pub fn result(req: &Seen, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": req.body["id"], "result": result})
}

pub fn json_response(v: &Value, session: Option<&str>) -> Response {
    let mut resp = (
        StatusCode::OK,
        [("content-type", "application/json")],
        v.to_string(),
    )
        .into_response();
    if let Some(s) = session {
        resp.headers_mut()
            .insert("mcp-session-id", s.parse().unwrap());
    }
    resp
}

pub fn sse(body: String) -> Response {
    (
        StatusCode::OK,
        [("content-type", "text/event-stream")],
        body,
    )
        .into_response()
}

pub fn initialize_result(req: &Seen) -> Value {
    result(
        req,
        json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "1"}}),
    )
}

pub fn tools() -> Value {
    json!([{"name": "echo", "inputSchema": {"type": "object"}}])
}
