//! The shared table of Streamable HTTP cases. Each [`Case`] is a scripted server
//! ([`Case::serve`]), what the client does ([`Step`]s) and a check of what happened.
//! Three runners play the same table: the machine alone under a virtual clock
//! (`crates/http/tests/it/cases.rs`), the native reqwest driver against an axum server
//! (`crates/transport/tests/it/http_cases.rs`) and the browser `fetch` executor in
//! headless Chromium (`crates/http/tests/it/wasm_cases.rs`). Pure data and functions: no
//! I/O, so it builds everywhere.

mod basic;
mod sessions;
mod streams;

use mcpg_core::client::{Outgoing, SendFailure};
use mcpg_core::jsonrpc::{Message, RequestId};
use serde_json::Value;

use crate::{HttpConfig, HttpEvent};

/// One request the scripted server received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    /// `GET`, `POST` or `DELETE`.
    pub method: String,
    /// Headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body as text.
    pub body: String,
    /// Whether the client dropped the answer before it ended.
    pub aborted: bool,
}

impl Seen {
    /// A header's value (name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        crate::headers::find(&self.headers, name)
    }

    /// The JSON-RPC method of the body, or `""`.
    pub fn rpc_method(&self) -> String {
        self.json()
            .get("method")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned()
    }

    /// The body as JSON (`null` when it is not).
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// As JSON, for the cases server's `/log` (browser runs read it back).
    pub fn to_value(&self) -> Value {
        let headers: Vec<Value> = self
            .headers
            .iter()
            .map(|(k, v)| serde_json::json!([k, v]))
            .collect();
        serde_json::json!({"method": self.method, "headers": headers, "body": self.body, "aborted": self.aborted})
    }

    /// Reads [`Seen::to_value`]'s form back (missing parts stay empty).
    pub fn from_value(v: &Value) -> Seen {
        let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
        let headers = v
            .get("headers")
            .and_then(Value::as_array)
            .map(|hs| {
                hs.iter()
                    .filter_map(|h| {
                        Some((
                            h.get(0)?.as_str()?.to_owned(),
                            h.get(1)?.as_str()?.to_owned(),
                        ))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Seen {
            method: text("method"),
            headers,
            body: text("body"),
            aborted: v.get("aborted").and_then(Value::as_bool).unwrap_or(false),
        }
    }
}

/// What the scripted server answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Headers.
    pub headers: Vec<(String, String)>,
    /// The body, in the chunks it is sent in.
    pub chunks: Vec<Vec<u8>>,
    /// Keep the response open after the chunks (until the client aborts).
    pub hang: bool,
}

impl Reply {
    /// A status with no body.
    pub fn status(status: u16) -> Self {
        Reply {
            status,
            headers: Vec::new(),
            chunks: Vec::new(),
            hang: false,
        }
    }

    /// 200 with a JSON body.
    pub fn json(body: impl Into<Vec<u8>>) -> Self {
        Reply::status(200)
            .header("content-type", "application/json")
            .chunk(body)
    }

    /// 200 with an event stream.
    pub fn sse(body: impl Into<Vec<u8>>) -> Self {
        Reply::status(200)
            .header("content-type", "text/event-stream")
            .chunk(body)
    }

    /// Adds a header.
    pub fn header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.into(), v.into()));
        self
    }

    /// Adds a body chunk.
    pub fn chunk(mut self, c: impl Into<Vec<u8>>) -> Self {
        self.chunks.push(c.into());
        self
    }

    /// Keeps the answer open.
    pub fn hanging(mut self) -> Self {
        self.hang = true;
        self
    }
}

/// What the client does, in order.
pub enum Step {
    /// Hand a frame to the machine.
    Send(Outgoing),
    /// End the session.
    Close,
    /// Wait (bounded) until the events so far satisfy this.
    Wait(fn(&[HttpEvent]) -> bool),
}

/// One case of the table.
pub struct Case {
    /// A short name (also the server path: `/cases/{name}`).
    pub name: &'static str,
    /// Bounds the case needs (small size limits, short retries).
    pub config: fn(&mut HttpConfig),
    /// The scripted server: this request, and what came before.
    pub serve: fn(&Seen, &[Seen]) -> Reply,
    /// What the client does.
    pub steps: fn() -> Vec<Step>,
    /// The verdict on the events and the requests the server saw.
    pub check: fn(&[HttpEvent], &[Seen]) -> Result<(), String>,
}

/// Every case.
pub fn all() -> Vec<Case> {
    let mut v = basic::cases();
    v.extend(sessions::cases());
    v.extend(streams::cases());
    v
}

/// A config for a case served at `url` (the server's base + `/cases/{name}`).
pub fn config(case: &Case, url: String) -> HttpConfig {
    let mut cfg = HttpConfig::new(url);
    cfg.default_retry = std::time::Duration::from_millis(20);
    (case.config)(&mut cfg);
    cfg
}

/// The case called `name`.
pub fn find(name: &str) -> Option<Case> {
    all().into_iter().find(|c| c.name == name)
}

/// Whether `head` (the first bytes of a dropped message) names request `id`.
pub(crate) fn names(head: &[u8], id: i64) -> bool {
    String::from_utf8_lossy(head).contains(&format!("\"id\":{id}"))
}

// ----- helpers for the table -----

fn keep(_: &mut HttpConfig) {}

/// A request stamped with `version`'s headers (as the core would).
pub(crate) fn request(id: i64, method: &str, params: Value, version: &str) -> Outgoing {
    let message = Message::request(RequestId::Number(id), method, Some(params));
    stamp(message, version)
}

pub(crate) fn notification(method: &str, version: &str) -> Outgoing {
    stamp(Message::notification(method, None), version)
}

fn stamp(message: Message, version: &str) -> Outgoing {
    let mut headers = Vec::new();
    if version >= "2025-06-18" && message.method() != Some("initialize") {
        headers.push(("MCP-Protocol-Version", version.to_owned()));
    }
    Outgoing {
        message,
        headers,
        param_headers: Vec::new(),
    }
}

/// A JSON-RPC result for `req` as the server's text.
pub(crate) fn result(req: &Seen, result: Value) -> String {
    serde_json::json!({"jsonrpc": "2.0", "id": req.json()["id"], "result": result}).to_string()
}

pub(crate) fn frames(events: &[HttpEvent]) -> Vec<&str> {
    events
        .iter()
        .filter_map(|e| match e {
            HttpEvent::Frame(f) => Some(f.as_str()),
            _ => None,
        })
        .collect()
}

pub(crate) fn failure(events: &[HttpEvent], id: i64) -> Option<&SendFailure> {
    events.iter().find_map(|e| match e {
        HttpEvent::SendFailed {
            id: RequestId::Number(n),
            failure,
        } if *n == id => Some(failure),
        _ => None,
    })
}

pub(crate) fn has_frame(events: &[HttpEvent], needle: &str) -> bool {
    frames(events).iter().any(|f| f.contains(needle))
}

pub(crate) fn closed(events: &[HttpEvent]) -> bool {
    events.iter().any(|e| matches!(e, HttpEvent::Closed(_)))
}

pub(crate) fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}
