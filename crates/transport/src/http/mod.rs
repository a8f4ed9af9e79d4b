//! The Streamable HTTP transport (client side), and the old HTTP+SSE one
//! (2024-11-05) the machine also speaks, as a thin tokio + reqwest driver of
//! the sans-IO [`mcpg_http::HttpMachine`]: the machine decides every request,
//! header, status mapping, resumption and the GET stream; this module executes the
//! requests it asks for (concurrently, one task each), streams their bodies back in,
//! runs its timers and aborts what it no longer wants.

mod auth;
mod exec;
mod oauth;
pub mod redirect;

pub use auth::{AuthOptions, Authorizer, BoxFuture, FollowRedirect, OnTokens};
pub use oauth::execute as execute_auth_request;

use std::collections::HashMap;
use std::time::Duration;

use mcpg_core::Timestamp;
use mcpg_http::{HttpEvent, HttpMachine, ReqId};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::error::TransportError;
use crate::link::{CloseReport, Link, LinkCommand, TransportEvent};

pub use mcpg_http::sse;
pub use mcpg_http::{Transport as HttpTransport, TransportChoice};

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
    /// OAuth: when set, a request refused with 401 (or 403 `insufficient_scope`)
    /// runs the authorization flow and is re-sent with the token. `None` behaves as
    /// before (the refusal fails the request).
    pub auth: Option<AuthOptions>,
    /// Streamable HTTP (the default), the old HTTP+SSE transport, or `Auto`
    /// (Streamable HTTP first, HTTP+SSE when the `initialize` POST answers 400, 404
    /// or 405). The choice is reported once as [`TransportEvent::Chosen`].
    pub transport: HttpTransport,
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
            auth: None,
            transport: HttpTransport::StreamableHttp,
        }
    }

    /// The machine's share of the configuration.
    fn machine(&self) -> mcpg_http::HttpConfig {
        let mut m = mcpg_http::HttpConfig::new(self.url.clone());
        m.headers = self.headers.clone();
        m.max_body = self.max_body;
        m.max_event = self.max_body;
        m.max_resumes = self.max_resumes;
        m.default_retry = self.default_retry;
        m.max_retry = self.max_retry;
        m.one_way_timeout = self.one_way_timeout;
        m.listen = self.standalone_stream;
        m.hold_unauthorized = self.auth.is_some();
        m.transport = self.transport;
        m
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
        // The configured headers (`--header`, `--bearer-env`) go to this origin only.
        .redirect(redirect::same_origin())
        .build()
        .map_err(|e| TransportError::HttpClient(exec::describe(&e)))?;
    let oauth = cfg.auth.clone().map(oauth::OAuth::new).transpose()?;
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel();
    let (ev_tx, ev_rx) = mpsc::channel(64);
    tokio::spawn(run(
        HttpMachine::new(cfg.machine()),
        oauth,
        http,
        cmd_rx,
        ev_tx,
    ));
    Ok(Link::new("http", None, cmd_tx, ev_rx, None))
}

/// Drives the machine until it reports the session closed.
async fn run(
    mut m: HttpMachine,
    mut oauth: Option<oauth::OAuth>,
    http: reqwest::Client,
    mut commands: mpsc::UnboundedReceiver<LinkCommand>,
    events: mpsc::Sender<TransportEvent>,
) {
    let start = Instant::now();
    let now =
        || Timestamp::from_millis(u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX));
    let (net_tx, mut net_rx) = mpsc::channel::<mcpg_http::NetEvent>(64);
    let mut tasks: HashMap<ReqId, JoinHandle<()>> = HashMap::new();
    let mut accepting = true;
    let mut reported_choice = false;
    if let Some(o) = oauth.as_mut() {
        o.start(&mut m, &events);
    }
    loop {
        while let Some(r) = m.poll_abort() {
            if let Some(t) = tasks.remove(&r) {
                t.abort();
            }
        }
        while let Some(mut req) = m.poll_request() {
            if let Some(o) = oauth.as_ref() {
                o.decorate(&mut req);
            }
            let id = req.id;
            tasks.insert(
                id,
                tokio::spawn(exec::execute(http.clone(), req, net_tx.clone())),
            );
        }
        while let Some(ev) = m.poll_event() {
            let ev = match ev {
                HttpEvent::Frame(text) => TransportEvent::Frame(text),
                HttpEvent::NotUtf8(bytes) => TransportEvent::NotUtf8(bytes),
                HttpEvent::Oversized {
                    request,
                    size,
                    limit,
                    head,
                } => TransportEvent::Oversized {
                    request: Some(request),
                    size,
                    limit,
                    head,
                },
                HttpEvent::SendFailed { id, failure } => TransportEvent::SendFailed { id, failure },
                HttpEvent::Notice(text) => TransportEvent::Notice(text),
                // Only with `auth` set: the flow runs while the machine holds.
                HttpEvent::Unauthorized {
                    status,
                    www_authenticate,
                } => {
                    match oauth.as_mut() {
                        Some(o) => {
                            if o.unauthorized(status, www_authenticate, &events) {
                                m.resume(now());
                            }
                        }
                        // The status travels typed (`SendFailure::Rejected`, then
                        // `Failure::Refused`); the words only say why.
                        None => m.give_up(now(), "authorization required".into()),
                    }
                    continue;
                }
                HttpEvent::Closed(reason) => {
                    for (_, t) in tasks.drain() {
                        t.abort();
                    }
                    if let Some(o) = oauth.as_mut() {
                        o.abort();
                    }
                    let report = CloseReport {
                        reason,
                        requested: true,
                        exit: None,
                    };
                    let _ = events.send(TransportEvent::Closed(report)).await;
                    return;
                }
            };
            // Notices are not worth stalling a stream for; messages are.
            if let TransportEvent::Notice(_) = ev {
                let _ = events.try_send(ev);
            } else if events.send(ev).await.is_err() && accepting {
                accepting = false;
                m.close(now());
            }
        }
        if !reported_choice && let Some(c) = m.transport_choice().filter(|c| c.settled()) {
            reported_choice = true;
            let _ = events.try_send(TransportEvent::Chosen(c.clone()));
        }
        let wake = m
            .poll_timeout()
            .map(|t| start + Duration::from_millis(t.as_millis()));
        tokio::select! {
            cmd = commands.recv(), if accepting => match cmd {
                Some(LinkCommand::Send(out)) => {
                    if let Some(o) = oauth.as_mut() {
                        o.refresh_if_expired(&mut m, &events);
                    }
                    m.send(now(), *out);
                }
                // Asked to close, or the driver is gone: end the session.
                Some(LinkCommand::Close) | None => {
                    accepting = false;
                    m.close(now());
                }
            },
            Some(net) = net_rx.recv() => {
                if let (Some(o), mcpg_http::NetEvent::Head { headers, .. }) = (oauth.as_mut(), &net) {
                    o.saw_headers(headers);
                }
                if net.is_last() {
                    tasks.remove(&net.id());
                }
                m.handle_net(now(), net);
            }
            () = sleep_until(wake) => m.handle_timeout(now()),
            outcome = auth_finished(&mut oauth) => {
                if let Some(o) = oauth.as_mut()
                    && let Some(why) = o.settle(outcome, &mut m, now())
                {
                    let _ = events.try_send(TransportEvent::Notice(why));
                }
            }
        }
    }
}

/// The running OAuth flow's end (never, without OAuth or a running flow).
async fn auth_finished(
    oauth: &mut Option<oauth::OAuth>,
) -> (
    mcpg_auth::AuthFlow,
    Result<mcpg_auth::Tokens, mcpg_auth::AuthError>,
) {
    match oauth.as_mut() {
        Some(o) => o.finished().await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}
