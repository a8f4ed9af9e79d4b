//! What the driver asks the shell to do.

use mcpg_core::client::Outgoing;
use mcpg_host::provider::Provider;

use crate::input::{ConnId, LoopId};
use crate::links::LinkSpec;
use crate::view::ViewChange;

/// A request to a real model, without its key: the shell adds the key to the one
/// header named by `key_header` (with `mcpg_host::provider::key_header`) and nowhere
/// else, then answers with [`crate::Input::ModelReply`] for `loop_id`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelRequest {
    /// The loop that asks (a reply for an older loop is ignored).
    pub loop_id: LoopId,
    /// The provider (its key header's name and format).
    pub provider: Provider,
    /// URL to POST to.
    pub url: String,
    /// Headers without the key.
    pub headers: Vec<(&'static str, String)>,
    /// The header that carries the key, if the provider uses one.
    pub key_header: Option<&'static str>,
    /// The JSON body.
    pub body: String,
}

/// One thing for the shell to do, in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Open the transport for connection `conn` (answer with `LinkOpened`, `Frame`s,
    /// `LinkClosed`).
    OpenLink {
        /// The connection.
        conn: ConnId,
        /// What to open.
        link: LinkSpec,
    },
    /// Close the transport of `conn` (a Streamable HTTP session is ended with DELETE).
    CloseLink {
        /// The connection.
        conn: ConnId,
    },
    /// Send one text frame on `conn`'s WebSocket (only after it opened).
    SendFrame {
        /// The connection.
        conn: ConnId,
        /// The text.
        text: String,
    },
    /// POST one message on `conn`'s Streamable HTTP endpoint, with the protocol's
    /// headers (answers come back as `Frame`s, failures as `SendFailed`).
    HttpPost {
        /// The connection.
        conn: ConnId,
        /// The message and its headers, as the core made them.
        message: Outgoing,
    },
    /// Ask a real model.
    ModelRequest(ModelRequest),
    /// Change what the page shows.
    View(ViewChange),
}
