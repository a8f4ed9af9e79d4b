//! Cases about SSE answers: priming, line ends, size limits, resumption, cancel.

use serde_json::json;

use mcpg_core::jsonrpc::Message;

use super::{Case, Reply, Seen, Step, ensure, failure, frames, keep, request, result};
use crate::HttpEvent;

const V: &str = "2025-11-25";

pub(super) fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "priming-event",
            config: keep,
            serve: |req, _| {
                Reply::sse(format!(
                    "id: p0\ndata:\n\nid: p1\ndata: {}\n\n",
                    result(req, json!({}))
                ))
            },
            steps: || {
                vec![
                    Step::Send(request(1, "ping", json!({}), V)),
                    Step::Wait(|e| !frames(e).is_empty()),
                ]
            },
            check: |events, _| ensure(frames(events).len() == 1, || format!("{events:?}")),
        },
        Case {
            name: "line-ends",
            config: keep,
            serve: |req, _| {
                let r = result(req, json!({"n": req.json()["id"]}));
                let body = match req.json()["id"].as_i64() {
                    Some(1) => format!("data: {r}\n\n"),
                    Some(2) => format!("data: {r}\r\r"),
                    _ => format!("data: {r}\r\n\r\n"),
                };
                // Split inside the line end, where a careless parser goes wrong.
                let cut = body.len() - 1;
                Reply::sse(body.as_bytes()[..cut].to_vec()).chunk(body.as_bytes()[cut..].to_vec())
            },
            steps: || {
                vec![
                    Step::Send(request(1, "ping", json!({}), V)),
                    Step::Send(request(2, "ping", json!({}), V)),
                    Step::Send(request(3, "ping", json!({}), V)),
                    Step::Wait(|e| frames(e).len() >= 3),
                ]
            },
            check: |events, _| {
                let f = frames(events);
                ensure(
                    (1..=3).all(|n| f.iter().any(|x| x.contains(&format!("\"n\":{n}")))),
                    || format!("{events:?}"),
                )
            },
        },
        Case {
            name: "oversized-event",
            config: |c| c.max_event = 1024,
            serve: |req, _| {
                Reply::sse(format!(
                    "data: {}\n\n",
                    result(req, json!({"text": "y".repeat(3000)}))
                ))
            },
            steps: || {
                vec![
                    Step::Send(request(5, "tools/call", json!({"name": "big"}), V)),
                    Step::Wait(|e| failure(e, 5).is_some()),
                ]
            },
            check: |events, _| {
                let over = events.iter().any(|e| matches!(e, HttpEvent::Oversized { request, limit: 1024, head, .. } if request.to_string() == "5" && super::names(head, 5)));
                ensure(failure(events, 5).is_some(), || format!("{events:?}"))?;
                ensure(over, || format!("{events:?}"))
            },
        },
        Case {
            name: "cut-and-resumed",
            config: keep,
            serve: |req, history| match req.method.as_str() {
                "POST" => Reply::sse("id: e1\nretry: 10\ndata:\n\n"),
                _ => {
                    let post = history
                        .iter()
                        .find(|s| s.method == "POST")
                        .cloned()
                        .unwrap_or_default();
                    Reply::sse(format!(
                        "id: e2\ndata: {}\n\n",
                        result(&post, json!({"resumed": true}))
                    ))
                }
            },
            steps: || {
                vec![
                    Step::Send(request(1, "tools/list", json!({}), V)),
                    Step::Wait(|e| !frames(e).is_empty()),
                ]
            },
            check: |events, seen| {
                ensure(frames(events).iter().any(|f| f.contains("resumed")), || {
                    format!("{events:?}")
                })?;
                let get = seen.iter().find(|s| s.method == "GET");
                ensure(
                    get.is_some_and(|g| {
                        g.header("last-event-id") == Some("e1")
                            && g.header("accept") == Some("text/event-stream")
                            && g.header("mcp-protocol-version") == Some(V)
                    }),
                    || format!("resume: {get:?}"),
                )
            },
        },
        Case {
            name: "cancel-aborts",
            config: keep,
            serve: cancel_server,
            steps: || cancel_steps(V),
            check: |events, seen| cancel_check(events, seen, true),
        },
        Case {
            name: "cancel-aborts-2026-07-28",
            config: keep,
            serve: cancel_server,
            steps: || cancel_steps("2026-07-28"),
            check: |events, seen| cancel_check(events, seen, false),
        },
    ]
}

fn cancel_server(req: &Seen, _: &[Seen]) -> Reply {
    match req.rpc_method().as_str() {
        "tools/call" => Reply::sse(
            "id: c0\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n",
        )
        .hanging(),
        _ => Reply::status(202),
    }
}

fn cancel_steps(version: &str) -> Vec<Step> {
    let mut cancelled = super::notification("notifications/cancelled", version);
    cancelled.message = Message::notification(
        "notifications/cancelled",
        Some(json!({"requestId": 1, "reason": "user"})),
    );
    vec![
        Step::Send(request(1, "tools/call", json!({"name": "slow"}), version)),
        Step::Wait(|e| !frames(e).is_empty()),
        Step::Send(cancelled),
    ]
}

/// The call's answer is aborted; the notification is posted except under 2026-07-28,
/// where closing the stream is the cancellation.
fn cancel_check(events: &[HttpEvent], seen: &[Seen], posted: bool) -> Result<(), String> {
    let call = seen.iter().find(|s| s.rpc_method() == "tools/call");
    ensure(call.is_some_and(|c| c.aborted), || {
        format!("the call's stream was not aborted: {call:?}")
    })?;
    let sent = seen
        .iter()
        .any(|s| s.rpc_method() == "notifications/cancelled");
    ensure(sent == posted, || {
        format!("notifications/cancelled posted: {sent}, wanted {posted}")
    })?;
    ensure(failure(events, 1).is_none(), || format!("{events:?}"))
}
