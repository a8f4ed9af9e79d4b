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

    fn from_value(v: &Value) -> Option<Self> {
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

/// One JSON-RPC message: its exact wire text and its decoded body.
///
/// The text is parsed once and its `params` / `result` / `error` are moved into the
/// [`Body`], not copied: the body is the only parsed form kept (a 1,000-tool page is
/// large). [`Message::to_value`] re-reads the text when the whole envelope is wanted.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    // Shared so that handing a message to the UI, a log and an event costs no copy.
    raw: Arc<str>,
    body: Arc<Body>,
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

impl Message {
    /// Decodes exactly one message (a batch is an error here; see [`decode_frame`]).
    pub fn decode(text: &str) -> Result<Message, DecodeError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
        Message::from_parts(Arc::from(text), value)
    }

    fn from_parts(raw: Arc<str>, value: Value) -> Result<Message, DecodeError> {
        let body = classify(value)?;
        Ok(Message {
            raw,
            body: Arc::new(body),
        })
    }

    /// Builds a message from JSON we are about to send; its raw text is the compact serialization.
    pub fn from_value(value: Value) -> Result<Message, DecodeError> {
        let raw: Arc<str> = Arc::from(value.to_string());
        Message::from_parts(raw, value)
    }

    /// A request.
    pub fn request(id: RequestId, method: &str, params: Option<Value>) -> Message {
        let mut raw = envelope(Some(&id));
        member(&mut raw, "method", &Value::from(method));
        if let Some(p) = &params {
            member(&mut raw, "params", p);
        }
        let body = Body::Request {
            id,
            method: method.to_owned(),
            params,
        };
        Message::built(raw, body)
    }

    /// A notification.
    pub fn notification(method: &str, params: Option<Value>) -> Message {
        let mut raw = envelope(None);
        member(&mut raw, "method", &Value::from(method));
        if let Some(p) = &params {
            member(&mut raw, "params", p);
        }
        let body = Body::Notification {
            method: method.to_owned(),
            params,
        };
        Message::built(raw, body)
    }

    /// A successful response.
    pub fn response(id: RequestId, result: Value) -> Message {
        let mut raw = envelope(Some(&id));
        member(&mut raw, "result", &result);
        Message::built(raw, Body::Response { id, result })
    }

    /// An error response.
    pub fn error(id: Option<RequestId>, error: RpcError) -> Message {
        let mut raw = envelope(None);
        member(
            &mut raw,
            "id",
            &id.as_ref().map_or(Value::Null, RequestId::to_value),
        );
        member(&mut raw, "error", &error.to_value());
        Message::built(raw, Body::Error { id, error })
    }

    fn built(mut raw: String, body: Body) -> Message {
        raw.push('}');
        Message {
            raw: Arc::from(raw),
            body: Arc::new(body),
        }
    }

    /// The exact text of the message.
    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// A cheap shared handle to the exact text.
    pub fn raw_shared(&self) -> Arc<str> {
        self.raw.clone()
    }

    /// The whole message as JSON, unknown envelope members included, read again
    /// from the text (the decoded form keeps only the [`Body`]).
    pub fn to_value(&self) -> Value {
        serde_json::from_str(&self.raw).unwrap_or(Value::Null)
    }

    /// The `params` of a request or notification.
    pub fn params(&self) -> Option<&Value> {
        match &*self.body {
            Body::Request { params, .. } | Body::Notification { params, .. } => params.as_ref(),
            _ => None,
        }
    }

    /// The `result` of a successful response.
    pub fn result(&self) -> Option<&Value> {
        match &*self.body {
            Body::Response { result, .. } => Some(result),
            _ => None,
        }
    }

    /// The decoded body.
    pub fn body(&self) -> &Body {
        &self.body
    }

    /// The decoded body, by value: moved out when this is the message's only handle
    /// (as right after decoding), copied otherwise. With `from_value` of a model
    /// type, a result goes from text to typed view without a copy.
    pub fn into_body(self) -> Body {
        Arc::try_unwrap(self.body).unwrap_or_else(|shared| (*shared).clone())
    }

    /// The method, for requests and notifications.
    pub fn method(&self) -> Option<&str> {
        match &*self.body {
            Body::Request { method, .. } | Body::Notification { method, .. } => Some(method),
            _ => None,
        }
    }

    /// The id, for requests and responses.
    pub fn id(&self) -> Option<&RequestId> {
        match &*self.body {
            Body::Request { id, .. } | Body::Response { id, .. } => Some(id),
            Body::Error { id, .. } => id.as_ref(),
            Body::Notification { .. } => None,
        }
    }

    /// Length of the wire text in bytes.
    pub fn size(&self) -> usize {
        self.raw.len()
    }
}

/// The start of a built message's text: `{"jsonrpc":"2.0"` and the id, if any.
/// Built messages are written member by member, in this order, as `Value`'s compact
/// printer would write the same object, without first building that object.
fn envelope(id: Option<&RequestId>) -> String {
    let mut raw = String::from(r#"{"jsonrpc":"2.0""#);
    if let Some(id) = id {
        member(&mut raw, "id", &id.to_value());
    }
    raw
}

/// Appends `,"key":value` (keys here are plain ASCII: no escaping needed).
fn member(raw: &mut String, key: &str, v: &Value) {
    raw.push_str(",\"");
    raw.push_str(key);
    raw.push_str("\":");
    raw.push_str(&v.to_string());
}

/// Reads the envelope, moving `params` / `result` / `error` out of the parsed value.
fn classify(value: Value) -> Result<Body, DecodeError> {
    let bad = |why: &str| Err(DecodeError::NotJsonRpc(why.to_owned()));
    let Value::Object(mut o) = value else {
        return bad("expected a JSON object");
    };
    if o.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return bad("missing \"jsonrpc\": \"2.0\"");
    }
    let id = o.get("id");
    if let Some(method) = o.get("method") {
        let Some(method) = method.as_str().map(str::to_owned) else {
            return bad("\"method\" is not a string");
        };
        let id = match id {
            None => None,
            Some(v) => match RequestId::from_value(v) {
                Some(id) => Some(id),
                None => return bad("request \"id\" must be a string or an integer"),
            },
        };
        let params = o.swap_remove("params");
        if matches!(params, Some(ref p) if !p.is_object() && !p.is_array()) {
            return bad("\"params\" must be an object or an array");
        }
        return Ok(match id {
            None => Body::Notification { method, params },
            Some(id) => Body::Request { id, method, params },
        });
    }
    match (o.contains_key("result"), o.get("error")) {
        (true, Some(_)) => bad("a response has both \"result\" and \"error\""),
        (true, None) => match id.and_then(RequestId::from_value) {
            Some(id) => Ok(Body::Response {
                id,
                result: o.swap_remove("result").unwrap_or(Value::Null),
            }),
            None => bad("response \"id\" must be a string or an integer"),
        },
        (false, Some(err)) => {
            let Some(error) = RpcError::from_value(err) else {
                return bad("\"error\" must be an object with an integer \"code\"");
            };
            let id = match id {
                None | Some(Value::Null) => None,
                Some(v) => match RequestId::from_value(v) {
                    Some(id) => Some(id),
                    None => return bad("error \"id\" must be a string, an integer or null"),
                },
            };
            Ok(Body::Error { id, error })
        }
        (false, None) => bad("neither \"method\", \"result\" nor \"error\""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_raw_text_and_unknown_members() {
        let text = r#"{"jsonrpc":"2.0","id":"a","result":{"x":1},"extra":true}"#;
        let m = Message::decode(text).unwrap();
        assert_eq!(m.raw(), text);
        assert_eq!(m.to_value()["extra"], Value::Bool(true));
        assert_eq!(m.result(), Some(&serde_json::json!({"x": 1})));
        assert_eq!(m.id(), Some(&RequestId::String("a".into())));
    }

    #[test]
    fn classifies_all_shapes() {
        let req = Message::decode(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
        assert!(matches!(
            req.body(),
            Body::Request {
                id: RequestId::Number(7),
                ..
            }
        ));
        let note = Message::decode(r#"{"jsonrpc":"2.0","method":"x/y","params":{}}"#).unwrap();
        assert!(matches!(note.body(), Body::Notification { .. }));
        let err =
            Message::decode(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}}"#)
                .unwrap();
        assert!(matches!(err.body(), Body::Error { id: None, .. }));
    }

    #[test]
    fn rejects_non_jsonrpc() {
        for t in [
            "junk",
            "[]",
            "42",
            r#"{"id":1,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
            r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#,
            r#"{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}"#,
            r#"{"jsonrpc":"2.0","method":"x","params":3}"#,
        ] {
            assert!(Message::decode(t).is_err(), "{t}");
        }
    }

    #[test]
    fn batch_frames_split() {
        let f = decode_frame(r#"[{"jsonrpc":"2.0","method":"a"},{"nope":1}]"#);
        assert!(f.batch);
        assert_eq!(f.items.len(), 2);
        assert!(f.items[0].is_ok());
        assert!(f.items[1].is_err());
    }

    #[test]
    fn built_messages_round_trip() {
        let m = Message::request(
            RequestId::Number(1),
            "tools/list",
            Some(serde_json::json!({})),
        );
        let back = Message::decode(m.raw()).unwrap();
        assert_eq!(back.body(), m.body());
        // The text written member by member is what `Value` would print.
        let cases = [
            m,
            Message::notification("n/x", None),
            Message::response(
                RequestId::String("é\"q".into()),
                serde_json::json!([1, {"a": null}]),
            ),
            Message::error(None, RpcError::new(-1, "no")),
            Message::error(Some(RequestId::Number(-3)), RpcError::new(-1, "no")),
        ];
        for m in cases {
            assert_eq!(m.raw(), m.to_value().to_string());
            assert_eq!(Message::decode(m.raw()).unwrap(), m);
        }
    }
}
