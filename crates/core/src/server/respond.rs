//! The application's answers to the requests the server handed it.

use serde_json::{Map, Value, json};

use super::Server;
use crate::jsonrpc::{Message, RequestId, RpcError, code};
use crate::model::CallToolResult;
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// The most values one `completion/complete` answer may carry (the spec's limit).
pub const MAX_COMPLETIONS: usize = 100;

impl Server {
    /// Answers a [`super::ServerEvent::CallTool`] with a result (`isError` inside it for tool failures).
    pub fn respond(&mut self, now: Timestamp, id: &RequestId, result: &CallToolResult) {
        self.respond_value(now, id, result.to_json());
    }

    /// Answers a [`super::ServerEvent::ReadResource`] with its `contents`
    /// (`TextResourceContents` / `BlobResourceContents` objects, see [`text_contents`]
    /// and [`blob_contents`]).
    pub fn respond_read(&mut self, now: Timestamp, id: &RequestId, contents: Vec<Value>) {
        self.respond_value(now, id, json!({ "contents": contents }));
    }

    /// Answers a [`super::ServerEvent::GetPrompt`] with its messages
    /// (`PromptMessage` objects: `role` and one content block).
    pub fn respond_prompt(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        description: Option<&str>,
        messages: Vec<Value>,
    ) {
        let mut r = Map::new();
        if let Some(d) = description {
            r.insert("description".into(), Value::from(d));
        }
        r.insert("messages".into(), Value::Array(messages));
        self.respond_value(now, id, Value::Object(r));
    }

    /// Answers a [`super::ServerEvent::Complete`] with every matching value: the
    /// first [`MAX_COMPLETIONS`] are sent, with `total` and `hasMore` when there are
    /// more.
    pub fn respond_completion(&mut self, now: Timestamp, id: &RequestId, mut values: Vec<String>) {
        let total = values.len();
        values.truncate(MAX_COMPLETIONS);
        let has_more = total > values.len();
        let completion = json!({ "values": values, "total": total, "hasMore": has_more });
        self.respond_value(now, id, json!({ "completion": completion }));
    }

    /// Answers any open request with a JSON-RPC error (`-32002` for a resource that
    /// does not exist, sent as `-32602` under 2026-07-28; `-32602` for bad
    /// arguments, ...).
    pub fn respond_error(&mut self, now: Timestamp, id: &RequestId, error: RpcError) {
        if let Some(call) = self.open.remove(id) {
            let error = for_revision(error, call.ctx.version);
            self.send(now, Message::error(Some(id.clone()), error));
        }
    }

    /// Answers any open request with a result the application built (a
    /// `CreateTaskResult`, a `Task`, a task's final `CallToolResult`, ...), stamped
    /// for its revision.
    pub fn respond_result(&mut self, now: Timestamp, id: &RequestId, result: Value) {
        self.respond_value(now, id, result);
    }

    /// Sends a notification the application built (`notifications/tasks/status`,
    /// or progress carrying a related task's `_meta`).
    pub fn notify(&mut self, now: Timestamp, method: &str, params: Value) {
        self.send(now, Message::notification(method, Some(params)));
    }

    /// Whether a request is still waiting for its answer (false once answered or cancelled).
    pub fn is_open(&self, id: &RequestId) -> bool {
        self.open.contains_key(id)
    }

    /// Sends `notifications/progress` for a call that asked for it.
    pub fn progress(
        &mut self,
        now: Timestamp,
        token: &Value,
        progress: f64,
        total: Option<f64>,
        message: Option<&str>,
    ) {
        let mut p = Map::new();
        p.insert("progressToken".into(), token.clone());
        p.insert("progress".into(), json!(progress));
        if let Some(t) = total {
            p.insert("total".into(), json!(t));
        }
        if let Some(m) = message {
            p.insert("message".into(), Value::from(m));
        }
        self.send(
            now,
            Message::notification("notifications/progress", Some(Value::Object(p))),
        );
    }

    /// Sends `result` for an open request, stamped for its revision.
    pub(super) fn respond_value(&mut self, now: Timestamp, id: &RequestId, result: Value) {
        let Some(call) = self.open.remove(id) else {
            return;
        };
        let value = self.complete(result, call.ctx.version, call.cacheable);
        self.send(now, Message::response(id.clone(), value));
    }
}

/// `error` as revision `version` says it: SEP-2164 (2026-07-28) makes a resource
/// that does not exist `-32602` (Invalid Params), where earlier revisions used
/// `-32002`; the message and the URI in `data` stay.
pub(super) fn for_revision(mut error: RpcError, version: ProtocolVersion) -> RpcError {
    if error.code == code::RESOURCE_NOT_FOUND && version.generation() == Generation::Stateless {
        error.code = code::INVALID_PARAMS;
    }
    error
}

/// A `TextResourceContents` object.
pub fn text_contents(uri: &str, mime_type: &str, text: &str) -> Value {
    json!({ "uri": uri, "mimeType": mime_type, "text": text })
}

/// A `BlobResourceContents` object (`blob_base64` is the base64 of the bytes).
pub fn blob_contents(uri: &str, mime_type: &str, blob_base64: &str) -> Value {
    json!({ "uri": uri, "mimeType": mime_type, "blob": blob_base64 })
}
