//! JSON-RPC 2.0 framing. Every [`Message`] keeps the exact text that crossed the
//! wire next to its parsed form, because the playground shows both.

use std::fmt;
use std::sync::Arc;

use serde_json::{Map, Value};

/// Standard and MCP error codes (JSON-RPC 2.0 §5.1; MCP `schema.ts`).
pub mod code {
    /// Invalid JSON was received.
    pub const PARSE_ERROR: i64 = -32700;
    /// The JSON sent is not a valid Request object.
    pub const INVALID_REQUEST: i64 = -32600;
    /// The method does not exist or is not available.
    pub const METHOD_NOT_FOUND: i64 = -32601;
    /// Invalid method parameters.
    pub const INVALID_PARAMS: i64 = -32602;
    /// Internal JSON-RPC error.
    pub const INTERNAL_ERROR: i64 = -32603;
    /// MCP ≤2025-11-25: resource not found.
    pub const RESOURCE_NOT_FOUND: i64 = -32002;
    /// MCP 2025-11-25: the request needs the user to complete a URL elicitation
    /// first (`URLElicitationRequiredError`, its `data.elicitations`).
    pub const URL_ELICITATION_REQUIRED: i64 = -32042;
    /// MCP 2026-07-28: `MCP-Protocol-Version` header and `_meta` disagree.
    pub const HEADER_MISMATCH: i64 = -32020;
    /// MCP 2026-07-28: a client capability the request needs was not declared.
    pub const MISSING_CLIENT_CAPABILITY: i64 = -32021;
    /// MCP 2026-07-28: the requested protocol version is not supported.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i64 = -32022;
}

/// A request id: JSON-RPC allows strings and numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RequestId {
    /// A numeric id (integers only; fractional ids are rejected by the decoder).
    Number(i64),
    /// A string id.
    String(String),
}

impl RequestId {
    /// The id as JSON.
    pub fn to_value(&self) -> Value {
        match self {
            RequestId::Number(n) => Value::from(*n),
            RequestId::String(s) => Value::from(s.as_str()),
        }
    }

    /// Reads an id from JSON; `None` for null, floats, objects and the like.
    pub fn from_value(v: &Value) -> Option<Self> {
        match v {
            Value::Number(n) => n.as_i64().map(RequestId::Number),
            Value::String(s) => Some(RequestId::String(s.clone())),
            _ => None,
        }
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The `error` member of a JSON-RPC error response.
#[derive(Clone, Debug, PartialEq)]
pub struct RpcError {
    /// Error code (see [`code`]).
    pub code: i64,
    /// Short description.
    pub message: String,
    /// Optional extra information.
    pub data: Option<Value>,
}

impl RpcError {
    /// Builds an error without data.
    pub fn new(code: i64, message: impl Into<String>) -> Self {
        RpcError {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// The error as JSON.
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        m.insert("code".into(), Value::from(self.code));
        m.insert("message".into(), Value::from(self.message.as_str()));
        if let Some(d) = &self.data {
            m.insert("data".into(), d.clone());
        }
        Value::Object(m)
    }

    /// Reads an `error` object (an integer `code`, a `message`, maybe `data`):
    /// `None` when it is not one.
    pub fn from_value(v: &Value) -> Option<Self> {
        let o = v.as_object()?;
        Some(RpcError {
            code: o.get("code")?.as_i64()?,
            message: o
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned(),
            data: o.get("data").cloned(),
        })
    }
}

impl fmt::Display for RpcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (code {})", self.message, self.code)
    }
}

/// What a message is, after decoding.
#[derive(Clone, Debug, PartialEq)]
pub enum Body {
    /// A request expecting a response.
    Request {
        /// Request id.
        id: RequestId,
        /// Method name.
        method: String,
        /// Parameters, if any.
        params: Option<Value>,
    },
    /// A notification (no id, no response).
    Notification {
        /// Method name.
        method: String,
        /// Parameters, if any.
        params: Option<Value>,
    },
    /// A successful response.
    Response {
        /// Id of the request answered.
        id: RequestId,
        /// The result.
        result: Value,
    },
    /// An error response; `id` is `None` when the peer could not read the request's id.
    Error {
        /// Id of the request answered, if known.
        id: Option<RequestId>,
        /// The error.
        error: RpcError,
    },
}

/// Why a piece of text is not a JSON-RPC message.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// Not JSON at all.
    #[error("not valid JSON: {0}")]
    Json(String),
    /// JSON, but not a JSON-RPC 2.0 message.
    #[error("not a JSON-RPC 2.0 message: {0}")]
    NotJsonRpc(String),
}

/// The result of decoding one frame (a line on stdio, a WebSocket frame, an HTTP body).
#[derive(Clone, Debug)]
pub struct Frame {
    /// The exact text received.
    pub raw: Arc<str>,
    /// Whether the frame was a JSON array (a batch).
    pub batch: bool,
    /// Each element decoded, in order; a batch yields one entry per element.
    pub items: Vec<Result<Message, DecodeError>>,
}

impl Frame {
    /// The one message a frame that is not a batch holds, if it decoded.
    pub fn single(&self) -> Option<&Message> {
        match (self.batch, self.items.as_slice()) {
            (false, [Ok(m)]) => Some(m),
            _ => None,
        }
    }
}

/// Decodes one frame of text. Never panics; problems are returned per element.
pub fn decode_frame(text: &str) -> Frame {
    let raw: Arc<str> = Arc::from(text);
    let value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return Frame {
                raw,
                batch: false,
                items: vec![Err(DecodeError::Json(e.to_string()))],
            };
        }
    };
    match value {
        Value::Array(items) if !items.is_empty() => {
            let items = items
                .into_iter()
                .map(|v| {
                    let text: Arc<str> = Arc::from(v.to_string());
                    Message::from_parts(text, v)
                })
                .collect();
            Frame {
                raw,
                batch: true,
                items,
            }
        }
        v => {
            let item = Message::from_parts(raw.clone(), v);
            Frame {
                raw,
                batch: false,
                items: vec![item],
            }
        }
    }
}

mod message;

pub use message::Message;
