//! The server role, sans-IO: enough to host a tool server inside the page (the
//! embedded demo) or natively over stdio. It negotiates both generations, pages
//! `tools/list`, and hands each `tools/call` to the application as an event; the
//! application answers when it likes (now, or later for slow tools) and may send
//! progress in between.

mod config;

pub use config::ServerConfig;

use std::collections::{HashMap, VecDeque};

use serde_json::{Map, Value, json};

use crate::client::{Direction, WireEntry};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Body, Message, RequestId, RpcError, code, decode_frame};
use crate::model::{CallToolResult, Implementation, JsonObject, Tool, meta};
use crate::time::Timestamp;
use crate::version::{Generation, ProtocolVersion};

/// Everything the server session reports to the application.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerEvent {
    /// A frame crossed the wire.
    Wire(WireEntry),
    /// A client finished the `initialize` handshake.
    Initialized {
        /// The agreed revision.
        version: ProtocolVersion,
        /// Who the client is.
        client_info: Implementation,
    },
    /// A client asked to run a tool; answer with [`Server::respond`] or [`Server::respond_error`].
    CallTool {
        /// Request id to answer.
        id: RequestId,
        /// Tool name (known to exist).
        name: String,
        /// Arguments (empty when none were sent).
        arguments: JsonObject,
        /// Progress token, when the client asked for progress.
        progress_token: Option<Value>,
    },
    /// The client cancelled a call in flight; the application should stop it.
    Cancelled {
        /// The call's request id.
        id: RequestId,
        /// The client's reason.
        reason: Option<String>,
    },
    /// A notification the session does not handle itself.
    Notification {
        /// Its method.
        method: String,
        /// Its params.
        params: Option<Value>,
    },
    /// A finding about what the client sent.
    Diagnostic(Diagnostic),
}

#[derive(Clone, Debug)]
struct OpenCall {
    /// Revision of the request (stateless requests carry their own).
    version: ProtocolVersion,
}

/// The server side of one MCP connection.
#[derive(Debug)]
pub struct Server {
    cfg: ServerConfig,
    tools: Vec<Tool>,
    /// The revision agreed by `initialize`, if that generation is in use.
    session: Option<ProtocolVersion>,
    initialized: bool,
    /// `clientInfo` from `initialize`, reported once `initialized` arrives.
    client_info: Option<Implementation>,
    open: HashMap<RequestId, OpenCall>,
    /// Open `subscriptions/listen` streams that asked for `toolsListChanged` (2026-07-28).
    listeners: Vec<RequestId>,
    outbox: VecDeque<Message>,
    events: VecDeque<ServerEvent>,
}

impl Server {
    /// A server offering `tools`.
    pub fn new(cfg: ServerConfig, tools: Vec<Tool>) -> Self {
        Server {
            cfg,
            tools,
            session: None,
            initialized: false,
            client_info: None,
            open: HashMap::new(),
            listeners: Vec::new(),
            outbox: VecDeque::new(),
            events: VecDeque::new(),
        }
    }

    /// The current tools.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Replaces the tool list; tells an initialized client when it declared `tools.listChanged`.
    pub fn set_tools(&mut self, now: Timestamp, tools: Vec<Tool>) {
        self.tools = tools;
        if !self.cfg.tools_list_changed {
            return;
        }
        if self.initialized {
            self.send(
                now,
                Message::notification("notifications/tools/list_changed", None),
            );
        }
        for id in self.listeners.clone() {
            let params = json!({ "_meta": { SUBSCRIPTION_ID: id.to_value() } });
            self.send(
                now,
                Message::notification("notifications/tools/list_changed", Some(params)),
            );
        }
    }

    /// Feeds one received frame.
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        let frame = decode_frame(text);
        self.events.push_back(ServerEvent::Wire(WireEntry {
            direction: Direction::Received,
            at: now,
            raw: frame.raw.clone(),
        }));
        for item in frame.items {
            match item {
                Ok(msg) => self.handle_message(now, &msg),
                Err(e) => {
                    let d = Diagnostic::new(
                        Rule::NotJsonRpc,
                        Severity::Error,
                        format!("unreadable message from the client: {e}"),
                    )
                    .with_raw(frame.raw.clone());
                    self.events.push_back(ServerEvent::Diagnostic(d));
                    let err = match e {
                        crate::jsonrpc::DecodeError::Json(_) => {
                            RpcError::new(code::PARSE_ERROR, "Parse error")
                        }
                        crate::jsonrpc::DecodeError::NotJsonRpc(why) => {
                            RpcError::new(code::INVALID_REQUEST, format!("Invalid Request: {why}"))
                        }
                    };
                    self.send(now, Message::error(None, err));
                }
            }
        }
    }

    /// Answers a [`ServerEvent::CallTool`] with a result (`isError` inside it for tool failures).
    pub fn respond(&mut self, now: Timestamp, id: &RequestId, result: &CallToolResult) {
        let Some(call) = self.open.remove(id) else {
            return;
        };
        let value = result.to_json();
        let value = self.complete(value, call.version);
        self.send(now, Message::response(id.clone(), value));
    }

    /// Answers a [`ServerEvent::CallTool`] with a JSON-RPC error.
    pub fn respond_error(&mut self, now: Timestamp, id: &RequestId, error: RpcError) {
        if self.open.remove(id).is_some() {
            self.send(now, Message::error(Some(id.clone()), error));
        }
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

    /// Whether a call is still waiting for its answer (false once answered or cancelled).
    pub fn is_open(&self, id: &RequestId) -> bool {
        self.open.contains_key(id)
    }

    /// The next frame to send.
    pub fn poll_transmit(&mut self) -> Option<Message> {
        self.outbox.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<ServerEvent> {
        self.events.pop_front()
    }

    fn send(&mut self, now: Timestamp, msg: Message) {
        self.events.push_back(ServerEvent::Wire(WireEntry {
            direction: Direction::Sent,
            at: now,
            raw: msg.raw_shared(),
        }));
        self.outbox.push_back(msg);
    }

    fn handle_message(&mut self, now: Timestamp, msg: &Message) {
        match msg.body().clone() {
            Body::Request { id, method, params } => {
                match self.dispatch(now, &id, &method, params.as_ref()) {
                    Ok(Some(result)) => self.send(now, Message::response(id, result)),
                    Ok(None) => {}
                    Err(e) => self.send(now, Message::error(Some(id), e)),
                }
            }
            Body::Notification { method, params } => match method.as_str() {
                "notifications/initialized" => {
                    if let Some(v) = self.session {
                        self.initialized = true;
                        let client_info = self.client_info.take().unwrap_or_default();
                        self.events.push_back(ServerEvent::Initialized {
                            version: v,
                            client_info,
                        });
                    }
                }
                "notifications/cancelled" => {
                    let id = params
                        .as_ref()
                        .and_then(|p| p.get("requestId"))
                        .and_then(RequestId::from_value);
                    let reason = params
                        .as_ref()
                        .and_then(|p| p.get("reason"))
                        .and_then(Value::as_str)
                        .map(str::to_owned);
                    if let Some(id) = id
                        && self.open.remove(&id).is_some()
                    {
                        self.events.push_back(ServerEvent::Cancelled { id, reason });
                    }
                }
                _ => self
                    .events
                    .push_back(ServerEvent::Notification { method, params }),
            },
            Body::Response { .. } | Body::Error { .. } => {
                let d = Diagnostic::new(
                    Rule::UnknownResponseId,
                    Severity::Warning,
                    "the client sent a response, but this server sends no requests",
                )
                .with_raw(msg.raw_shared());
                self.events.push_back(ServerEvent::Diagnostic(d));
            }
        }
    }

    /// Handles one request; `Ok(None)` means the application answers later.
    fn dispatch(
        &mut self,
        now: Timestamp,
        id: &RequestId,
        method: &str,
        params: Option<&Value>,
    ) -> Result<Option<Value>, RpcError> {
        if method == "initialize" {
            return self.initialize(params).map(Some);
        }
        let version = self.request_version(method, params)?;
        let result = match method {
            "server/discover" => self.discover(),
            "ping" => json!({}),
            "tools/list" => self.list(params)?,
            "tools/call" => {
                self.call(id, params, version)?;
                return Ok(None);
            }
            "subscriptions/listen" if version.generation() == Generation::Stateless => {
                self.listen(now, id, params);
                return Ok(None);
            }
            _ => {
                return Err(RpcError::new(
                    code::METHOD_NOT_FOUND,
                    format!("Method not found: {method}"),
                ));
            }
        };
        Ok(Some(self.complete(result, version)))
    }

    fn initialize(&mut self, params: Option<&Value>) -> Result<Value, RpcError> {
        let requested = params
            .and_then(|p| p.get("protocolVersion"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        // Echo the client's revision when we speak it, else offer our newest with initialize.
        let chosen = ProtocolVersion::parse(requested)
            .filter(|v| v.generation() == Generation::Initialize && self.cfg.versions.contains(v))
            .or_else(|| {
                self.cfg
                    .versions
                    .iter()
                    .copied()
                    .filter(|v| v.generation() == Generation::Initialize)
                    .max()
            })
            .ok_or_else(|| unsupported(requested, &self.cfg.versions))?;
        self.session = Some(chosen);
        self.initialized = false;
        self.client_info = params
            .and_then(|p| p.get("clientInfo"))
            .and_then(|c| Implementation::from_json(c).ok());
        let mut r = json!({
            "protocolVersion": chosen.as_str(),
            "capabilities": self.capabilities(),
            "serverInfo": self.cfg.info,
        });
        if let (Some(i), Value::Object(o)) = (&self.cfg.instructions, &mut r) {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        Ok(r)
    }

    /// The revision a request runs under: its own `_meta` version (stateless), or the session's.
    fn request_version(
        &self,
        method: &str,
        params: Option<&Value>,
    ) -> Result<ProtocolVersion, RpcError> {
        let stamped = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get(meta::PROTOCOL_VERSION))
            .and_then(Value::as_str);
        match (stamped, self.session) {
            (Some(s), _) => ProtocolVersion::parse(s)
                .filter(|v| {
                    v.generation() == Generation::Stateless && self.cfg.versions.contains(v)
                })
                .ok_or_else(|| unsupported(s, &self.cfg.versions)),
            (None, Some(v)) => Ok(v),
            // `ping` was allowed before initialization in the old generation.
            (None, None) if method == "ping" => Ok(ProtocolVersion::LATEST_WITH_INITIALIZE),
            (None, None) => Err(RpcError::new(
                code::INVALID_REQUEST,
                format!(
                    "{method} before initialize: send initialize first, or stamp the request with _meta \"{}\"",
                    meta::PROTOCOL_VERSION
                ),
            )),
        }
    }

    /// Opens a listen stream: acknowledge first (the spec requires it), then keep the
    /// request open and send `list_changed` on it when the tools change.
    fn listen(&mut self, now: Timestamp, id: &RequestId, params: Option<&Value>) {
        let wants = params
            .and_then(|p| p.get("notifications"))
            .and_then(|n| n.get("toolsListChanged"))
            .and_then(Value::as_bool)
            == Some(true);
        let honoured = wants && self.cfg.tools_list_changed;
        if honoured {
            self.listeners.push(id.clone());
        }
        let ack = json!({
            "_meta": { SUBSCRIPTION_ID: id.to_value() },
            "notifications": if honoured { json!({"toolsListChanged": true}) } else { json!({}) },
        });
        self.send(
            now,
            Message::notification("notifications/subscriptions/acknowledged", Some(ack)),
        );
    }

    fn capabilities(&self) -> Value {
        let mut caps = self.cfg.capabilities.clone();
        caps.insert(
            "tools".into(),
            json!({ "listChanged": self.cfg.tools_list_changed }),
        );
        Value::Object(caps)
    }

    fn discover(&self) -> Value {
        let supported: Vec<&str> = self.cfg.versions.iter().map(|v| v.as_str()).collect();
        let mut r = json!({
            "supportedVersions": supported,
            "capabilities": self.capabilities(),
            "ttlMs": 0,
            "cacheScope": "public",
        });
        if let (Some(i), Value::Object(o)) = (&self.cfg.instructions, &mut r) {
            o.insert("instructions".into(), Value::from(i.as_str()));
        }
        r
    }

    fn list(&self, params: Option<&Value>) -> Result<Value, RpcError> {
        let start = match params.and_then(|p| p.get("cursor")) {
            None | Some(Value::Null) => 0,
            Some(Value::String(c)) => parse_cursor(c)
                .filter(|&n| n < self.tools.len())
                .ok_or_else(|| {
                    RpcError::new(code::INVALID_PARAMS, format!("invalid cursor {c:?}"))
                })?,
            Some(_) => {
                return Err(RpcError::new(
                    code::INVALID_PARAMS,
                    "cursor must be a string",
                ));
            }
        };
        let size = self.cfg.page_size.max(1);
        let end = (start + size).min(self.tools.len());
        let mut r = json!({ "tools": self.tools.get(start..end).unwrap_or_default() });
        if end < self.tools.len()
            && let Value::Object(o) = &mut r
        {
            o.insert("nextCursor".into(), Value::from(format!("page-{end}")));
        }
        Ok(r)
    }

    fn call(
        &mut self,
        id: &RequestId,
        params: Option<&Value>,
        version: ProtocolVersion,
    ) -> Result<(), RpcError> {
        let name = params
            .and_then(|p| p.get("name"))
            .and_then(Value::as_str)
            .ok_or_else(|| RpcError::new(code::INVALID_PARAMS, "tools/call needs params.name"))?;
        if !self.tools.iter().any(|t| t.name == name) {
            return Err(RpcError::new(
                code::INVALID_PARAMS,
                format!("Unknown tool: {name}"),
            ));
        }
        let arguments = match params.and_then(|p| p.get("arguments")) {
            None | Some(Value::Null) => JsonObject::new(),
            Some(Value::Object(o)) => o.clone(),
            Some(_) => {
                return Err(RpcError::new(
                    code::INVALID_PARAMS,
                    "arguments must be an object",
                ));
            }
        };
        if self.open.contains_key(id) {
            return Err(RpcError::new(
                code::INVALID_REQUEST,
                format!("request id {id} is already in use"),
            ));
        }
        let progress_token = params
            .and_then(|p| p.get("_meta"))
            .and_then(|m| m.get("progressToken"))
            .cloned();
        self.open.insert(id.clone(), OpenCall { version });
        self.events.push_back(ServerEvent::CallTool {
            id: id.clone(),
            name: name.to_owned(),
            arguments,
            progress_token,
        });
        Ok(())
    }

    /// Adds what 2026-07-28 requires on every result (`resultType`, `_meta` server info).
    fn complete(&self, mut result: Value, version: ProtocolVersion) -> Value {
        if version.generation() != Generation::Stateless {
            return result;
        }
        if let Value::Object(o) = &mut result {
            o.entry("resultType")
                .or_insert_with(|| Value::from("complete"));
            if o.contains_key("tools") {
                o.entry("ttlMs").or_insert_with(|| Value::from(0));
                o.entry("cacheScope")
                    .or_insert_with(|| Value::from("public"));
            }
            let m = o
                .entry("_meta")
                .or_insert_with(|| Value::Object(Map::new()));
            if let Value::Object(m) = m {
                m.insert(meta::SERVER_INFO.into(), self.cfg.info.to_json());
            }
        }
        result
    }
}

/// `_meta` key naming the listen stream a notification belongs to.
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

fn parse_cursor(c: &str) -> Option<usize> {
    c.strip_prefix("page-")?.parse().ok()
}

fn unsupported(requested: &str, versions: &[ProtocolVersion]) -> RpcError {
    let supported: Vec<&str> = versions.iter().map(|v| v.as_str()).collect();
    RpcError {
        code: code::UNSUPPORTED_PROTOCOL_VERSION,
        message: format!("Unsupported protocol version: {requested:?}"),
        data: Some(json!({ "supported": supported, "requested": requested })),
    }
}
