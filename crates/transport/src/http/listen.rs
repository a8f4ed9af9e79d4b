//! The standalone GET stream (2025-03-26 … 2025-11-25): once a session exists, the
//! server may push requests and notifications that belong to no client request
//! (an `elicitation/create`, `notifications/tools/list_changed`) on a long-lived
//! `GET` SSE stream. 2026-07-28 removed it in favour of `subscriptions/listen`.

use std::time::Duration;

use reqwest::StatusCode;
use reqwest::header::ACCEPT;
use tokio::sync::oneshot;

use super::post::describe;
use super::session::{PROTOCOL_VERSION, Shared};
use super::sse::SseParser;
use crate::link::TransportEvent;

/// Consecutive failed connection attempts after which the stream is given up.
const MAX_FAILURES: u32 = 3;

/// Keeps the GET stream open (reconnecting with `Last-Event-ID` when it ends) until
/// the task is aborted, the server says it offers none, or it keeps failing.
/// `ready` fires once the first attempt is settled (open, refused or failed), so the
/// caller can hold back requests whose server-side work may push messages here.
pub(crate) async fn standalone(shared: Shared, version: String, ready: oneshot::Sender<()>) {
    let mut ready = Some(ready);
    let mut parser = SseParser::new(shared.cfg.max_body);
    let mut failures = 0u32;
    loop {
        let session = shared.session();
        let mut rb = shared
            .http
            .get(shared.cfg.url.as_str())
            .header(ACCEPT, "text/event-stream")
            .header(PROTOCOL_VERSION, version.as_str());
        if let Some(last) = parser.last_event_id() {
            rb = rb.header("last-event-id", last);
        }
        rb = shared.decorate(rb, session.as_deref());
        let mut resp = match rb.send().await {
            Ok(r) => r,
            Err(e) => {
                if let Some(r) = ready.take() {
                    let _ = r.send(());
                }
                failures += 1;
                if failures >= MAX_FAILURES {
                    shared.notice(format!(
                        "gave up on the standalone SSE stream: {}",
                        describe(&e)
                    ));
                    return;
                }
                tokio::time::sleep(shared.retry_delay(parser.retry())).await;
                continue;
            }
        };
        shared.capture_session(&resp);
        if let Some(r) = ready.take() {
            let _ = r.send(());
        }
        let status = resp.status();
        if status == StatusCode::METHOD_NOT_ALLOWED {
            // Allowed by the spec: the server only answers on POST streams.
            return;
        }
        let is_sse = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|ct| ct.to_ascii_lowercase().starts_with("text/event-stream"));
        if !status.is_success() || !is_sse {
            shared.notice(format!(
                "the server refused the standalone SSE stream (HTTP {})",
                status.as_u16()
            ));
            return;
        }
        parser.reconnected();
        shared.notice("listening on the standalone SSE stream (GET)".into());
        let mut got_events = false;
        while let Ok(Some(chunk)) = resp.chunk().await {
            let Ok(events) = parser.feed(&chunk) else {
                shared
                    .notice("the standalone SSE stream sent an oversized event; closing it".into());
                return;
            };
            for ev in events {
                got_events = true;
                if !ev.data.trim().is_empty()
                    && shared
                        .events
                        .send(TransportEvent::Frame(ev.data))
                        .await
                        .is_err()
                {
                    return;
                }
            }
        }
        // A stream that ends after delivering something is normal (servers may close
        // it at will); one that ends empty-handed counts against the bound.
        failures = if got_events { 0 } else { failures + 1 };
        if failures >= MAX_FAILURES {
            return;
        }
        let delay = shared
            .retry_delay(parser.retry())
            .max(Duration::from_millis(50));
        tokio::time::sleep(delay).await;
    }
}
