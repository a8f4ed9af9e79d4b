//! The Streamable HTTP transport against a scripted axum server, 2026-07-28 style:
//! the per-request headers, `x-mcp-header`, version rejections, broken streams.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use mcpg_core::Generation;
use mcpg_core::client::{CallOutcome, GenerationMode};
use mcpg_transport::{Driver, DriverError, HttpConfig};
use serde_json::{Value, json};
use support::fake::{Seen, json_response, result, serve, sse, tools};
use support::{config, obj, success, text};

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

/// A 2026-07-28 server whose tool asks for confirmation first (MRTR) and mirrors
/// `region` into a header.
fn mrtr_script(req: &Seen, _: &[Seen]) -> Response {
    let complete = |mut v: Value| {
        v["resultType"] = json!("complete");
        json_response(&result(req, v), None)
    };
    let params = &req.body["params"];
    match req.rpc_method() {
        "server/discover" => {
            complete(json!({"supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}))
        }
        "tools/list" => complete(json!({"tools": [
            {"name": "deploy", "inputSchema": {"type": "object", "properties": {
                "region": {"type": "string", "x-mcp-header": "Region"}
            }}}
        ]})),
        "tools/call" if params.get("inputResponses").is_none() => json_response(
            &result(
                req,
                json!({"resultType": "input_required", "requestState": "st-1",
                    "inputRequests": {"confirm": {"method": "elicitation/create",
                        "params": {"message": "Deploy?", "requestedSchema": {"type": "object", "properties": {}}}}}}),
            ),
            None,
        ),
        _ => {
            let action = params["inputResponses"]["confirm"]["action"].clone();
            complete(json!({"content": [{"type": "text", "text": action}]}))
        }
    }
}

#[tokio::test]
async fn input_required_is_continued_through_the_core() {
    let (url, seen) = serve(mrtr_script).await;
    let mut cfg = config();
    cfg.client
        .capabilities
        .insert("elicitation".into(), json!({}));
    let d = Driver::http(HttpConfig::new(&url), cfg).unwrap();
    d.list_tools().await.unwrap();
    let first = d
        .call_tool("deploy", obj(json!({"region": "eu-west1"})), false)
        .await
        .unwrap();
    let CallOutcome::InputRequired(asked) = &first.outcome else {
        panic!("{:?}", first.outcome)
    };
    assert!(asked["inputRequests"]["confirm"].is_object());
    let answers = obj(json!({"confirm": {"action": "accept", "content": {}}})).unwrap();
    let last = d.continue_call(first.op, answers.clone()).await.unwrap();
    assert_eq!(last.op, first.op);
    assert_eq!(text(&success(last)), "accept");
    let err = d
        .continue_call(first.op, answers)
        .await
        .expect_err("the call is over");
    assert!(matches!(err, DriverError::Usage(_)), "{err:?}");

    let seen = seen.lock().unwrap().clone();
    let calls: Vec<&Seen> = seen
        .iter()
        .filter(|s| s.rpc_method() == "tools/call")
        .collect();
    assert_eq!(calls.len(), 2);
    assert_ne!(calls[0].body["id"], calls[1].body["id"]);
    assert_eq!(calls[1].body["params"]["requestState"], "st-1");
    assert_eq!(
        calls[1].body["params"]["arguments"],
        json!({"region": "eu-west1"})
    );
    for c in calls {
        assert_eq!(c.header("mcp-param-region"), Some("eu-west1"));
        assert_eq!(c.header("mcp-name"), Some("deploy"));
    }
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
