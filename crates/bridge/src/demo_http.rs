//! `mcpg demo --http`: the demo server over Streamable HTTP on a loopback port, for
//! any other client (the official Inspector, a desktop host, `mcpg` itself). The
//! HTTP rules live in `mcpg_demo_sse::HttpDemo` (sans-IO, shared with the page);
//! `loopback.rs` does the I/O.

use std::net::SocketAddr;

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest, Profile, Push, StreamId};

use crate::error::BridgeError;
use crate::loopback::{Bound, Face, bind, serve};

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
    let Bound {
        listener,
        hosts,
        origins,
        prefix,
        url,
    } = bind(addr).await?;
    let profile = match profile {
        DemoProfile::Demo => Profile::DEMO,
        // Seals the input_required rounds' requestState; drawn per process, so a
        // state from before a restart no longer opens (the client starts over).
        DemoProfile::Conformance => mcpg_demo_conformance::profile().with_state_key(state_key()?),
    };
    serve(
        listener,
        &url,
        HttpDemo::with_profile(hosts, origins, prefix, profile),
    )
    .await
}

/// 32 random bytes for [`Profile::with_state_key`].
fn state_key() -> Result<[u8; 32], BridgeError> {
    let mut key = [0u8; 32];
    getrandom::fill(&mut key).map_err(|e| BridgeError::Random(e.to_string()))?;
    Ok(key)
}

impl Face for HttpDemo {
    fn answer(&mut self, now: Timestamp, req: &HttpRequest<'_>) -> Answer {
        HttpDemo::answer(self, now, req)
    }

    fn poll_push(&mut self) -> Option<Push> {
        HttpDemo::poll_push(self)
    }

    fn handle_closed(&mut self, stream: StreamId) {
        HttpDemo::handle_closed(self, stream);
    }

    fn too_large() -> Answer {
        HttpDemo::too_large()
    }
}
