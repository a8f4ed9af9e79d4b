//! An SSE answer to one POST: feeding its events to the driver, and resuming it with
//! `Last-Event-ID` when it ends before the response (servers may close a stream at
//! will once they sent a `retry`).

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Body, RequestId, decode_frame};
use reqwest::header::ACCEPT;
use reqwest::{Response, StatusCode};

use super::post::{check_status, describe, is_event_stream};
use super::session::{PROTOCOL_VERSION, Shared};
use super::sse::SseParser;
use crate::link::TransportEvent;

/// Reads the SSE answer to request `id`, resuming with `Last-Event-ID` when the
/// stream ends first (the server may close it at will after a `retry`).
pub(crate) async fn read_stream(
    shared: &Shared,
    mut resp: Response,
    out: &Outgoing,
    id: &RequestId,
) -> Result<(), SendFailure> {
    let mut parser = SseParser::new(shared.cfg.max_body);
    let mut resumes = 0u32;
    loop {
        let ended = pump(shared, &mut resp, &mut parser, id).await?;
        if ended.answered {
            return Ok(());
        }
        let Some(last) = parser.last_event_id().map(str::to_owned) else {
            let why = ended.error.unwrap_or_else(|| "it ended".into());
            return Err(SendFailure::Network(format!(
                "the server's SSE stream broke off before the response ({why}) and gave no event id to resume from"
            )));
        };
        // Keep trying while the server is reachable; stop after a bound, and soon
        // when it no longer takes connections at all (it most likely died).
        let mut unreachable = 0u32;
        loop {
            resumes += 1;
            if resumes > shared.cfg.max_resumes {
                return Err(SendFailure::Network(format!(
                    "the SSE stream ended before the response and {} attempts to resume it failed",
                    shared.cfg.max_resumes
                )));
            }
            let delay = shared.retry_delay(parser.retry());
            shared.notice(format!(
                "the SSE stream for request {id} ended before its response; resuming after {} ms with Last-Event-ID {last}",
                delay.as_millis()
            ));
            tokio::time::sleep(delay).await;
            match resume(shared, out, &last).await {
                Ok(r) => {
                    resp = r;
                    parser.reconnected();
                    break;
                }
                Err(Resume::Fatal(f)) => return Err(f),
                Err(Resume::Unreachable(why)) if unreachable >= 1 => {
                    return Err(SendFailure::Network(format!(
                        "the SSE stream broke off before the response and the server is unreachable: {why}"
                    )));
                }
                Err(Resume::Unreachable(why)) => {
                    unreachable += 1;
                    shared.notice(format!("resuming the SSE stream failed: {why}"));
                }
                Err(Resume::Again(why)) => {
                    shared.notice(format!("resuming the SSE stream failed: {why}"));
                }
            }
        }
    }
}

struct Ended {
    answered: bool,
    error: Option<String>,
}

/// Feeds every event of one stream connection to the driver until it ends.
async fn pump(
    shared: &Shared,
    resp: &mut Response,
    parser: &mut SseParser,
    id: &RequestId,
) -> Result<Ended, SendFailure> {
    let mut answered = false;
    loop {
        let chunk = match resp.chunk().await {
            Ok(Some(c)) => c,
            Ok(None) => {
                return Ok(Ended {
                    answered,
                    error: None,
                });
            }
            Err(e) => {
                return Ok(Ended {
                    answered,
                    error: Some(describe(&e)),
                });
            }
        };
        let events = parser
            .feed(&chunk)
            .map_err(|e| SendFailure::Network(e.to_string()))?;
        for ev in events {
            // Priming events (an id and empty data) only set the resume point.
            if ev.data.trim().is_empty() {
                continue;
            }
            answered |= answers(&ev.data, id);
            if shared
                .events
                .send(TransportEvent::Frame(ev.data))
                .await
                .is_err()
            {
                return Ok(Ended {
                    answered: true,
                    error: None,
                });
            }
        }
        if answered {
            // The exchange is complete; servers may keep the stream open, we don't.
            return Ok(Ended {
                answered,
                error: None,
            });
        }
    }
}

/// Whether `data` holds the response (or error) to request `id`.
fn answers(data: &str, id: &RequestId) -> bool {
    decode_frame(data)
        .items
        .iter()
        .flatten()
        .any(|m| match m.body() {
            Body::Response { id: rid, .. } => rid == id,
            Body::Error { id: Some(rid), .. } => rid == id,
            _ => false,
        })
}

enum Resume {
    /// Worth another try after the delay.
    Again(String),
    /// The server took no connection; worth one more try at most.
    Unreachable(String),
    /// No point trying again.
    Fatal(SendFailure),
}

/// `GET` with `Last-Event-ID` to pick the stream up where it broke.
async fn resume(shared: &Shared, out: &Outgoing, last: &str) -> Result<Response, Resume> {
    let session = shared.session();
    let mut rb = shared
        .http
        .get(shared.cfg.url.as_str())
        .header(ACCEPT, "text/event-stream")
        .header("last-event-id", last);
    for (k, v) in &out.headers {
        if k.eq_ignore_ascii_case(PROTOCOL_VERSION) {
            rb = rb.header(*k, v.as_str());
        }
    }
    rb = shared.decorate(rb, session.as_deref());
    let resp = rb.send().await.map_err(|e| {
        if e.is_connect() {
            Resume::Unreachable(describe(&e))
        } else {
            Resume::Again(describe(&e))
        }
    })?;
    shared.capture_session(&resp);
    if resp.status() == StatusCode::METHOD_NOT_ALLOWED {
        let f = SendFailure::Network("the SSE stream ended before the response and the server does not allow resuming it (GET answered 405)".into());
        return Err(Resume::Fatal(f));
    }
    let resp = check_status(shared, resp, session.as_deref())
        .await
        .map_err(Resume::Fatal)?;
    if !is_event_stream(&resp) {
        return Err(Resume::Again(
            "the server did not answer the GET with an event stream".into(),
        ));
    }
    Ok(resp)
}
