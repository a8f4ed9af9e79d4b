//! `GET /ws?server=NAME&channel=ID`: one WebSocket, one fresh server process.
//!
//! Framing is the TypeScript SDK's WebSocket client transport (subprotocol `mcp`,
//! one JSON-RPC message per text frame), so other MCP clients can use the bridge too.

mod close;
mod relay;

use axum::extract::ws::{WebSocketUpgrade, rejection::WebSocketUpgradeRejection};
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::config::valid_name;
use crate::events::SideEvent;
use crate::reply::error;
use crate::state::AppState;

/// The query of `/ws` (the token is checked before this runs).
#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    server: Option<String>,
    channel: Option<String>,
}

/// Checks the request, takes a child slot, and upgrades.
pub(crate) async fn upgrade(
    State(st): State<AppState>,
    Query(q): Query<WsQuery>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let Some(name) = q.server else {
        return error(StatusCode::BAD_REQUEST, "missing ?server=NAME");
    };
    let Some(spec) = st.config().server(&name).cloned() else {
        return error(
            StatusCode::NOT_FOUND,
            format!("no server named {name:?} in the bridge's config (see /api/servers)"),
        );
    };
    let channel = match q.channel {
        None => None,
        Some(id) if valid_name(&id) => match st.channels().get(&id) {
            Some(c) => Some(c),
            None => {
                return error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too many side channels in use",
                );
            }
        },
        Some(_) => {
            return error(
                StatusCode::BAD_REQUEST,
                "channel must be 1-64 characters of A-Z a-z 0-9 . _ -",
            );
        }
    };
    let Some(slot) = st.try_child_slot() else {
        let message = format!(
            "cannot start {name:?}: the limit of {} running servers is reached; close a connection first",
            st.config().limits.max_children
        );
        if let Some(c) = &channel {
            c.push(SideEvent::Error {
                message: message.clone(),
            });
        }
        return error(StatusCode::SERVICE_UNAVAILABLE, message);
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(rejection) => return rejection.into_response(),
    };
    let max = st.config().limits.max_message_bytes;
    // tungstenite's own cap is a backstop set above ours: a message between the two
    // is read whole and refused with a clean close frame naming the limit, which an
    // abrupt protocol error could not deliver.
    let backstop = max.saturating_mul(2);
    ws.protocols(["mcp"])
        .max_message_size(backstop)
        .max_frame_size(backstop)
        .on_upgrade(move |socket| relay::run(socket, st, spec, channel, slot))
}
