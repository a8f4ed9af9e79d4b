//! The Streamable HTTP transport against a scripted axum server, 2025-11-25 style:
//! sessions, a stream closed early and resumed, an expired session, the standalone
//! GET stream and server requests on it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::sync::Mutex;

use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use mcpg_core::Generation;
use mcpg_core::client::GenerationMode;
use mcpg_transport::{Driver, HttpConfig};
use serde_json::{Value, json};
use support::fake::{Seen, initialize_result, json_response, result, serve, sse, tools};
use support::{config, obj, success, text};

/// A 2025-11-25 server with sessions: the first `tools/list` stream ends after its
/// priming event (the client must resume with `Last-Event-ID`), and the first
/// `tools/call` finds the session expired (404; the client must re-initialize).
fn session_script(req: &Seen, history: &[Seen]) -> Response {
    let inits = history
        .iter()
        .filter(|s| s.rpc_method() == "initialize")
        .count();
    match (req.method.as_str(), req.rpc_method()) {
        // A pre-2026 server that does not know server/discover before initialize.
        ("POST", "server/discover") => {
            let err = json!({"jsonrpc": "2.0", "id": req.body["id"], "error": {"code": -32000, "message": "Bad Request: Server not initialized"}});
            (
                StatusCode::BAD_REQUEST,
                [("content-type", "application/json")],
                err.to_string(),
            )
                .into_response()
        }
        ("POST", "initialize") => json_response(
            &initialize_result(req),
            Some(if inits == 0 { "session-1" } else { "session-2" }),
        ),
        ("POST", "notifications/initialized") => StatusCode::ACCEPTED.into_response(),
        ("POST", "tools/list") => {
            let answer = result(req, json!({"tools": tools()}));
            let mut pending = answer.to_string();
            // Park the answer where the resuming GET will find it.
            pending.insert_str(0, "id: e2\nevent: message\ndata: ");
            pending.push_str("\n\n");
            PARKED.lock().unwrap().replace(pending);
            sse("id: e1\nretry: 20\ndata:\n\n".into())
        }
        // Resuming the listing's stream.
        ("GET", _) if req.header("last-event-id").is_some() => match PARKED.lock().unwrap().take() {
            Some(body) => sse(body),
            None => StatusCode::BAD_REQUEST.into_response(),
        },
        // The standalone stream: none in the first session; in the second, a server
        // request (ping) that belongs to no client request.
        ("GET", _) if req.header("mcp-session-id") == Some("session-1") => StatusCode::METHOD_NOT_ALLOWED.into_response(),
        ("GET", _) => sse("id: s0\nretry: 60000\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"method\":\"ping\"}\n\n".into()),
        // Our answer to the ping.
        ("POST", "") => StatusCode::ACCEPTED.into_response(),
        ("POST", "tools/call") if req.header("mcp-session-id") == Some("session-1") => {
            StatusCode::NOT_FOUND.into_response()
        }
        ("POST", "tools/call") => json_response(
            &result(
                req,
                json!({"content": [{"type": "text", "text": "called"}]}),
            ),
            None,
        ),
        ("DELETE", _) => StatusCode::OK.into_response(),
        _ => StatusCode::BAD_REQUEST.into_response(),
    }
}

static PARKED: Mutex<Option<String>> = Mutex::new(None);

#[tokio::test]
async fn session_resume_expiry_and_delete() {
    let (url, seen) = serve(session_script).await;
    let d = Driver::http(HttpConfig::new(&url), config()).unwrap();
    let n = d.connect().await.expect("falls back to initialize");
    assert_eq!(n.generation, Generation::Initialize);
    let list = d
        .list_tools()
        .await
        .expect("the listing survives the stream closing early");
    assert_eq!(list.len(), 1);
    let r = success(
        d.call_tool("echo", obj(json!({})), false)
            .await
            .expect("the call survives the expired session"),
    );
    assert_eq!(text(&r), "called");
    // The answer to the server's ping on the standalone stream arrives on its own
    // schedule; wait for it (bounded) so the trail below is complete.
    for _ in 0..200 {
        if seen.lock().unwrap().iter().any(|s| s.body["id"] == "srv-1") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let report = d.close().await.unwrap();
    assert_eq!(report.reason, "closed by the client; session ended");

    let seen = seen.lock().unwrap().clone();
    // Our answer to the server's ping went out in the second session.
    let pong = seen
        .iter()
        .find(|s| s.body["id"] == "srv-1")
        .expect("the ping was answered");
    assert_eq!(pong.body["result"], json!({}));
    assert_eq!(pong.header("mcp-session-id"), Some("session-2"));
    // Everything else, in order (the pong's place depends on timing). The GET
    // stream opens before `initialized` goes, so it can carry what the server
    // pushes while it handles `initialized`.
    let trail: Vec<String> = seen
        .iter()
        .filter(|s| s.body["id"] != "srv-1")
        .map(|s| {
            format!(
                "{} {} {}",
                s.method,
                s.rpc_method(),
                s.header("mcp-session-id").unwrap_or("-")
            )
        })
        .collect();
    assert_eq!(
        trail,
        [
            "POST server/discover -",
            "POST initialize -",
            "GET  session-1",
            "POST notifications/initialized session-1",
            "POST tools/list session-1",
            "GET  session-1",
            "POST tools/call session-1",
            "POST initialize -",
            "GET  session-2",
            "POST notifications/initialized session-2",
            "POST tools/call session-2",
            "DELETE  session-2",
        ]
    );
    for s in seen.iter().filter(|s| s.method == Method::POST) {
        assert_eq!(
            s.header("accept"),
            Some("application/json, text/event-stream"),
            "{}",
            s.rpc_method()
        );
        assert_eq!(s.header("content-type"), Some("application/json"));
    }
    for s in seen
        .iter()
        .filter(|s| !matches!(s.rpc_method(), "initialize" | "server/discover"))
    {
        assert_eq!(
            s.header("mcp-protocol-version"),
            Some("2025-11-25"),
            "{} {}",
            s.method,
            s.rpc_method()
        );
    }
    let get = seen
        .iter()
        .find(|s| s.header("last-event-id").is_some())
        .unwrap();
    assert_eq!(get.header("last-event-id"), Some("e1"));
    assert_eq!(get.header("accept"), Some("text/event-stream"));
}

/// A 2025-11-25 server that asks the client something on the standalone stream.
fn asking_script(req: &Seen, _: &[Seen]) -> Response {
    match (req.method.as_str(), req.rpc_method()) {
        ("POST", "initialize") => json_response(&initialize_result(req), Some("s")),
        ("GET", _) => {
            let ask = json!({"jsonrpc": "2.0", "id": "ask-1", "method": "elicitation/create", "params": {"message": "Sure?", "requestedSchema": {"type": "object", "properties": {}}}});
            sse(format!("id: 1\nretry: 60000\ndata: {ask}\n\n"))
        }
        ("DELETE", _) => StatusCode::OK.into_response(),
        _ => StatusCode::ACCEPTED.into_response(),
    }
}

/// Connects with the elicitation capability declared and returns the client's
/// answer to the server's question, as the server received it.
async fn answer_to_question(handler: Option<mcpg_transport::RequestHandler>) -> Value {
    let (url, seen) = serve(asking_script).await;
    let mut cfg = config();
    cfg.client.mode = GenerationMode::Initialize;
    cfg.client
        .capabilities
        .insert("elicitation".into(), json!({}));
    cfg.handler = handler;
    let d = Driver::http(HttpConfig::new(&url), cfg).unwrap();
    d.connect().await.unwrap();
    for _ in 0..500 {
        if let Some(answer) = seen
            .lock()
            .unwrap()
            .iter()
            .find(|s| s.body["id"] == "ask-1")
        {
            let body = answer.body.clone();
            drop(d);
            return body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    panic!("the server's question was never answered");
}

#[tokio::test]
async fn server_requests_go_to_the_handler_or_are_refused() {
    let answered = answer_to_question(Some(Box::new(|method: &str, _: Option<&Value>| {
        assert_eq!(method, "elicitation/create");
        Ok(json!({"action": "decline"}))
    })))
    .await;
    assert_eq!(answered["result"], json!({"action": "decline"}));
    let refused = answer_to_question(None).await;
    assert_eq!(refused["error"]["code"], -32601, "{refused}");
}
