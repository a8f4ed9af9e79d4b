//! `GET /api/events?channel=ID`: a channel as Server-Sent Events. Works with the
//! browser's `EventSource` (token in the query) and resumes after a reconnect from
//! `Last-Event-ID`, so nothing is seen twice.

use std::convert::Infallible;

use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use futures_util::stream;
use serde::Deserialize;

use crate::config::valid_name;
use crate::reply::error;
use crate::state::AppState;

/// The query of `/api/events`.
#[derive(Debug, Deserialize)]
pub(crate) struct EventsQuery {
    channel: Option<String>,
}

/// Streams one channel's events.
pub(crate) async fn handler(
    State(st): State<AppState>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Response {
    let Some(id) = q.channel.filter(|c| valid_name(c)) else {
        return error(
            StatusCode::BAD_REQUEST,
            "?channel=ID is required: 1-64 characters of A-Z a-z 0-9 . _ -",
        );
    };
    let Some(channel) = st.channels().get(&id) else {
        return error(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many side channels in use",
        );
    };
    let from = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map_or(0, |last| last.saturating_add(1));
    let batches = stream::unfold(channel.reader(from), |mut reader| async move {
        let batch = reader.next_batch().await;
        Some((batch, reader))
    });
    let events = batches
        .flat_map(|batch| {
            stream::iter(batch.into_iter().map(|(seq, ev)| {
                let data = serde_json::to_string(&ev).unwrap_or_default();
                Ok::<_, Infallible>(Event::default().id(seq.to_string()).data(data))
            }))
        })
        // End with the bridge, so a graceful shutdown does not wait on open pages.
        .take_until(st.shutdown_signal().clone().cancelled_owned());
    Sse::new(events)
        .keep_alive(KeepAlive::default())
        .into_response()
}
