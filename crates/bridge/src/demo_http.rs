//! `mcpg demo --http`: the demo server over Streamable HTTP on a loopback port, for
//! any other client (the official Inspector, a desktop host, `mcpg` itself). The
//! HTTP rules live in `mcpg_demo_sse::HttpDemo` (sans-IO, shared with the page);
//! this file only reads requests, hands them over and writes the answers.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use futures_util::stream;
use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest, MAX_BODY, PATH};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::time::Instant;

use crate::error::BridgeError;
use crate::token::Token;

/// How often an open GET stream gets a comment, so proxies and clients with an
/// idle timeout keep it.
const KEEPALIVE: Duration = Duration::from_secs(15);

#[derive(Clone)]
struct Shared {
    demo: Arc<Mutex<HttpDemo>>,
    start: Instant,
}

/// Binds `addr` (loopback only: the demo has no sign-in), prints the URL to paste
/// into a client as one line on stdout, and serves until the process ends.
pub async fn run_demo_http(addr: SocketAddr) -> Result<(), BridgeError> {
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
    let shared = Shared {
        demo: Arc::new(Mutex::new(HttpDemo::new(hosts, origins, prefix))),
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

async fn handle(State(st): State<Shared>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    // Reading stops one byte past the limit: enough to know the body is too large.
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY + 1).await else {
        return respond(HttpDemo::too_large());
    };
    let headers: Vec<(&str, &str)> = parts
        .headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
        .collect();
    let now =
        Timestamp::from_millis(u64::try_from(st.start.elapsed().as_millis()).unwrap_or(u64::MAX));
    let answer = st
        .demo
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .answer(
            now,
            &HttpRequest {
                method: parts.method.as_str(),
                path: parts.uri.path(),
                headers: &headers,
                body: &body,
            },
        );
    respond(answer)
}

fn respond(a: Answer) -> Response {
    let open = a.stream.is_some();
    let first = Bytes::from(a.body);
    let body = if open {
        // The first chunk, then a comment now and then until the client goes.
        let rest = stream::unfold((), |()| async {
            tokio::time::sleep(KEEPALIVE).await;
            Some((
                Ok::<_, std::convert::Infallible>(Bytes::from_static(b": keepalive\n\n")),
                (),
            ))
        });
        let head = stream::once(async move { Ok(first) });
        Body::from_stream(futures_util::StreamExt::chain(head, rest))
    } else {
        Body::from(first)
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
