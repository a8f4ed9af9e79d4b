//! One client message over Streamable HTTP: the POST, its JSON or SSE answer, and
//! resuming an SSE stream that ended before the answer came.

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Body, RequestId, decode_frame};
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::{Response, StatusCode};

use super::session::{PROTOCOL_VERSION, Shared};
use super::sse::SseParser;
use crate::link::TransportEvent;

/// The `Accept` header every POST carries: the server picks JSON or SSE.
const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// Sends a request and feeds its answer (and whatever precedes it on the stream) to
/// the driver; a failure is reported as [`TransportEvent::SendFailed`].
pub(crate) async fn request(
    shared: Shared,
    out: Outgoing,
    extra: Vec<(String, String)>,
    id: RequestId,
) {
    if let Err(failure) = exchange(&shared, &out, &extra, &id).await {
        let _ = shared
            .events
            .send(TransportEvent::SendFailed { id, failure })
            .await;
    }
}

/// Sends a notification or a response. The server should answer 202; there is no
/// request to blame a failure on, so it becomes a notice.
pub(crate) async fn one_way(shared: &Shared, out: &Outgoing) {
    let what = out.message.method().unwrap_or("response").to_owned();
    match post(shared, out, &[]).await {
        Ok(resp) => {
            let status = resp.status();
            if !status.is_success() {
                let body = read_body(resp, shared.cfg.max_body)
                    .await
                    .unwrap_or_default();
                shared.notice(format!(
                    "the server refused our {what} with HTTP {}: {}",
                    status.as_u16(),
                    first_line(&body)
                ));
            } else if status != StatusCode::ACCEPTED {
                // Some servers answer 200 with an (empty) body; anything in it is still a message.
                if let Ok(body) = read_body(resp, shared.cfg.max_body).await
                    && !body.trim().is_empty()
                {
                    let _ = shared.events.send(TransportEvent::Frame(body)).await;
                }
            }
        }
        Err(e) => shared.notice(format!("could not send our {what}: {e}")),
    }
}

async fn post(
    shared: &Shared,
    out: &Outgoing,
    extra: &[(String, String)],
) -> Result<Response, reqwest::Error> {
    let session = shared.session();
    let mut rb = shared
        .http
        .post(shared.cfg.url.as_str())
        .header(ACCEPT, ACCEPT_BOTH)
        .header(CONTENT_TYPE, "application/json");
    for (k, v) in &out.headers {
        if k.eq_ignore_ascii_case(PROTOCOL_VERSION) {
            shared.note_version(v);
        }
        rb = rb.header(*k, v.as_str());
    }
    for (k, v) in extra {
        rb = rb.header(k.as_str(), v.as_str());
    }
    rb = shared.decorate(rb, session.as_deref());
    rb.body(out.message.raw().to_owned()).send().await
}

async fn exchange(
    shared: &Shared,
    out: &Outgoing,
    extra: &[(String, String)],
    id: &RequestId,
) -> Result<(), SendFailure> {
    let session = shared.session();
    let resp = post(shared, out, extra)
        .await
        .map_err(|e| SendFailure::Network(describe(&e)))?;
    shared.capture_session(&resp);
    let resp = check_status(shared, resp, session.as_deref()).await?;
    if is_event_stream(&resp) {
        return read_stream(shared, resp, out, id).await;
    }
    let body = read_body(resp, shared.cfg.max_body).await?;
    if body.trim().is_empty() {
        return Err(SendFailure::Network(
            "the server accepted the request but sent no response".into(),
        ));
    }
    let _ = shared.events.send(TransportEvent::Frame(body)).await;
    Ok(())
}

/// Turns a non-2xx answer into the failure the core expects.
async fn check_status(
    shared: &Shared,
    resp: Response,
    session: Option<&str>,
) -> Result<Response, SendFailure> {
    let status = resp.status();
    if status.is_success() {
        return Ok(resp);
    }
    if status == StatusCode::NOT_FOUND
        && let Some(s) = session
    {
        // 404 on a request that carried a session id: the session is gone.
        shared.drop_session(s);
        return Err(SendFailure::SessionExpired);
    }
    let body = read_body(resp, shared.cfg.max_body)
        .await
        .unwrap_or_default();
    Err(SendFailure::Rejected {
        status: status.as_u16(),
        body,
    })
}

/// Reads the SSE answer to request `id`, resuming with `Last-Event-ID` when the
/// stream ends first (the server may close it at will after a `retry`).
async fn read_stream(
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

fn is_event_stream(resp: &Response) -> bool {
    resp.headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| {
            ct.trim_start()
                .to_ascii_lowercase()
                .starts_with("text/event-stream")
        })
}

/// Reads a whole body as text, refusing more than `max` bytes.
pub(crate) async fn read_body(mut resp: Response, max: usize) -> Result<String, SendFailure> {
    let mut buf = Vec::new();
    loop {
        match resp.chunk().await {
            Ok(Some(c)) => {
                if buf.len() + c.len() > max {
                    return Err(SendFailure::Network(format!(
                        "the response body is larger than {max} bytes"
                    )));
                }
                buf.extend_from_slice(&c);
            }
            Ok(None) => break,
            Err(e) => {
                return Err(SendFailure::Network(format!(
                    "reading the response failed: {}",
                    describe(&e)
                )));
            }
        }
    }
    Ok(String::from_utf8_lossy(&buf).into_owned())
}

/// reqwest's own text names the layers ("error sending request for url (…): client
/// error (SendRequest): …"); a person needs what failed and the root cause.
pub(crate) fn describe(e: &reqwest::Error) -> String {
    let mut root: &dyn std::error::Error = e;
    while let Some(next) = root.source() {
        root = next;
    }
    let url = e
        .url()
        .map_or_else(|| "the server".to_owned(), ToString::to_string);
    if e.is_connect() {
        format!("could not connect to {url}: {root}")
    } else if e.is_timeout() {
        format!("timed out talking to {url}")
    } else {
        format!("the HTTP exchange with {url} failed: {root}")
    }
}

fn first_line(s: &str) -> &str {
    let line = s.lines().next().unwrap_or("");
    match line.char_indices().nth(200) {
        Some((i, _)) => &line[..i],
        None => line,
    }
}
