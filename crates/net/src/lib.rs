//! An HTTP exchange as `mcpg-http`'s sans-IO machine asks for it and every driver
//! reports it (the browser's `fetch`, the native reqwest tasks, the page's driver):
//! the request to make, what the network did, and what the machine tells its
//! driver. Plain data, so code that moves these values (the page's first screen)
//! need not hold the machine.

use mcpg_core::client::SendFailure;
use mcpg_core::jsonrpc::RequestId;

/// Names one HTTP request the machine asked for; the driver echoes it back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReqId(pub u64);

/// The HTTP methods Streamable HTTP uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// The standalone stream, or resuming a cut stream.
    Get,
    /// A client message.
    Post,
    /// Ending the session.
    Delete,
}

impl Method {
    /// The method as it goes on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Delete => "DELETE",
        }
    }
}

/// What the network did with one request, as every driver reports it (the browser's
/// `fetch`, the native reqwest tasks): fed back with `HttpMachine::handle_net`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetEvent {
    /// Status and the headers the driver may read (in a browser, CORS hides some).
    Head {
        /// The request.
        id: ReqId,
        /// HTTP status.
        status: u16,
        /// Headers (names in lower case).
        headers: Vec<(String, String)>,
    },
    /// Body bytes.
    Chunk(ReqId, Vec<u8>),
    /// The body ended.
    End(ReqId),
    /// The request failed below HTTP.
    Failed(ReqId, NetFailure),
}

impl NetEvent {
    /// The request it is about.
    pub fn id(&self) -> ReqId {
        match self {
            NetEvent::Head { id, .. }
            | NetEvent::Chunk(id, _)
            | NetEvent::End(id)
            | NetEvent::Failed(id, _) => *id,
        }
    }

    /// Whether nothing more follows for the request (it ended or failed).
    pub fn is_last(&self) -> bool {
        matches!(self, NetEvent::End(_) | NetEvent::Failed(..))
    }
}

/// One HTTP request to make, with every header it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// Echo this in every `handle_*` call about the request.
    pub id: ReqId,
    /// GET, POST or DELETE.
    pub method: Method,
    /// The endpoint.
    pub url: String,
    /// Every header, in order (names as the spec spells them).
    pub headers: Vec<(String, String)>,
    /// The body (POST only).
    pub body: Option<String>,
}

/// How a request failed below HTTP, as the driver saw it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetFailure {
    /// No answer at all: the connection could not be made (in a browser this may
    /// also be CORS, which the page cannot tell apart).
    #[error("{0}")]
    Unreachable(String),
    /// The exchange broke after it started (reading the body failed, a timeout).
    #[error("{0}")]
    Broken(String),
}

/// What the machine reports to its driver.
#[derive(Clone, Debug, PartialEq)]
pub enum HttpEvent {
    /// One frame of received text, for `Client::handle_text`.
    Frame(String),
    /// A frame that is not UTF-8, for `Client::handle_bytes` (which reports it and
    /// still reads the lossy text).
    NotUtf8(Vec<u8>),
    /// The answer to a request was over the size limit and was dropped: for
    /// `Client::handle_oversized_answer` (a [`HttpEvent::SendFailed`] follows for
    /// drivers that do not tell the two apart).
    Oversized {
        /// The request whose answer it was.
        request: RequestId,
        /// How large it was (at least; reading stopped there unless the server
        /// declared a `Content-Length`).
        size: usize,
        /// The limit.
        limit: usize,
        /// Its first bytes (where the `"id"` usually is).
        head: Vec<u8>,
    },
    /// A request could not be delivered; for `Client::handle_send_failed`.
    SendFailed {
        /// The request.
        id: RequestId,
        /// Why.
        failure: SendFailure,
    },
    /// Something worth knowing that is not a message (a resumed stream, a refused
    /// notification, the GET stream opening).
    Notice(String),
    /// The session is over (after `HttpMachine::close`); nothing follows.
    Closed(String),
    /// With `HttpConfig::hold_unauthorized`: the server refused a message for want
    /// of authorization. The machine now holds it and every later message until
    /// `HttpMachine::resume` (after `HttpMachine::set_bearer`) or
    /// `HttpMachine::give_up`. Emitted once per hold.
    Unauthorized {
        /// 401, or 403 (`insufficient_scope`).
        status: u16,
        /// The `WWW-Authenticate` header, as sent.
        www_authenticate: Option<String>,
    },
}
