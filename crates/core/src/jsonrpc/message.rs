//! [`Message`]: the exact wire text and the body decoded from it, read once.

use std::sync::Arc;

use serde_json::Value;

use super::{Body, DecodeError, RequestId, RpcError};

/// One JSON-RPC message: its exact wire text and its decoded body.
///
/// The text is parsed once and its `params` / `result` are moved into the
/// [`Body`], not copied: the body is the only parsed form kept (a 1,000-tool page is
/// large). [`Message::to_value`] re-reads the text when the whole envelope is wanted.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    // Shared so that handing a message to the UI, a log and an event costs no copy.
    raw: Arc<str>,
    body: Arc<Body>,
}

impl Message {
    /// Decodes exactly one message (a batch is an error here; see [`super::decode_frame`]).
    pub fn decode(text: &str) -> Result<Message, DecodeError> {
        let value: Value =
            serde_json::from_str(text).map_err(|e| DecodeError::Json(e.to_string()))?;
        Message::from_parts(Arc::from(text), value)
    }

    pub(super) fn from_parts(raw: Arc<str>, value: Value) -> Result<Message, DecodeError> {
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
