//! The Streamable HTTP transport (client side): every message is a POST to one
//! endpoint; answers come back as a JSON body or an SSE stream; a session id the
//! server hands out is echoed; closing ends the session with DELETE.
//!
//! Requests run concurrently, one task each, so a long tool call does not hold up a
//! listing. Notifications and responses are sent in order and awaited (they get a
//! quick 202), which keeps `notifications/initialized` ahead of the next request.

mod listen;
mod post;
mod session;
pub mod sse;
mod stream;

use std::collections::HashMap;
use std::time::Duration;

use mcpg_core::client::Outgoing;
use mcpg_core::jsonrpc::{Body, RequestId};
use reqwest::StatusCode;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use crate::error::TransportError;
use crate::link::{CloseReport, Link, LinkCommand, TransportEvent};
use session::{PROTOCOL_VERSION, Shared};

/// How to reach a server over Streamable HTTP.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// The MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`.
    pub url: String,
    /// Extra headers for every request (e.g. `Authorization`).
    pub headers: Vec<(String, String)>,
    /// Largest body or SSE event accepted.
    pub max_body: usize,
    /// How many times a broken SSE stream is resumed before the request fails.
    pub max_resumes: u32,
    /// Resume delay when the server gave no `retry`.
    pub default_retry: Duration,
    /// Upper bound on the resume delay, whatever the server asks.
    pub max_retry: Duration,
    /// How long establishing a TCP (and TLS) connection may take.
    pub connect_timeout: Duration,
    /// How long a notification's or response's POST may take.
    pub one_way_timeout: Duration,
    /// Open the standalone GET stream once a session is initialized (2025-03-26 …
    /// 2025-11-25), for server messages that belong to no request.
    pub standalone_stream: bool,
}

impl HttpConfig {
    /// Defaults for `url`.
    pub fn new(url: impl Into<String>) -> Self {
        HttpConfig {
            url: url.into(),
            headers: Vec::new(),
            max_body: 32 << 20,
            max_resumes: 5,
            default_retry: Duration::from_secs(1),
            max_retry: Duration::from_secs(10),
            connect_timeout: Duration::from_secs(10),
            one_way_timeout: Duration::from_secs(30),
            standalone_stream: true,
        }
    }
}

/// Starts the transport (no request is made until the first message). Must run
/// inside a tokio runtime.
pub fn connect(cfg: HttpConfig) -> Result<Link, TransportError> {
    let invalid = |why: &str| TransportError::InvalidUrl {
        url: cfg.url.clone(),
        why: why.to_owned(),
    };
    let url = reqwest::Url::parse(&cfg.url).map_err(|e| invalid(&e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid("only http and https URLs are supported"));
    }
    let http = reqwest::Client::builder()
        .connect_timeout(cfg.connect_timeout)
        .build()
        .map_err(|e| TransportError::HttpClient(post::describe(&e)))?;
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let (ev_tx, ev_rx) = mpsc::channel(64);
    let shared = Shared::new(http, cfg, ev_tx);
    tokio::spawn(dispatch(shared, cmd_rx));
    Ok(Link::new("http", None, cmd_tx, ev_rx, None))
}

/// Routes the driver's messages until it asks to close, then ends the session.
async fn dispatch(shared: Shared, mut commands: mpsc::UnboundedReceiver<LinkCommand>) {
    let mut inflight: HashMap<RequestId, JoinHandle<()>> = HashMap::new();
    let mut listener: Option<JoinHandle<()>> = None;
    while let Some(LinkCommand::Send(out)) = commands.recv().await {
        let out = *out;
        inflight.retain(|_, t| !t.is_finished());
        match out.message.body().clone() {
            Body::Request { id, .. } => {
                let task = tokio::spawn(post::request(shared.clone(), out, id.clone()));
                if let Some(old) = inflight.insert(id, task) {
                    old.abort();
                }
            }
            Body::Notification { method, params } if method == "notifications/cancelled" => {
                // The client gave up on the request: stop reading its stream.
                let target = params
                    .as_ref()
                    .and_then(|p| p.get("requestId"))
                    .and_then(RequestId::from_value);
                if let Some(task) = target.and_then(|id| inflight.remove(&id)) {
                    task.abort();
                }
                // In 2026-07-28, closing the stream *is* the cancellation; the
                // notification exists only on stdio.
                if !is_stateless(&out) {
                    send_one_way(&shared, &out).await;
                }
            }
            Body::Notification { method, .. } if method == "notifications/initialized" => {
                send_one_way(&shared, &out).await;
                // The session is complete: listen for what the server sends on its own.
                let version = out
                    .headers
                    .iter()
                    .find(|(k, _)| k.eq_ignore_ascii_case(PROTOCOL_VERSION))
                    .map(|(_, v)| v.clone());
                if shared.cfg.standalone_stream
                    && let Some(v) = version
                {
                    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
                    if let Some(old) = listener.replace(tokio::spawn(listen::standalone(
                        shared.clone(),
                        v,
                        ready_tx,
                    ))) {
                        old.abort();
                    }
                    // Requests sent before the stream is open could trigger server
                    // messages with nowhere to go; wait for it (briefly).
                    let _ = tokio::time::timeout(shared.cfg.connect_timeout, ready_rx).await;
                }
            }
            _ => send_one_way(&shared, &out).await,
        }
    }
    if let Some(task) = listener.take() {
        task.abort();
    }
    for (_, task) in inflight.drain() {
        task.abort();
    }
    let reason = end_session(&shared).await;
    let _ = shared
        .events
        .send(TransportEvent::Closed(CloseReport {
            reason,
            requested: true,
            exit: None,
        }))
        .await;
}

async fn send_one_way(shared: &Shared, out: &Outgoing) {
    if tokio::time::timeout(shared.cfg.one_way_timeout, post::one_way(shared, out))
        .await
        .is_err()
    {
        let what = out.message.method().unwrap_or("response");
        shared.notice(format!(
            "gave up sending our {what} after {}s",
            shared.cfg.one_way_timeout.as_secs()
        ));
    }
}

fn is_stateless(out: &Outgoing) -> bool {
    out.headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case(PROTOCOL_VERSION) && v.as_str() >= "2026-07-28")
}

/// DELETE the session, if there is one. 405 means the server does not let clients
/// end sessions, which the spec allows.
async fn end_session(shared: &Shared) -> String {
    let Some(session) = shared.session() else {
        return "closed by the client".into();
    };
    let mut rb = shared.http.delete(shared.cfg.url.as_str());
    if let Some(v) = shared.version() {
        rb = rb.header(PROTOCOL_VERSION, v);
    }
    rb = shared.decorate(rb, Some(&session));
    match tokio::time::timeout(shared.cfg.one_way_timeout, rb.send()).await {
        Ok(Ok(resp))
            if resp.status().is_success() || resp.status() == StatusCode::METHOD_NOT_ALLOWED =>
        {
            "closed by the client; session ended".into()
        }
        Ok(Ok(resp)) => format!(
            "closed by the client; DELETE of the session answered HTTP {}",
            resp.status().as_u16()
        ),
        Ok(Err(e)) => format!(
            "closed by the client; DELETE of the session failed: {}",
            post::describe(&e)
        ),
        Err(_) => "closed by the client; DELETE of the session timed out".into(),
    }
}
