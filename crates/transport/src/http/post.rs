//! One client message over Streamable HTTP: the POST, its JSON or SSE answer, and
//! resuming an SSE stream that ended before the answer came.

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::RequestId;
use reqwest::header::{ACCEPT, CONTENT_TYPE};
use reqwest::{Response, StatusCode};

use super::session::{PROTOCOL_VERSION, Shared};
use super::stream;
use crate::link::TransportEvent;

/// The `Accept` header every POST carries: the server picks JSON or SSE.
const ACCEPT_BOTH: &str = "application/json, text/event-stream";

/// Sends a request and feeds its answer (and whatever precedes it on the stream) to
/// the driver; a failure is reported as [`TransportEvent::SendFailed`].
pub(crate) async fn request(shared: Shared, out: Outgoing, id: RequestId) {
    if let Err(failure) = exchange(&shared, &out, &id).await {
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
    match post(shared, out).await {
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

async fn post(shared: &Shared, out: &Outgoing) -> Result<Response, reqwest::Error> {
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
    // 2026-07-28 `Mcp-Param-*`: names come from the server's tool schemas.
    for (k, v) in &out.param_headers {
        rb = rb.header(k.as_str(), v.as_str());
    }
    rb = shared.decorate(rb, session.as_deref());
    rb.body(out.message.raw().to_owned()).send().await
}

async fn exchange(shared: &Shared, out: &Outgoing, id: &RequestId) -> Result<(), SendFailure> {
    let session = shared.session();
    let resp = post(shared, out)
        .await
        .map_err(|e| SendFailure::Network(describe(&e)))?;
    shared.capture_session(&resp);
    let resp = check_status(shared, resp, session.as_deref()).await?;
    if is_event_stream(&resp) {
        return stream::read_stream(shared, resp, out, id).await;
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
pub(crate) async fn check_status(
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

pub(crate) fn is_event_stream(resp: &Response) -> bool {
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
