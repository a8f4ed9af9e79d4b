//! The old HTTP+SSE transport's state, and the choice of transport the machine
//! reports: types only, so that the machine holds them without depending on
//! `legacy.rs`, which drives them.

use mcpg_core::jsonrpc::RequestId;

use crate::endpoint::EndpointError;
use crate::sse::SseParser;
use crate::{ReqId, Transport};

/// Which transport the machine speaks, and why, for the CLI and the page to say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportChoice {
    /// `StreamableHttp` or `Sse` (never `Auto`).
    pub transport: Transport,
    /// One sentence, e.g. "Streamable HTTP POST answered 405; fell back to HTTP+SSE
    /// (2024-11-05): endpoint /messages/?session_id=1a2b…". Session ids in the
    /// endpoint are shortened: they let anyone post into the session.
    pub why: String,
    /// The old transport's endpoint as shown (shortened like `why`), once its
    /// `endpoint` event came; until then an `Sse` choice is not settled.
    pub endpoint: Option<String>,
}

impl TransportChoice {
    /// Whether the choice is final: Streamable HTTP, or HTTP+SSE with its endpoint.
    pub fn settled(&self) -> bool {
        self.transport == Transport::StreamableHttp || self.endpoint.is_some()
    }
}

/// The old transport's state.
#[derive(Debug)]
pub(crate) struct Legacy {
    /// The GET stream, while it is open.
    pub stream: Option<ReqId>,
    pub parser: SseParser,
    /// The resolved POST endpoint, once the `endpoint` event came.
    pub endpoint: Option<String>,
    /// Requests POSTed whose answers are due on the stream, in order.
    pub pending: Vec<RequestId>,
    /// Set once the session is over: why (later messages fail with it).
    pub over: Option<String>,
    /// The refused endpoint, if that is what ended it.
    pub refused: Option<EndpointError>,
}
