//! Cases about one POST and its answer: JSON, SSE, 202, refusals, headers, limits.

use mcpg_core::client::SendFailure;
use serde_json::json;

use super::{
    Case, Reply, Seen, Step, ensure, failure, frames, has_frame, keep, notification, request,
    result,
};
use crate::HttpEvent;

const V: &str = "2025-11-25";

pub(super) fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "json-answer",
            config: keep,
            serve: |req, _| Reply::json(result(req, json!({"tools": []}))),
            steps: || {
                vec![
                    Step::Send(request(1, "tools/list", json!({}), V)),
                    Step::Wait(|e| !frames(e).is_empty()),
                ]
            },
            check: |events, seen| {
                ensure(has_frame(events, "\"tools\":[]"), || format!("{events:?}"))?;
                let post = &seen[0];
                ensure(post.method == "POST", || format!("{post:?}"))?;
                ensure(
                    post.header("accept") == Some("application/json, text/event-stream")
                        && post.header("content-type") == Some("application/json")
                        && post.header("mcp-protocol-version") == Some(V),
                    || format!("headers: {:?}", post.headers),
                )
            },
        },
        Case {
            name: "sse-answer",
            config: keep,
            serve: |req, _| {
                let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
                Reply::sse(format!(
                    "event: message\ndata: {progress}\n\ndata: {}\n\n",
                    result(req, json!({"content": []}))
                ))
                .hanging()
            },
            steps: || {
                vec![
                    Step::Send(request(1, "tools/call", json!({"name": "x"}), V)),
                    Step::Wait(|e| frames(e).len() >= 2),
                ]
            },
            check: |events, _| {
                let f = frames(events);
                ensure(
                    f.len() == 2 && f[0].contains("progress") && f[1].contains("content"),
                    || format!("{events:?}"),
                )
            },
        },
        Case {
            name: "notification-202",
            config: keep,
            serve: |req, _| match req.rpc_method().as_str() {
                "notifications/roots/list_changed" => Reply::status(202),
                _ => Reply::json(result(req, json!({}))),
            },
            steps: || {
                vec![
                    Step::Send(notification("notifications/roots/list_changed", V)),
                    Step::Send(request(2, "ping", json!({}), V)),
                    Step::Wait(|e| !frames(e).is_empty()),
                ]
            },
            check: |events, seen| {
                let order: Vec<String> = seen.iter().map(Seen::rpc_method).collect();
                ensure(
                    order == ["notifications/roots/list_changed", "ping"],
                    || format!("{order:?}"),
                )?;
                ensure(
                    !events.iter().any(|e| matches!(e, HttpEvent::Notice(_))),
                    || format!("a 202 is quiet: {events:?}"),
                )
            },
        },
        Case {
            name: "http-errors",
            config: keep,
            serve: |req, _| match req.json()["id"].as_i64() {
                Some(1) => Reply::status(400)
                    .header("content-type", "application/json")
                    .chunk(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad"}}"#),
                _ => Reply::status(503).chunk("overloaded"),
            },
            steps: || {
                vec![
                    Step::Send(request(1, "tools/call", json!({"name": "x"}), V)),
                    Step::Send(request(2, "tools/list", json!({}), V)),
                    Step::Wait(|e| failure(e, 1).is_some() && failure(e, 2).is_some()),
                ]
            },
            check: |events, _| {
                let ok1 = matches!(failure(events, 1), Some(SendFailure::Rejected { status: 400, body }) if body.contains("-32602"));
                let ok2 = matches!(failure(events, 2), Some(SendFailure::Rejected { status: 503, body }) if body == "overloaded");
                ensure(ok1 && ok2, || format!("{events:?}"))
            },
        },
        Case {
            name: "mcp-headers",
            config: |c| c.headers.push(("Authorization".into(), "Bearer t".into())),
            serve: |req, _| Reply::json(result(req, json!({"content": []}))),
            steps: || {
                let mut out = request(
                    1,
                    "tools/call",
                    json!({"name": "get_weather", "arguments": {"region": "eu"}}),
                    "2026-07-28",
                );
                out.headers.push(("Mcp-Method", "tools/call".into()));
                out.headers.push(("Mcp-Name", "get_weather".into()));
                out.param_headers
                    .push(("Mcp-Param-Region".into(), "eu".into()));
                vec![Step::Send(out), Step::Wait(|e| !frames(e).is_empty())]
            },
            check: |_, seen| {
                let post = &seen[0];
                let want = [
                    ("mcp-protocol-version", "2026-07-28"),
                    ("mcp-method", "tools/call"),
                    ("mcp-name", "get_weather"),
                    ("mcp-param-region", "eu"),
                    ("authorization", "Bearer t"),
                ];
                ensure(want.iter().all(|(k, v)| post.header(k) == Some(v)), || {
                    format!("headers: {:?}", post.headers)
                })
            },
        },
        Case {
            name: "oversized-json",
            config: |c| c.max_body = 1024,
            serve: |req, _| {
                Reply::json(result(
                    req,
                    json!({"content": [{"type": "text", "text": "x".repeat(4000)}]}),
                ))
            },
            steps: || {
                vec![
                    Step::Send(request(7, "tools/call", json!({"name": "big"}), V)),
                    Step::Wait(|e| failure(e, 7).is_some()),
                ]
            },
            check: |events, _| {
                let over = events.iter().any(|e| matches!(e, HttpEvent::Oversized { request, limit: 1024, size, head } if request.to_string() == "7" && super::names(head, 7) && *size > 1024));
                ensure(over && frames(events).is_empty(), || format!("{events:?}"))
            },
        },
        Case {
            name: "not-utf8",
            config: keep,
            serve: |req, _| {
                let mut body =
                    result(req, json!({"content": [{"type": "text", "text": "AB"}]})).into_bytes();
                let at = body.windows(2).position(|w| w == b"AB").unwrap_or(0);
                body[at] = 0xff;
                Reply::json(body)
            },
            steps: || {
                vec![
                    Step::Send(request(1, "tools/call", json!({"name": "x"}), V)),
                    Step::Wait(|e| e.iter().any(|e| matches!(e, HttpEvent::NotUtf8(_)))),
                ]
            },
            check: |events, _| {
                let kept = events
                    .iter()
                    .any(|e| matches!(e, HttpEvent::NotUtf8(b) if b.contains(&0xff)));
                ensure(kept, || format!("{events:?}"))
            },
        },
    ]
}
