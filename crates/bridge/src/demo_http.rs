//! `mcpg demo --http`: the demo server over Streamable HTTP on a loopback port, for
//! any other client (the official Inspector, a desktop host, `mcpg` itself). The
//! HTTP rules live in `mcpg_demo_sse::HttpDemo` (sans-IO, shared with the page);
//! this file only reads requests, hands them over and writes the answers.

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
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest, MAX_BODY, PATH, Profile, Push, StreamId};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::error::BridgeError;
use crate::token::Token;

/// How often an open GET stream gets a comment, so proxies and clients with an
/// idle timeout keep it.
const KEEPALIVE: Duration = Duration::from_secs(15);

#[derive(Clone)]
struct Shared {
    inner: Arc<Mutex<Inner>>,
    start: Instant,
}

/// The demo and the open streams its pushes go to.
struct Inner {
    demo: HttpDemo,
    streams: HashMap<StreamId, mpsc::UnboundedSender<Bytes>>,
}

impl Inner {
    /// Hands every push to its stream; a stream whose client went is forgotten.
    fn deliver(&mut self) {
        while let Some(push) = self.demo.poll_push() {
            match push {
                Push::Chunk { stream, text } => {
                    let gone = self
                        .streams
                        .get(&stream)
                        .is_some_and(|tx| tx.send(Bytes::from(text)).is_err());
                    if gone {
                        self.streams.remove(&stream);
                        self.demo.handle_closed(stream);
                    }
                }
                Push::End(stream) => {
                    self.streams.remove(&stream);
                }
            }
        }
    }
}

/// Which server `mcpg demo --http` serves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DemoProfile {
    /// The lessons' demo server.
    #[default]
    Demo,
    /// The official conformance suite's fixtures (`--conformance`).
    Conformance,
}

/// Binds `addr` (loopback only: the demo has no sign-in), prints the URL to paste
/// into a client as one line on stdout, and serves `profile`'s server until the
/// process ends.
pub async fn run_demo_http(addr: SocketAddr, profile: DemoProfile) -> Result<(), BridgeError> {
    if !addr.ip().is_loopback() {
        return Err(BridgeError::DemoNotLoopback { addr });
    }
    let io = |what: &str| {
        let what = what.to_owned();
        move |source| BridgeError::Io { what, source }
    };
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
    let profile = match profile {
        DemoProfile::Demo => Profile::DEMO,
        // Seals the input_required rounds' requestState; drawn per process, so a
        // state from before a restart no longer opens (the client starts over).
        DemoProfile::Conformance => mcpg_demo_conformance::profile().with_state_key(state_key()?),
    };
    let shared = Shared {
        inner: Arc::new(Mutex::new(Inner {
            demo: HttpDemo::with_profile(hosts, origins, prefix, profile),
            streams: HashMap::new(),
        })),
        start: Instant::now(),
    };
    let line = format!("http://{ip}:{port}{PATH}\n");
    let mut out = tokio::io::stdout();
    out.write_all(line.as_bytes())
        .await
        .map_err(io("could not print the URL"))?;
    out.flush().await.map_err(io("could not print the URL"))?;
    let app = Router::new().fallback(handle).with_state(shared);
    axum::serve(listener, app)
        .await
        .map_err(io("serving failed"))
}

/// 32 random bytes for [`Profile::with_state_key`].
fn state_key() -> Result<[u8; 32], BridgeError> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| BridgeError::Random(e.to_string()))?;
    Ok(key)
}

async fn handle(State(st): State<Shared>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    // Reading stops one byte past the limit: enough to know the body is too large.
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY + 1).await else {
        return respond(HttpDemo::too_large(), None);
    };
    let headers: Vec<(&str, &str)> = parts
        .headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
        .collect();
    let now =
        Timestamp::from_millis(u64::try_from(st.start.elapsed().as_millis()).unwrap_or(u64::MAX));
    let mut inner = st.inner.lock().unwrap_or_else(PoisonError::into_inner);
    let answer = inner.demo.answer(
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
    // A request may cause pushes for other streams (a change a listen stream waits for).
    inner.deliver();
    drop(inner);
    respond(answer, pushes)
}

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
