//! The server role, sans-IO: enough to host a server inside the page (the embedded
//! demo) or natively over stdio. It negotiates both generations and pages every
//! list itself; what only the application knows (running a tool, reading a
//! resource, filling a prompt, completing an argument) it hands over as a
//! [`ServerEvent`] after checking the request, and the application answers when it
//! likes (now, or later for slow tools) through the `respond_*` methods.
//!
//! One file per concern: `asks` (the server asking the client: its own requests up
//! to 2025-11-25, `input_required` under 2026-07-28), `mrtr` (2026-07-28's
//! checked and sealed `input_required` rounds) with `request_state` (the seal), `dispatch` (requests,
//! negotiation, result stamping),
//! `respond` (the application's answers, tasks' among them: the application keeps
//! its tasks, the server checks calls against `execution.taskSupport` and hands on
//! `tasks/*`), `tasks_ext` (what the core's server does of the 2026-07-28 Tasks
//! extension: the declaration, the listing, `-32021`), `handlers` (the hook that keeps every
//! request beyond the handshake and the tool list out of a host's first load), `resources`, `prompts` (with
//! completions), `logging`, `listen` (list changes and resource updates, in both
//! generations), `paging` and `template` (RFC 6570).

mod asks;
mod config;
mod dispatch;
mod event;
mod handlers;
mod listen;
mod logging;
mod mrtr;
mod paging;
mod prompts;
mod request_state;
mod resources;
mod respond;
mod skills_dir;
mod tasks_ext;
pub mod template;

pub use asks::{ASK_TIMEOUT, AskOutcome, CallContext, CannotAsk, declares};
pub use config::{PromptFeatures, ResourceFeatures, SKILLS_EXTENSION, ServerConfig};
pub use event::{CompletionTarget, ServerEvent};
pub use handlers::RequestHandlers;
pub use mrtr::{BadInputResponse, InputRequest, InputRequiredError, RETRYABLE};
pub use request_state::{STATE_LIFETIME, StateError, StateKey};
pub use resources::resource_not_found;
pub use respond::{MAX_COMPLETIONS, blob_contents, text_contents};
pub use tasks_ext::declares_tasks_extension;

use std::collections::{HashMap, VecDeque};

use serde_json::Value;

use crate::client::{Direction, WireEntry};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::jsonrpc::{Body, Message, RequestId, RpcError, code, decode_frame};
use crate::model::{Implementation, JsonObject, LoggingLevel, Tool};
use crate::time::Timestamp;
use crate::version::ProtocolVersion;

use listen::Listener;

/// A request the application has yet to answer.
#[derive(Clone, Debug)]
struct OpenCall {
    /// Revision, client capabilities and a retry's answers (stateless requests carry their own).
    ctx: CallContext,
    /// Whether its result is cacheable under 2026-07-28 (`ttlMs`, `cacheScope`).
    cacheable: bool,
    /// The 2026-07-28 per-request log level, if the client set one.
    log_level: Option<LoggingLevel>,
    /// Whether it is a 2026-07-28 request an `InputRequiredResult` may answer
    /// ([`mrtr::RETRYABLE`]).
    retryable: bool,
    /// What a sealed `requestState` is bound to: for a retryable request, when
    /// the server had a [`StateKey`] as it arrived.
    binding: Option<[u8; 32]>,
}

/// One request the [`RequestHandlers`] take, as the dispatch read it.
struct Incoming<'a> {
    id: &'a RequestId,
    method: &'a str,
    params: Option<&'a Value>,
    /// The revision it runs under.
    version: ProtocolVersion,
    /// The 2026-07-28 per-request log level, if the client set one.
    log_level: Option<LoggingLevel>,
    /// When it arrived.
    now: Timestamp,
}

/// The server side of one MCP connection.
#[derive(Debug)]
pub struct Server {
    cfg: ServerConfig,
    tools: Vec<Tool>,
    /// `Resource` objects, in `resources/list` order.
    resources: Vec<Value>,
    /// `ResourceTemplate` objects, in `resources/templates/list` order.
    templates: Vec<Value>,
    /// `Prompt` objects, in `prompts/list` order.
    prompts: Vec<Value>,
    /// URIs read like resources but never listed (an MCP Apps view, found through
    /// its tool's `_meta.ui.resourceUri`: the spec lets a server leave it out).
    unlisted: Vec<String>,
    /// Skill entries (SEP-2640), in `skills/list` order.
    skills: Vec<Value>,
    /// The revision agreed by `initialize`, if that generation is in use.
    session: Option<ProtocolVersion>,
    initialized: bool,
    /// `clientInfo` from `initialize`, reported once `initialized` arrives.
    client_info: Option<Implementation>,
    /// `capabilities` from `initialize` (what the server may ask of the client).
    client_caps: JsonObject,
    /// Requests the server sent the client and waits on.
    asked: HashMap<RequestId, asks::Asked>,
    /// The last server request id handed out.
    next_ask: u64,
    /// The level from `logging/setLevel` (initialize generation).
    log_level: Option<LoggingLevel>,
    /// URIs from `resources/subscribe` (initialize generation); a few at most, so a
    /// `Vec` (a `BTreeSet<String>` costs the page more code than it saves).
    subscribed: Vec<String>,
    open: HashMap<RequestId, OpenCall>,
    /// Open `subscriptions/listen` streams (2026-07-28).
    listeners: Vec<Listener>,
    /// The code for every request beyond the handshake and the tool list, once
    /// handed in ([`RequestHandlers`]).
    handlers: Option<RequestHandlers>,
    outbox: VecDeque<Message>,
    events: VecDeque<ServerEvent>,
    /// Seals and opens 2026-07-28 `requestState` ([`Server::set_state_key`]).
    sealer: Option<request_state::Sealer>,
}

impl Server {
    /// A server offering `tools` (add resources and prompts with the `with_*` methods).
    pub fn new(cfg: ServerConfig, tools: Vec<Tool>) -> Self {
        let mut server = Self::without_request_handlers(cfg, tools);
        server.set_request_handlers(RequestHandlers::ALL);
        server
    }

    /// The same without its [`RequestHandlers`]: until
    /// [`Server::set_request_handlers`], the handshake, `ping`, the tool list and a
    /// listen stream work, and a tool call, or a request about resources, prompts,
    /// completions, subscriptions or the log level that the configuration offers,
    /// is a JSON-RPC error saying that its code is not loaded yet.
    pub fn without_request_handlers(cfg: ServerConfig, tools: Vec<Tool>) -> Self {
        Server {
            cfg,
            tools,
            resources: Vec::new(),
            templates: Vec::new(),
            prompts: Vec::new(),
            unlisted: Vec::new(),
            skills: Vec::new(),
            session: None,
            initialized: false,
            client_info: None,
            client_caps: JsonObject::new(),
            asked: HashMap::new(),
            next_ask: 0,
            log_level: None,
            subscribed: Vec::new(),
            open: HashMap::new(),
            listeners: Vec::new(),
            handlers: None,
            outbox: VecDeque::new(),
            events: VecDeque::new(),
            sealer: None,
        }
    }

    /// Sets the resources and templates offered (`Resource` and `ResourceTemplate`
    /// JSON objects) before any client connects.
    pub fn with_resources(mut self, resources: Vec<Value>, templates: Vec<Value>) -> Self {
        self.resources = resources;
        self.templates = templates;
        self
    }

    /// Sets the prompts offered (`Prompt` JSON objects) before any client connects.
    pub fn with_prompts(mut self, prompts: Vec<Value>) -> Self {
        self.prompts = prompts;
        self
    }

    /// The configuration.
    pub fn config(&self) -> &ServerConfig {
        &self.cfg
    }

    /// The current tools.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Feeds one received frame.
    pub fn handle_text(&mut self, now: Timestamp, text: &str) {
        let frame = decode_frame(text);
        self.events.push_back(ServerEvent::Wire(WireEntry {
            direction: Direction::Received,
            at: now,
            raw: frame.raw.clone(),
            message: frame.single().cloned(),
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
            message: Some(msg.clone()),
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
                "notifications/cancelled" => self.cancelled(params.as_ref()),
                _ => self
                    .events
                    .push_back(ServerEvent::Notification { method, params }),
            },
            Body::Response { id, result } if self.asked.contains_key(&id) => {
                self.on_answer(&id, AskOutcome::Result(result));
            }
            Body::Error {
                id: Some(id),
                error,
            } if self.asked.contains_key(&id) => self.on_answer(&id, AskOutcome::Error(error)),
            Body::Response { .. } | Body::Error { .. } => {
                let d = Diagnostic::new(
                    Rule::UnknownResponseId,
                    Severity::Warning,
                    "the client sent a response to no request this server is waiting on",
                )
                .with_raw(msg.raw_shared());
                self.events.push_back(ServerEvent::Diagnostic(d));
            }
        }
    }

    /// `notifications/cancelled`: stops an open request, or closes a listen stream.
    fn cancelled(&mut self, params: Option<&Value>) {
        let Some(id) = params
            .and_then(|p| p.get("requestId"))
            .and_then(RequestId::from_value)
        else {
            return;
        };
        let reason = params
            .and_then(|p| p.get("reason"))
            .and_then(Value::as_str)
            .map(str::to_owned);
        self.listeners.retain(|l| l.id != id);
        if self.open.remove(&id).is_some() {
            self.events.push_back(ServerEvent::Cancelled { id, reason });
        }
    }
}
