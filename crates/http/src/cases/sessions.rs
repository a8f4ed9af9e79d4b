//! Cases about the session: its id, expiry, the closing DELETE, the GET stream.

use mcpg_core::client::SendFailure;
use serde_json::json;

use super::{
    Case, Reply, Seen, Step, closed, ensure, failure, frames, has_frame, keep, notification,
    request, result,
};
use crate::HttpEvent;

/// `initialize` answered at `version` with session `sid`; anything else by `rest`.
fn init(req: &Seen, version: &str, sid: &str) -> Reply {
    Reply::json(result(
        req,
        json!({"protocolVersion": version, "capabilities": {"tools": {"listChanged": true}}, "serverInfo": {"name": "cases", "version": "1"}}),
    ))
    .header("mcp-session-id", sid)
}

/// A session server: initialize, 202 for notifications, a GET stream that pushes
/// `list_changed`, 200 for DELETE.
fn session_server(req: &Seen, version: &str) -> Reply {
    match (req.method.as_str(), req.rpc_method().as_str()) {
        ("POST", "initialize") => init(req, version, "sess-1"),
        ("POST", m) if m.starts_with("notifications/") => Reply::status(202),
        ("GET", _) => Reply::sse(
            "id: g1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\n",
        )
        .hanging(),
        ("DELETE", _) => Reply::status(200),
        _ => Reply::json(result(req, json!({}))),
    }
}

fn handshake(version: &str) -> Vec<Step> {
    vec![
        Step::Send(request(
            0,
            "initialize",
            json!({"protocolVersion": version}),
            version,
        )),
        Step::Wait(|e| !frames(e).is_empty()),
        Step::Send(notification("notifications/initialized", version)),
    ]
}

fn listened(seen: &[Seen], version_header: Option<&str>) -> Result<(), String> {
    let get = seen.iter().find(|s| s.method == "GET");
    let Some(get) = get else {
        return Err("no GET stream was opened".into());
    };
    let pos = |m: &str| seen.iter().position(|s| s.rpc_method() == m);
    // The stream must be open when the server handles `initialized`, since what
    // it pushes then goes to the stream open at that moment.
    ensure(
        seen.iter().position(|s| s.method == "GET") < pos("notifications/initialized"),
        || "notifications/initialized went out before the GET stream".into(),
    )?;
    ensure(
        get.header("accept") == Some("text/event-stream")
            && get.header("mcp-session-id") == Some("sess-1")
            && get.header("mcp-protocol-version") == version_header,
        || format!("GET headers: {:?}", get.headers),
    )
}

pub(super) fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "session-and-delete",
            config: |c| c.listen = false,
            serve: |req, _| session_server(req, "2025-11-25"),
            steps: || {
                let mut s = handshake("2025-11-25");
                s.push(Step::Send(request(
                    1,
                    "tools/list",
                    json!({}),
                    "2025-11-25",
                )));
                s.push(Step::Wait(|e| frames(e).len() >= 2));
                s.push(Step::Close);
                s.push(Step::Wait(closed));
                s
            },
            check: |events, seen| {
                let list = seen.iter().find(|s| s.rpc_method() == "tools/list");
                ensure(
                    list.and_then(|s| s.header("mcp-session-id")) == Some("sess-1"),
                    || format!("{list:?}"),
                )?;
                ensure(seen[0].header("mcp-session-id").is_none(), || {
                    "initialize had a session".into()
                })?;
                let del = seen.iter().find(|s| s.method == "DELETE");
                ensure(
                    del.is_some_and(|d| {
                        d.header("mcp-session-id") == Some("sess-1")
                            && d.header("mcp-protocol-version") == Some("2025-11-25")
                    }),
                    || format!("DELETE: {del:?}"),
                )?;
                ensure(
                    events.contains(&HttpEvent::Closed(
                        "closed by the client; session ended".into(),
                    )),
                    || format!("{events:?}"),
                )
            },
        },
        Case {
            name: "session-expired",
            config: |c| c.listen = false,
            serve: |req, _| match (req.rpc_method().as_str(), req.header("mcp-session-id")) {
                ("tools/call", Some(_)) => Reply::status(404),
                _ => session_server(req, "2025-11-25"),
            },
            steps: || {
                let mut s = handshake("2025-11-25");
                s.push(Step::Send(request(
                    1,
                    "tools/call",
                    json!({"name": "x"}),
                    "2025-11-25",
                )));
                s.push(Step::Wait(|e| failure(e, 1).is_some()));
                s.push(Step::Send(request(
                    2,
                    "initialize",
                    json!({}),
                    "2025-11-25",
                )));
                s.push(Step::Wait(|e| frames(e).len() >= 2));
                s
            },
            check: |events, seen| {
                ensure(
                    failure(events, 1) == Some(&SendFailure::SessionExpired),
                    || format!("{events:?}"),
                )?;
                let again = seen
                    .iter()
                    .filter(|s| s.rpc_method() == "initialize")
                    .nth(1);
                ensure(
                    again.is_some_and(|s| s.header("mcp-session-id").is_none()),
                    || "the new initialize must carry no session".into(),
                )
            },
        },
        Case {
            name: "listen-2025-03-26",
            config: keep,
            serve: |req, _| session_server(req, "2025-03-26"),
            steps: || {
                let mut s = handshake("2025-03-26");
                s.push(Step::Wait(|e| has_frame(e, "list_changed")));
                s
            },
            check: |_, seen| listened(seen, None),
        },
        Case {
            name: "listen-2025-11-25",
            config: keep,
            serve: |req, _| session_server(req, "2025-11-25"),
            steps: || {
                let mut s = handshake("2025-11-25");
                s.push(Step::Wait(|e| has_frame(e, "list_changed")));
                s
            },
            check: |_, seen| listened(seen, Some("2025-11-25")),
        },
        Case {
            name: "no-listen-2026-07-28",
            config: keep,
            serve: |req, _| session_server(req, "2026-07-28"),
            steps: || {
                vec![
                    Step::Send(request(0, "server/discover", json!({}), "2026-07-28")),
                    Step::Wait(|e| !frames(e).is_empty()),
                    // Even a stray `initialized` must not open a GET under 2026-07-28.
                    Step::Send(notification("notifications/initialized", "2026-07-28")),
                    Step::Send(request(1, "tools/list", json!({}), "2026-07-28")),
                    Step::Wait(|e| frames(e).len() >= 2),
                ]
            },
            check: |_, seen| {
                ensure(!seen.iter().any(|s| s.method == "GET"), || {
                    "a GET was opened under 2026-07-28".into()
                })
            },
        },
    ]
}
