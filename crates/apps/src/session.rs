//! One view's dialogue with the host, sans-IO: the view's messages in
//! ([`AppSession::handle_view`]), the host's out ([`AppSession::poll_to_view`]),
//! what the page must do as [`AppEvent`]s, time passed in. It keeps the order rules
//! (nothing to the view before `ui/notifications/initialized`; `tool-input` before
//! `tool-result`; teardown last), refuses a call to a tool the app may not call,
//! checks every link before it is offered, and drops a flood.

use std::collections::{BTreeMap, VecDeque};

use mcpg_core::Timestamp;
use mcpg_core::jsonrpc::{Body, Message, RequestId, RpcError};
use mcpg_core::model::Tool;
use serde_json::{Value, json};

use crate::meta::{ToolUi, Visibility};

/// The revision of MCP Apps the host speaks.
pub const APPS_VERSION: &str = "2026-01-26";
/// How long a view has to send `ui/initialize` and `initialized`.
pub const INIT_MS: u64 = 10_000;
/// How long the host waits for the view's answer to `ui/resource-teardown`.
pub const TEARDOWN_MS: u64 = 2_000;
/// The most messages a view may send in [`FLOOD_WINDOW_MS`]; more are dropped.
pub const FLOOD_LIMIT: u32 = 100;
/// The window [`FLOOD_LIMIT`] counts in.
pub const FLOOD_WINDOW_MS: u64 = 1_000;
/// The JSON-RPC error code for a refusal of the host's own (the spec's example).
const REFUSED: i64 = -32000;

/// How the view is displayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplayMode {
    /// In the step card.
    Inline,
    /// Over the whole page.
    Fullscreen,
}

impl DisplayMode {
    /// As the spec writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            DisplayMode::Inline => "inline",
            DisplayMode::Fullscreen => "fullscreen",
        }
    }

    fn parse(s: &str) -> Option<DisplayMode> {
        match s {
            "inline" => Some(DisplayMode::Inline),
            "fullscreen" => Some(DisplayMode::Fullscreen),
            _ => None,
        }
    }
}

/// Where the dialogue stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the view's `ui/initialize`.
    Loading,
    /// Answered `ui/initialize`; waiting for `initialized`.
    Initializing,
    /// Talking.
    Ready,
    /// `ui/resource-teardown` sent; waiting for its answer.
    TearingDown,
    /// Over: the frame may go.
    Gone,
}

/// A request of the view's the host passed on, to answer with
/// [`AppSession::server_answered`] or [`AppSession::link_decided`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Ticket(pub u32);

/// What the view asks of the MCP server through the host.
#[derive(Clone, Debug, PartialEq)]
pub enum ServerAsk {
    /// `tools/call` of a tool whose visibility includes the app.
    CallTool {
        /// The tool.
        name: String,
        /// Its arguments.
        arguments: Value,
    },
    /// `resources/read`.
    ReadResource {
        /// The resource.
        uri: String,
    },
}

/// Something the view did that the host refused or dropped.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Not one JSON-RPC message.
    #[error("not a JSON-RPC message")]
    Malformed,
    /// A request or notification before the handshake.
    #[error("{0} before ui/initialize and initialized")]
    BeforeInitialized(String),
    /// `tools/call` of a tool the server did not list.
    #[error("tools/call of {0}, a tool the server did not list")]
    UnknownTool(String),
    /// `tools/call` of a tool only the model may call.
    #[error("tools/call of {0}, whose visibility does not include \"app\"")]
    NotForApps(String),
    /// A method the host does not offer views.
    #[error("{0} is not a method the host offers views")]
    UnknownMethod(String),
    /// A link that fails the URL rule.
    #[error("ui/open-link to a URL the page will not open: {0}")]
    BadLink(String),
    /// Over [`FLOOD_LIMIT`] messages in a window: the rest were dropped.
    #[error("more than {FLOOD_LIMIT} messages in {FLOOD_WINDOW_MS} ms: the rest are dropped")]
    Flood,
    /// Malformed parameters.
    #[error("{0}: bad parameters")]
    BadParams(String),
}

/// Why a view failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// No `ui/initialize` and `initialized` within [`INIT_MS`].
    #[error("the view did not finish ui/initialize within {INIT_MS} ms")]
    NeverInitialized,
}

/// What the page must do or show.
#[derive(Clone, Debug, PartialEq)]
pub enum AppEvent {
    /// A message crossed between the view and the host (the wire log's app ↔ host
    /// lane), in its exact text.
    Wire {
        /// From the view (else to it).
        from_view: bool,
        /// The text.
        raw: String,
    },
    /// The handshake is done: held notifications were sent.
    Ready,
    /// Pass this to the MCP server; answer with [`AppSession::server_answered`].
    ToServer {
        /// Whom to answer.
        ticket: Ticket,
        /// What.
        ask: ServerAsk,
    },
    /// The view asks to open this URL (already checked): offer it, open it only on
    /// the learner's click, then [`AppSession::link_decided`].
    OpenLink {
        /// Whom to answer.
        ticket: Ticket,
        /// The checked URL.
        url: String,
    },
    /// `ui/message`: add to the conversation.
    Message {
        /// `user`, normally.
        role: String,
        /// The content block(s).
        content: Value,
    },
    /// `ui/update-model-context`: the context the model gets next turn (replaces
    /// the last).
    ModelContext {
        /// Content blocks.
        content: Option<Value>,
        /// Structured content.
        structured: Option<Value>,
    },
    /// The view's content size changed (pixels, clamped).
    Size {
        /// Width.
        width: Option<u32>,
        /// Height.
        height: Option<u32>,
    },
    /// The display mode changed (the view asked, both allow it).
    Display(DisplayMode),
    /// `notifications/message` from the view.
    Log {
        /// Its level.
        level: String,
        /// Its data.
        data: Value,
    },
    /// The host refused or dropped something the view sent.
    Refused(Refusal),
    /// The view failed.
    Failed(Failure),
    /// The dialogue is over: remove the frame.
    Gone,
}

/// What the host tells a view about itself in `ui/initialize`'s answer.
#[derive(Clone, Debug, PartialEq)]
pub struct HostSetup {
    /// `hostInfo`.
    pub name: String,
    /// `hostInfo.version`.
    pub version: String,
    /// `light` or `dark`.
    pub theme: &'static str,
    /// BCP 47.
    pub locale: String,
    /// The container's width in pixels (fixed).
    pub width: u32,
    /// The container's height limit in pixels (the view sizes itself below it).
    pub max_height: u32,
}

/// One view's dialogue.
#[derive(Debug)]
pub struct AppSession {
    phase: Phase,
    host: HostSetup,
    /// The tool whose view this is, and the call's id.
    tool: Tool,
    call_id: Option<RequestId>,
    /// The approved CSP, as the answer reports it.
    csp: Value,
    /// The server's tools, by name: who may call them.
    tools: BTreeMap<String, Visibility>,
    display: DisplayMode,
    /// The display modes the view declared (empty: none said).
    app_modes: Vec<DisplayMode>,
    /// Host → view messages waiting for `initialized`.
    held: Vec<String>,
    to_view: VecDeque<String>,
    events: VecDeque<AppEvent>,
    /// Requests of the view's passed on, by ticket: the view's id.
    pending: BTreeMap<Ticket, RequestId>,
    next_ticket: u32,
    next_id: i64,
    /// The teardown request's id.
    teardown: Option<i64>,
    deadline: Option<Timestamp>,
    window_start: Timestamp,
    window_count: u32,
}

impl AppSession {
    /// A view for `tool` (called as request `call_id`), from a server whose tools
    /// are `server_tools`, with the CSP the page applies: created when the frame is.
    pub fn new(
        now: Timestamp,
        host: HostSetup,
        tool: Tool,
        call_id: Option<RequestId>,
        csp: &crate::Csp,
        server_tools: &[Tool],
    ) -> AppSession {
        let tools = server_tools
            .iter()
            .map(|t| (t.name.clone(), ToolUi::of(t).visibility))
            .collect();
        let mut c = serde_json::Map::new();
        for (k, v) in [
            ("connectDomains", &csp.connect),
            ("resourceDomains", &csp.resources),
            ("frameDomains", &csp.frames),
            ("baseUriDomains", &csp.base_uris),
        ] {
            if !v.is_empty() {
                c.insert(k.into(), json!(v));
            }
        }
        AppSession {
            phase: Phase::Loading,
            host,
            tool,
            call_id,
            csp: Value::Object(c),
            tools,
            display: DisplayMode::Inline,
            app_modes: Vec::new(),
            held: Vec::new(),
            to_view: VecDeque::new(),
            events: VecDeque::new(),
            pending: BTreeMap::new(),
            next_ticket: 0,
            next_id: 0,
            teardown: None,
            deadline: Some(Timestamp::from_millis(now.as_millis() + INIT_MS)),
            window_start: now,
            window_count: 0,
        }
    }

    /// Where the dialogue stands.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// How the view is displayed.
    pub fn display(&self) -> DisplayMode {
        self.display
    }

    /// One message from the view (its `postMessage` data, as JSON text).
    pub fn handle_view(&mut self, now: Timestamp, raw: &str) {
        if self.phase == Phase::Gone {
            return;
        }
        if !self.count(now) {
            return;
        }
        self.events.push_back(AppEvent::Wire {
            from_view: true,
            raw: raw.to_owned(),
        });
        let Ok(msg) = Message::decode(raw) else {
            self.events.push_back(AppEvent::Refused(Refusal::Malformed));
            return;
        };
        match msg.into_body() {
            Body::Request { id, method, params } => self.on_request(id, &method, params),
            Body::Notification { method, params } => self.on_notification(&method, params),
            Body::Response { id, .. } | Body::Error { id: Some(id), .. } => self.on_answer(&id),
            Body::Error { id: None, .. } => {}
        }
    }

    /// Counts a message in the flood window; false when it must be dropped.
    fn count(&mut self, now: Timestamp) -> bool {
        if now.as_millis() >= self.window_start.as_millis() + FLOOD_WINDOW_MS {
            self.window_start = now;
            self.window_count = 0;
        }
        self.window_count += 1;
        if self.window_count == FLOOD_LIMIT + 1 {
            self.events.push_back(AppEvent::Refused(Refusal::Flood));
        }
        self.window_count <= FLOOD_LIMIT
    }

    fn on_request(&mut self, id: RequestId, method: &str, params: Option<Value>) {
        let params = params.unwrap_or(Value::Null);
        match (method, self.phase) {
            ("ui/initialize", Phase::Loading) => self.initialize(id, &params),
            ("ping", _) => self.answer(id, json!({})),
            (_, Phase::Loading | Phase::Initializing) => {
                self.refuse(id, Refusal::BeforeInitialized(method.to_owned()));
            }
            ("tools/call", _) => {
                let Some(name) = params.get("name").and_then(Value::as_str) else {
                    return self.refuse(id, Refusal::BadParams(method.to_owned()));
                };
                match self.tools.get(name) {
                    None => self.refuse(id, Refusal::UnknownTool(name.to_owned())),
                    Some(v) if !v.app => self.refuse(id, Refusal::NotForApps(name.to_owned())),
                    Some(_) => {
                        let ask = ServerAsk::CallTool {
                            name: name.to_owned(),
                            arguments: params.get("arguments").cloned().unwrap_or(json!({})),
                        };
                        self.pass_on(id, ask);
                    }
                }
            }
            ("resources/read", _) => match params.get("uri").and_then(Value::as_str) {
                Some(uri) => self.pass_on(
                    id,
                    ServerAsk::ReadResource {
                        uri: uri.to_owned(),
                    },
                ),
                None => self.refuse(id, Refusal::BadParams(method.to_owned())),
            },
            ("ui/open-link", _) => {
                let raw = params.get("url").and_then(Value::as_str).unwrap_or("");
                match mcpg_safe_url::check(raw) {
                    Ok(checked) => {
                        let ticket = self.ticket(id);
                        self.events.push_back(AppEvent::OpenLink {
                            ticket,
                            url: checked.as_str().to_owned(),
                        });
                    }
                    Err(r) => self.refuse(id, Refusal::BadLink(format!("{raw:?} ({r})"))),
                }
            }
            ("ui/message", _) => {
                let role = params.get("role").and_then(Value::as_str).unwrap_or("user");
                match params.get("content") {
                    Some(content) if role == "user" => {
                        self.events.push_back(AppEvent::Message {
                            role: role.to_owned(),
                            content: content.clone(),
                        });
                        self.answer(id, json!({}));
                    }
                    _ => self.refuse(id, Refusal::BadParams(method.to_owned())),
                }
            }
            ("ui/update-model-context", _) => {
                self.events.push_back(AppEvent::ModelContext {
                    content: params.get("content").cloned(),
                    structured: params.get("structuredContent").cloned(),
                });
                self.answer(id, json!({}));
            }
            ("ui/request-display-mode", _) => {
                let asked = params
                    .get("mode")
                    .and_then(Value::as_str)
                    .and_then(DisplayMode::parse);
                if let Some(mode) = asked
                    && mode != self.display
                    && (self.app_modes.is_empty() || self.app_modes.contains(&mode))
                {
                    self.display = mode;
                    self.events.push_back(AppEvent::Display(mode));
                    self.send_notification(
                        "ui/notifications/host-context-changed",
                        json!({"displayMode": mode.as_str()}),
                    );
                }
                self.answer(id, json!({"mode": self.display.as_str()}));
            }
            _ => self.refuse(id, Refusal::UnknownMethod(method.to_owned())),
        }
    }

    fn on_notification(&mut self, method: &str, params: Option<Value>) {
        let params = params.unwrap_or(Value::Null);
        match method {
            "ui/notifications/initialized" if self.phase == Phase::Initializing => {
                self.phase = Phase::Ready;
                self.deadline = None;
                for raw in std::mem::take(&mut self.held) {
                    self.push_to_view(raw);
                }
                self.events.push_back(AppEvent::Ready);
            }
            "ui/notifications/initialized" => {
                self.events
                    .push_back(AppEvent::Refused(Refusal::BeforeInitialized(
                        method.to_owned(),
                    )));
            }
            "ui/notifications/size-changed" => {
                let dim = |k: &str| {
                    params
                        .get(k)
                        .and_then(Value::as_f64)
                        .filter(|v| v.is_finite() && *v >= 0.0)
                        .map(|v| v.clamp(1.0, 4_000.0) as u32)
                };
                self.events.push_back(AppEvent::Size {
                    width: dim("width"),
                    height: dim("height"),
                });
            }
            "notifications/message" => self.events.push_back(AppEvent::Log {
                level: params
                    .get("level")
                    .and_then(Value::as_str)
                    .unwrap_or("info")
                    .to_owned(),
                data: params.get("data").cloned().unwrap_or(Value::Null),
            }),
            other => self
                .events
                .push_back(AppEvent::Refused(Refusal::UnknownMethod(other.to_owned()))),
        }
    }

    fn on_answer(&mut self, id: &RequestId) {
        if self.phase == Phase::TearingDown
            && self.teardown.map(RequestId::Number).as_ref() == Some(id)
        {
            self.gone();
        }
    }

    fn initialize(&mut self, id: RequestId, params: &Value) {
        self.app_modes = params
            .pointer("/appCapabilities/availableDisplayModes")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .filter_map(DisplayMode::parse)
                    .collect()
            })
            .unwrap_or_default();
        let mut tool_info = json!({"tool": self.tool.to_json()});
        if let Some(call) = &self.call_id {
            tool_info["id"] = call.to_value();
        }
        let result = json!({
            "protocolVersion": APPS_VERSION,
            "hostInfo": {"name": self.host.name, "version": self.host.version},
            "hostCapabilities": {
                "openLinks": {},
                "serverTools": {},
                "serverResources": {},
                "logging": {},
                "sandbox": {"csp": self.csp},
            },
            "hostContext": {
                "toolInfo": tool_info,
                "theme": self.host.theme,
                "displayMode": self.display.as_str(),
                "availableDisplayModes": ["inline", "fullscreen"],
                "containerDimensions": {"width": self.host.width, "maxHeight": self.host.max_height},
                "locale": self.host.locale,
                "platform": "web",
                "userAgent": self.host.name,
            },
        });
        self.phase = Phase::Initializing;
        self.answer(id, result);
    }

    /// The complete arguments of the call (sent once `initialized` has come).
    pub fn tool_input(&mut self, arguments: &Value) {
        self.send_notification(
            "ui/notifications/tool-input",
            json!({"arguments": arguments}),
        );
    }

    /// The call's result (a `CallToolResult`).
    pub fn tool_result(&mut self, result: &Value) {
        self.send_notification("ui/notifications/tool-result", result.clone());
    }

    /// The call was cancelled.
    pub fn tool_cancelled(&mut self, reason: &str) {
        self.send_notification("ui/notifications/tool-cancelled", json!({"reason": reason}));
    }

    /// The server's answer to the view's request `ticket` (a result, or the
    /// JSON-RPC error it sent, or one of the host's).
    pub fn server_answered(&mut self, ticket: Ticket, outcome: Result<Value, RpcError>) {
        let Some(id) = self.pending.remove(&ticket) else {
            return;
        };
        match outcome {
            Ok(result) => self.answer(id, result),
            Err(e) => self.send_raw(Message::error(Some(id), e).raw().to_owned()),
        }
    }

    /// The learner opened the link `ticket` offered, or dismissed it.
    pub fn link_decided(&mut self, ticket: Ticket, opened: bool) {
        let Some(id) = self.pending.remove(&ticket) else {
            return;
        };
        if opened {
            self.answer(id, json!({}));
        } else {
            self.send_raw(
                Message::error(
                    Some(id),
                    RpcError::new(REFUSED, "Link opening denied by user"),
                )
                .raw()
                .to_owned(),
            );
        }
    }

    /// The host removes the view (reset, a new loop, the page closing): a view that
    /// finished the handshake is asked first, and has [`TEARDOWN_MS`] to answer.
    pub fn teardown(&mut self, now: Timestamp, reason: &str) {
        match self.phase {
            Phase::Ready => {
                self.next_id += 1;
                let id = self.next_id;
                self.teardown = Some(id);
                self.phase = Phase::TearingDown;
                self.deadline = Some(Timestamp::from_millis(now.as_millis() + TEARDOWN_MS));
                self.send_raw(
                    Message::request(
                        RequestId::Number(id),
                        "ui/resource-teardown",
                        Some(json!({"reason": reason})),
                    )
                    .raw()
                    .to_owned(),
                );
            }
            Phase::TearingDown | Phase::Gone => {}
            Phase::Loading | Phase::Initializing => self.gone(),
        }
    }

    /// Time passed.
    pub fn handle_timeout(&mut self, now: Timestamp) {
        let Some(d) = self.deadline else { return };
        if now < d {
            return;
        }
        match self.phase {
            Phase::Loading | Phase::Initializing => {
                self.events
                    .push_back(AppEvent::Failed(Failure::NeverInitialized));
                self.gone();
            }
            Phase::TearingDown => self.gone(),
            Phase::Ready | Phase::Gone => self.deadline = None,
        }
    }

    /// The next deadline.
    pub fn poll_timeout(&self) -> Option<Timestamp> {
        self.deadline
    }

    /// The next message for the view (its `postMessage` data, as JSON text).
    pub fn poll_to_view(&mut self) -> Option<String> {
        self.to_view.pop_front()
    }

    /// The next event.
    pub fn poll_event(&mut self) -> Option<AppEvent> {
        self.events.pop_front()
    }

    fn gone(&mut self) {
        self.phase = Phase::Gone;
        self.deadline = None;
        self.held.clear();
        self.pending.clear();
        self.events.push_back(AppEvent::Gone);
    }

    fn ticket(&mut self, id: RequestId) -> Ticket {
        self.next_ticket += 1;
        let t = Ticket(self.next_ticket);
        self.pending.insert(t, id);
        t
    }

    fn pass_on(&mut self, id: RequestId, ask: ServerAsk) {
        let ticket = self.ticket(id);
        self.events.push_back(AppEvent::ToServer { ticket, ask });
    }

    fn answer(&mut self, id: RequestId, result: Value) {
        self.send_raw(Message::response(id, result).raw().to_owned());
    }

    fn refuse(&mut self, id: RequestId, why: Refusal) {
        let code = match why {
            Refusal::UnknownMethod(_) => mcpg_core::jsonrpc::code::METHOD_NOT_FOUND,
            Refusal::BadParams(_) | Refusal::UnknownTool(_) => {
                mcpg_core::jsonrpc::code::INVALID_PARAMS
            }
            _ => REFUSED,
        };
        let raw = Message::error(Some(id), RpcError::new(code, why.to_string()))
            .raw()
            .to_owned();
        self.events.push_back(AppEvent::Refused(why));
        self.send_raw(raw);
    }

    /// A notification: held until `initialized`.
    fn send_notification(&mut self, method: &str, params: Value) {
        let raw = Message::notification(method, Some(params)).raw().to_owned();
        match self.phase {
            Phase::Loading | Phase::Initializing => self.held.push(raw),
            Phase::Ready => self.push_to_view(raw),
            Phase::TearingDown | Phase::Gone => {}
        }
    }

    /// An answer: sent at once (the view asked).
    fn send_raw(&mut self, raw: String) {
        if self.phase != Phase::Gone {
            self.push_to_view(raw);
        }
    }

    fn push_to_view(&mut self, raw: String) {
        self.events.push_back(AppEvent::Wire {
            from_view: false,
            raw: raw.clone(),
        });
        self.to_view.push_back(raw);
    }
}
