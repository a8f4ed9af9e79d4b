//! The Streamable HTTP transport against a scripted server written here with axum:
//! the cases the real peers do not produce on demand (a stream closed early and
//! resumed, an expired session, the exact headers on every request).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use mcpg_core::Generation;
use mcpg_core::client::{CallOutcome, GenerationMode};
use mcpg_transport::{Driver, DriverError, HttpConfig};
use serde_json::{Value, json};
use support::{config, obj, success, text};

/// One request the fake server received.
#[derive(Clone, Debug)]
struct Seen {
    method: Method,
    headers: HeaderMap,
    body: Value,
}

impl Seen {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    fn rpc_method(&self) -> &str {
        self.body
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
    }
}

type Script = dyn Fn(&Seen, &[Seen]) -> Response + Send + Sync;

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
async fn serve(
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

fn result(req: &Seen, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": req.body["id"], "result": result})
}

fn json_response(v: &Value, session: Option<&str>) -> Response {
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

fn sse(body: String) -> Response {
    (
        StatusCode::OK,
        [("content-type", "text/event-stream")],
        body,
    )
        .into_response()
}

fn initialize_result(req: &Seen) -> Value {
    result(
        req,
        json!({"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "fake", "version": "1"}}),
    )
}

fn tools() -> Value {
    json!([{"name": "echo", "inputSchema": {"type": "object"}}])
}

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
    // Everything else, in order (the pong's place depends on timing).
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
            "POST notifications/initialized session-1",
            "GET  session-1",
            "POST tools/list session-1",
            "GET  session-1",
            "POST tools/call session-1",
            "POST initialize -",
            "POST notifications/initialized session-2",
            "GET  session-2",
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

/// A 2026-07-28 server: no sessions; checks the per-request headers.
fn stateless_script(req: &Seen, _: &[Seen]) -> Response {
    let rt = |mut v: Value| {
        v["resultType"] = json!("complete");
        v
    };
    match req.rpc_method() {
        "server/discover" => json_response(
            &result(
                req,
                rt(json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}})),
            ),
            None,
        ),
        "tools/list" => json_response(&result(req, rt(json!({"tools": tools()}))), None),
        "tools/call" if req.body["params"]["name"] == "echo" => {
            let body = result(
                req,
                rt(json!({"content": [{"type": "text", "text": "hi"}]})),
            );
            // Answer as SSE, with a priming event and a comment, to cover that path too.
            sse(format!(
                ": keep-alive\n\nid: 1\ndata:\n\nevent: message\ndata: {body}\n\n"
            ))
        }
        // A JSON-RPC error in a 4xx body is the server's real answer.
        "tools/call" => {
            let err = json!({"jsonrpc": "2.0", "id": req.body["id"], "error": {"code": -32602, "message": "no such tool"}});
            (
                StatusCode::BAD_REQUEST,
                [("content-type", "application/json")],
                err.to_string(),
            )
                .into_response()
        }
        _ => StatusCode::NOT_FOUND.into_response(),
    }
}

#[tokio::test]
async fn stateless_headers_and_errors_in_http_bodies() {
    let (url, seen) = serve(stateless_script).await;
    let mut cfg = config();
    cfg.client.mode = GenerationMode::Stateless;
    let d = Driver::http(HttpConfig::new(&url), cfg).unwrap();
    assert_eq!(d.connect().await.unwrap().generation, Generation::Stateless);
    assert_eq!(d.list_tools().await.unwrap().len(), 1);
    let r = success(d.call_tool("echo", None, false).await.unwrap());
    assert_eq!(text(&r), "hi");
    let r = d.call_tool("nope", None, false).await.unwrap();
    assert!(
        matches!(&r.outcome, CallOutcome::ProtocolError(e) if e.code == -32602),
        "{:?}",
        r.outcome
    );
    let report = d.close().await.unwrap();
    assert_eq!(
        report.reason, "closed by the client",
        "no session, so no DELETE"
    );

    let seen = seen.lock().unwrap().clone();
    assert!(
        seen.iter().all(|s| s.method == Method::POST),
        "no GET, no DELETE"
    );
    for s in &seen {
        assert_eq!(
            s.header("mcp-protocol-version"),
            Some("2026-07-28"),
            "{}",
            s.rpc_method()
        );
        assert_eq!(s.header("mcp-method"), Some(s.rpc_method()));
        assert_eq!(s.header("mcp-session-id"), None);
    }
    let names: Vec<Option<&str>> = seen.iter().map(|s| s.header("mcp-name")).collect();
    assert_eq!(names, [None, None, Some("echo"), Some("nope")]);
}

#[tokio::test]
async fn a_stream_that_breaks_off_without_an_event_id_fails_the_request() {
    let (url, _) = serve(|req: &Seen, _: &[Seen]| match req.rpc_method() {
        "server/discover" => json_response(&result(req, json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {}})), None),
        _ => sse("data:\n\n".into()),
    })
    .await;
    let d = Driver::http(HttpConfig::new(&url), config()).unwrap();
    let err = d.list_tools().await.expect_err("no answer on the stream");
    assert!(
        matches!(&err, DriverError::Transport { during, reason, .. } if during == "tools/list" && reason.contains("no event id to resume from")),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_unreachable_server_is_a_transport_error() {
    let port = support::peers::free_port();
    let d = Driver::http(
        HttpConfig::new(format!("http://127.0.0.1:{port}/mcp")),
        config(),
    )
    .unwrap();
    let err = d.connect().await.expect_err("nobody listens");
    assert!(
        err.to_string()
            .contains("could not connect to http://127.0.0.1"),
        "{err}"
    );
}

/// A 2026-07-28 server whose tools mirror arguments into headers (`x-mcp-header`).
fn param_script(req: &Seen, _: &[Seen]) -> Response {
    let complete = |mut v: Value| {
        v["resultType"] = json!("complete");
        json_response(&result(req, v), None)
    };
    match req.rpc_method() {
        "server/discover" => {
            complete(json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}))
        }
        "tools/list" => complete(json!({"tools": [
            {"name": "weather", "inputSchema": {"type": "object", "properties": {
                "city": {"type": "string", "x-mcp-header": "City"},
                "days": {"type": "integer", "x-mcp-header": "Days"},
                "units": {"type": "string", "x-mcp-header": "Units"},
                "note": {"type": "string"}
            }}},
            {"name": "broken", "inputSchema": {"type": "object", "properties": {
                "v": {"type": "string", "x-mcp-header": "Has Space"}
            }}}
        ]})),
        _ => complete(json!({"content": [{"type": "text", "text": "ok"}]})),
    }
}

#[tokio::test]
async fn x_mcp_header_arguments_become_headers_and_invalid_tools_are_dropped() {
    let (url, seen) = serve(param_script).await;
    let d = Driver::http(HttpConfig::new(&url), config()).unwrap();
    let list = d.list_tools().await.unwrap();
    let names: Vec<&str> = list.tools().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["weather"],
        "the tool with an invalid annotation is left out"
    );
    let args = obj(json!({"city": "Zürich", "days": 3, "units": null, "note": "x"}));
    success(d.call_tool("weather", args, false).await.unwrap());
    let err = d
        .call_tool("broken", None, false)
        .await
        .expect_err("dropped tools cannot be called");
    assert!(matches!(err, DriverError::Malformed { .. }), "{err:?}");

    let seen = seen.lock().unwrap().clone();
    let call = seen
        .iter()
        .find(|s| s.rpc_method() == "tools/call")
        .unwrap();
    assert_eq!(
        call.header("mcp-param-city"),
        Some("=?base64?WsO8cmljaA==?=")
    );
    assert_eq!(call.header("mcp-param-days"), Some("3"));
    assert_eq!(
        call.header("mcp-param-units"),
        None,
        "null arguments send no header"
    );
    assert_eq!(
        seen.iter()
            .filter(|s| s.rpc_method() == "tools/call")
            .count(),
        1
    );
}

#[tokio::test]
async fn a_spurious_version_rejection_is_retried_once_with_the_same_version() {
    // The first request is refused with UnsupportedProtocolVersion although the
    // version it carried is listed as supported (as the conformance suite does).
    let (url, seen) = serve(|req: &Seen, history: &[Seen]| {
        if history.is_empty() {
            let data = json!({"supported": ["2026-07-28"], "requested": "2026-07-28"});
            let err = json!({"jsonrpc": "2.0", "id": req.body["id"], "error": {"code": -32022, "message": "Unsupported protocol version", "data": data}});
            return (StatusCode::BAD_REQUEST, [("content-type", "application/json")], err.to_string()).into_response();
        }
        let discover = json!({"resultType": "complete", "supportedVersions": ["2026-07-28"], "capabilities": {}});
        json_response(&result(req, discover), None)
    })
    .await;
    let d = Driver::http(HttpConfig::new(&url), config()).unwrap();
    assert_eq!(d.connect().await.unwrap().generation, Generation::Stateless);
    let seen = seen.lock().unwrap().clone();
    let methods: Vec<&str> = seen.iter().map(Seen::rpc_method).collect();
    assert_eq!(methods, ["server/discover", "server/discover"]);
    assert!(
        seen.iter()
            .all(|s| s.header("mcp-protocol-version") == Some("2026-07-28"))
    );
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
