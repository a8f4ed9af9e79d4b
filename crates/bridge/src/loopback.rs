//! The I/O of a sans-IO HTTP server on a loopback port (`mcpg demo --http`,
//! `mcpg mock --http`): bind and name the port, print the URL, read each request
//! and hand it to the server (a [`Face`]), write its answer, and keep a stream's
//! body open for the pushes the server makes later. The rules (who may ask, what
//! is answered) stay in the sans-IO servers of `mcpg_demo_sse`.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::{StreamExt, stream};
use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpRequest, MAX_BODY, PATH, Push, StreamId};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::error::BridgeError;
use crate::token::Token;

/// How often an open stream gets a comment, so proxies and clients with an idle
/// timeout keep it.
const KEEPALIVE: Duration = Duration::from_secs(15);

/// A sans-IO server this file serves: requests in, answers and later pushes out.
pub(crate) trait Face: Send + 'static {
    /// Answers one request (`now`: the server's clock, from its start).
    fn answer(&mut self, now: Timestamp, req: &HttpRequest<'_>) -> Answer;
    /// The next chunk for an open stream, or its end.
    fn poll_push(&mut self) -> Option<Push>;
    /// The client closed `stream`.
    fn handle_closed(&mut self, stream: StreamId);
    /// The answer for a body past [`MAX_BODY`] (reading stopped there).
    fn too_large() -> Answer;
}

/// The server and the open streams its pushes go to.
struct Inner<F> {
    face: F,
    streams: HashMap<StreamId, mpsc::UnboundedSender<Bytes>>,
}

impl<F: Face> Inner<F> {
    /// Hands every push to its stream; a stream whose client went is forgotten.
    fn deliver(&mut self) {
        while let Some(push) = self.face.poll_push() {
            match push {
                Push::Chunk { stream, text } => {
                    let gone = self
                        .streams
                        .get(&stream)
                        .is_some_and(|tx| tx.send(Bytes::from(text)).is_err());
                    if gone {
                        self.streams.remove(&stream);
                        self.face.handle_closed(stream);
                    }
                }
                // Dropping the sender ends the response body.
                Push::End(stream) => {
                    self.streams.remove(&stream);
                }
            }
        }
    }
}

struct Shared<F> {
    inner: Arc<Mutex<Inner<F>>>,
    start: Instant,
}

// Not derived: a derive would ask `F: Clone`, and only the `Arc` is cloned.
impl<F> Clone for Shared<F> {
    fn clone(&self) -> Self {
        Shared {
            inner: Arc::clone(&self.inner),
            start: self.start,
        }
    }
}

/// A loopback listener and the names a request may use for it.
pub(crate) struct Bound {
    /// The bound listener.
    pub(crate) listener: TcpListener,
    /// `ip:port` and `localhost:port`: the only `Host`s answered.
    pub(crate) hosts: Vec<String>,
    /// `http://` and each host: the only `Origin`s answered.
    pub(crate) origins: Vec<String>,
    /// A random session id prefix (16 hex digits and `-`).
    pub(crate) prefix: String,
    /// The URL to paste into a client.
    pub(crate) url: String,
}

/// Binds `addr` (loopback only: these servers have no sign-in) and names it.
pub(crate) async fn bind(addr: SocketAddr) -> Result<Bound, BridgeError> {
    if !addr.ip().is_loopback() {
        return Err(BridgeError::DemoNotLoopback { addr });
    }
    let listener = TcpListener::bind(addr)
        .await
        .map_err(io(&format!("could not listen on {addr}")))?;
    let local = listener
        .local_addr()
        .map_err(io("could not read the bound address"))?;
    let port = local.port();
    // Only this machine's names for the port: a rebinding page's Host is its own name.
    let ip = match local {
        SocketAddr::V4(a) => a.ip().to_string(),
        SocketAddr::V6(a) => format!("[{}]", a.ip()),
    };
    let hosts = vec![format!("{ip}:{port}"), format!("localhost:{port}")];
    let origins = hosts.iter().map(|h| format!("http://{h}")).collect();
    // Session ids start with 16 random hex digits, so another client cannot guess one.
    let prefix = Token::generate()?;
    let prefix = format!("{}-", prefix.as_str().get(..16).unwrap_or_default());
    Ok(Bound {
        listener,
        hosts,
        origins,
        prefix,
        url: format!("http://{ip}:{port}{PATH}"),
    })
}

/// An I/O error while doing `what`.
pub(crate) fn io(what: &str) -> impl FnOnce(std::io::Error) -> BridgeError {
    let what = what.to_owned();
    move |source| BridgeError::Io { what, source }
}

/// Prints `url` as one line on stdout (what a client pastes), then serves `face`
/// on `listener` until the process ends.
pub(crate) async fn serve<F: Face>(
    listener: TcpListener,
    url: &str,
    face: F,
) -> Result<(), BridgeError> {
    let shared = Shared {
        inner: Arc::new(Mutex::new(Inner {
            face,
            streams: HashMap::new(),
        })),
        start: Instant::now(),
    };
    let app = Router::new().fallback(handle::<F>).with_state(shared);
    let mut out = tokio::io::stdout();
    out.write_all(format!("{url}\n").as_bytes())
        .await
        .map_err(io("could not print the URL"))?;
    out.flush().await.map_err(io("could not print the URL"))?;
    axum::serve(listener, app)
        .await
        .map_err(io("serving failed"))
}

async fn handle<F: Face>(State(st): State<Shared<F>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    // Reading stops one byte past the limit: enough to know the body is too large.
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY + 1).await else {
        return respond(F::too_large(), None);
    };
    let headers: Vec<(&str, &str)> = parts
        .headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
        .collect();
    let now =
        Timestamp::from_millis(u64::try_from(st.start.elapsed().as_millis()).unwrap_or(u64::MAX));
    let mut inner = st.inner.lock().unwrap_or_else(PoisonError::into_inner);
    let answer = inner.face.answer(
        now,
        &HttpRequest {
            method: parts.method.as_str(),
            path: parts.uri.path(),
            headers: &headers,
            body: &body,
        },
    );
    let pushes = answer.stream.map(|stream| {
        let (tx, rx) = mpsc::unbounded_channel();
        inner.streams.insert(stream, tx);
        rx
    });
    // A request may cause pushes for other streams (a change a listen stream waits
    // for, the next message of a held call).
    inner.deliver();
    drop(inner);
    respond(answer, pushes)
}

/// `a` as a response; with `pushes`, its body stays open for them (a keepalive
/// comment when none came for a while).
fn respond(a: Answer, pushes: Option<mpsc::UnboundedReceiver<Bytes>>) -> Response {
    let first = Bytes::from(a.body);
    let body = match pushes {
        // The first chunk, then the pushes, with a comment when nothing came for a
        // while, until the server ends it or the client goes (dropping this body
        // drops the receiver: the next push finds the stream gone).
        Some(rx) => {
            let rest = stream::unfold(rx, |mut rx| async move {
                match tokio::time::timeout(KEEPALIVE, rx.recv()).await {
                    Ok(Some(chunk)) => Some((chunk, rx)),
                    // The server ended the stream (its session ended).
                    Ok(None) => None,
                    Err(_) => Some((Bytes::from_static(b": keepalive\n\n"), rx)),
                }
            });
            let all = stream::once(async move { first }).chain(rest);
            Body::from_stream(all.map(Ok::<_, Infallible>))
        }
        None => Body::from(first),
    };
    let mut r = Response::new(body);
    *r.status_mut() = StatusCode::from_u16(a.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    for (n, v) in a.headers {
        if let (Ok(n), Ok(v)) = (HeaderName::try_from(n), HeaderValue::try_from(v)) {
            r.headers_mut().append(n, v);
        }
    }
    r
}
