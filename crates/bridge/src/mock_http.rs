//! `mcpg mock SESSION --http`: a recorded session served over Streamable HTTP on a
//! loopback port. The rules live in `mcpg_demo_sse::HttpMock` (sans-IO); this file
//! reads requests, hands them over and writes the answers, keeping a stream open
//! while a recorded question waits for the client's answer.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Request, State};
use axum::response::Response;
use mcpg_demo_sse::{HttpMock, HttpRequest, MAX_BODY, Push, StreamId};
use mcpg_recording::mock::Mock;
use tokio::sync::mpsc;

use crate::demo_http::{bind, respond, serve_at};
use crate::error::BridgeError;

/// The mock and the open streams its pushes go to.
struct Inner {
    mock: HttpMock,
    streams: HashMap<StreamId, mpsc::UnboundedSender<Bytes>>,
}

impl Inner {
    /// Hands every push to its stream; a stream whose client went is forgotten.
    fn deliver(&mut self) {
        while let Some(push) = self.mock.poll_push() {
            match push {
                Push::Chunk { stream, text } => {
                    let gone = self
                        .streams
                        .get(&stream)
                        .is_some_and(|tx| tx.send(Bytes::from(text)).is_err());
                    if gone {
                        self.streams.remove(&stream);
                        self.mock.handle_closed(stream);
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

type Shared = Arc<Mutex<Inner>>;

/// Binds `addr` (loopback only), prints the URL to paste into a client as one line
/// on stdout, and serves `mock` until the process ends.
pub async fn run_mock_http(addr: SocketAddr, mock: Mock) -> Result<(), BridgeError> {
    let bound = bind(addr).await?;
    let shared: Shared = Arc::new(Mutex::new(Inner {
        mock: HttpMock::new(mock, bound.hosts, bound.origins, bound.prefix),
        streams: HashMap::new(),
    }));
    let app = Router::new().fallback(handle).with_state(shared);
    serve_at(bound.listener, &bound.url, app).await
}

async fn handle(State(st): State<Shared>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    // Reading stops one byte past the limit: enough to know the body is too large.
    let Ok(body) = axum::body::to_bytes(body, MAX_BODY + 1).await else {
        return respond(HttpMock::too_large(), None);
    };
    let headers: Vec<(&str, &str)> = parts
        .headers
        .iter()
        .filter_map(|(n, v)| Some((n.as_str(), v.to_str().ok()?)))
        .collect();
    let mut inner = st.lock().unwrap_or_else(PoisonError::into_inner);
    let answer = inner.mock.answer(&HttpRequest {
        method: parts.method.as_str(),
        path: parts.uri.path(),
        headers: &headers,
        body: &body,
    });
    let pushes = answer.stream.map(|stream| {
        let (tx, rx) = mpsc::unbounded_channel();
        inner.streams.insert(stream, tx);
        rx
    });
    // A client's answer to a question sends the next message on that question's stream.
    inner.deliver();
    drop(inner);
    respond(answer, pushes)
}
