//! What the driver asks the shell to do.

use mcpg_loop_data::Provider;
use mcpg_net::{HttpRequest, ReqId};

use crate::command::{ConnId, LoopId};
use crate::links::LinkSpec;
use crate::view::ViewChange;

/// A request to a real model, without its key: the shell adds the key to the one
/// header named by `key_header` (with `mcpg_host::provider::key_header`) and nowhere
/// else, then answers with [`crate::Input::ModelReply`] for `loop_id`.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelRequest {
    /// The loop that asks (a reply for an older loop is ignored).
    pub loop_id: LoopId,
    /// The server's sampling request this answers (the shell replies with
    /// [`crate::Input::SampleReply`]), or `None` for the loop's own model turn.
    pub ask: Option<u64>,
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
    /// Close the transport of `conn` and forget it (for an HTTP link this comes once
    /// its DELETE was answered: the driver asks for that DELETE itself).
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
    /// Make one HTTP request for `conn`'s Streamable HTTP link (the machine wrote
    /// it whole: method, URL, every header, body) and report what happens with
    /// `Input::Http` events naming `request.id`.
    /// For a relay link the shell appends the bridge's token to the URL.
    Http {
        /// The connection.
        conn: ConnId,
        /// The request.
        request: HttpRequest,
    },
    /// Abort request `req` of `conn` (its answer is no longer wanted; nothing more
    /// needs reporting).
    AbortHttp {
        /// The connection.
        conn: ConnId,
        /// The request.
        req: ReqId,
    },
    /// Ask a real model.
    ModelRequest(ModelRequest),
    /// Load the later parts and hand them in with [`crate::Input::Later`] (or
    /// [`crate::Input::LaterFailed`]); commands wait meanwhile. Asked once per wait.
    LoadLater,
    /// Open `url` in a new tab (`window.open(url, "_blank", "noopener")`): a URL
    /// elicitation the learner clicked; never without that click.
    OpenUrl {
        /// The http(s) URL, exactly as the server sent it.
        url: String,
    },
    /// Post `text` (one JSON-RPC message) to view `view`'s frame, target `*` (the
    /// frame's origin is opaque).
    AppPost {
        /// The view ([`crate::AppView::id`]).
        view: u64,
        /// The message.
        text: String,
    },
    /// Change what the page shows.
    View(ViewChange),
}
