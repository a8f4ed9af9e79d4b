//! `mcpg mock SESSION --http`: a recorded session served over Streamable HTTP on a
//! loopback port. The rules live in `mcpg_demo_sse::HttpMock` (sans-IO);
//! `loopback.rs` does the I/O, keeping a stream open while a recorded question
//! waits for the client's answer.

use std::net::SocketAddr;

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpMock, HttpRequest, Push, StreamId};
use mcpg_recording::mock::Mock;

use crate::error::BridgeError;
use crate::loopback::{Bound, Face, bind, serve};

/// Binds `addr` (loopback only), prints the URL to paste into a client as one line
/// on stdout, and serves `mock` until the process ends.
pub async fn run_mock_http(addr: SocketAddr, mock: Mock) -> Result<(), BridgeError> {
    let Bound {
        listener,
        hosts,
        origins,
        prefix,
        url,
    } = bind(addr).await?;
    serve(listener, &url, HttpMock::new(mock, hosts, origins, prefix)).await
}

impl Face for HttpMock {
    // A recording has no clock of its own: it answers what was recorded.
    fn answer(&mut self, _now: Timestamp, req: &HttpRequest<'_>) -> Answer {
        HttpMock::answer(self, req)
    }

    fn poll_push(&mut self) -> Option<Push> {
        HttpMock::poll_push(self)
    }

    fn handle_closed(&mut self, stream: StreamId) {
        HttpMock::handle_closed(self, stream);
    }

    fn too_large() -> Answer {
        HttpMock::too_large()
    }
}
