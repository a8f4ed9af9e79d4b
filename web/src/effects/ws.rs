//! Bridge servers: a WebSocket to `/ws` (subprotocol `mcp`, one JSON-RPC message per
//! text frame) and an `EventSource` on `/api/events` for the process's stderr and
//! exit, which never mix with MCP.

use wasm_bindgen::JsCast as _;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, Event, EventSource, MessageEvent, WebSocket};

use super::session::{self, with_session};
use crate::state::LogRow;

/// An open (or opening) WebSocket and its side channel.
pub struct WsLink {
    ws: WebSocket,
    events: Option<EventSource>,
    open: bool,
    queue: Vec<String>,
    // Kept alive for as long as the socket may call them.
    _on_open: Closure<dyn FnMut(Event)>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
    _on_side: Option<Closure<dyn FnMut(MessageEvent)>>,
}

impl std::fmt::Debug for WsLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WsLink")
            .field("open", &self.open)
            .finish_non_exhaustive()
    }
}

fn base(scheme_ws: bool) -> Option<String> {
    let loc = web_sys::window()?.location();
    let host = loc.host().ok()?;
    let secure = loc.protocol().ok()? == "https:";
    let scheme = match (scheme_ws, secure) {
        (true, true) => "wss",
        (true, false) => "ws",
        (false, true) => "https",
        (false, false) => "http",
    };
    Some(format!("{scheme}://{host}"))
}

/// Percent-encodes a query value (names and tokens are plain, but be safe).
pub fn encode(s: &str) -> String {
    js_sys::encode_uri_component(s).into()
}

impl WsLink {
    /// Opens `/ws?server=NAME` and its side channel for session `generation`.
    pub fn open(generation: u64, server: &str, token: &str) -> Result<WsLink, String> {
        let channel = super::clock::channel_id();
        let root = base(true).ok_or("the page has no location")?;
        let url = format!(
            "{root}/ws?server={}&channel={}&token={}",
            encode(server),
            encode(&channel),
            encode(token)
        );
        let ws = WebSocket::new_with_str(&url, "mcp")
            .map_err(|_| format!("cannot open a WebSocket to the bridge for {server}"))?;
        let on_open = Closure::<dyn FnMut(Event)>::new(move |_| {
            with_session(Some(generation), |s| {
                if let session::Link::Ws(l) = &mut s.link {
                    l.open = true;
                    for text in std::mem::take(&mut l.queue) {
                        // A failed send shows up as a close event.
                        let _ = l.ws.send_with_str(&text);
                    }
                }
            });
        });
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(text) = e.data().as_string() {
                with_session(Some(generation), |s| s.receive(&text));
            }
        });
        let on_close = Closure::<dyn FnMut(CloseEvent)>::new(move |e: CloseEvent| {
            let why = if e.reason().is_empty() {
                format!("the bridge closed the connection (code {})", e.code())
            } else {
                format!(
                    "the bridge closed the connection: {} (code {})",
                    e.reason(),
                    e.code()
                )
            };
            with_session(Some(generation), |s| s.closed(&why));
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        let side_url = format!(
            "{}/api/events?channel={}&token={}",
            base(false).unwrap_or_default(),
            encode(&channel),
            encode(token)
        );
        let (events, on_side) = match EventSource::new(&side_url) {
            Ok(es) => {
                let cb = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    if let Some(text) = e.data().as_string() {
                        with_session(Some(generation), |s| s.side_event(&text));
                    }
                });
                es.set_onmessage(Some(cb.as_ref().unchecked_ref()));
                (Some(es), Some(cb))
            }
            Err(_) => (None, None),
        };
        Ok(WsLink {
            ws,
            events,
            open: false,
            queue: Vec::new(),
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
            _on_side: on_side,
        })
    }

    /// Sends one frame (queued until the socket opens).
    pub fn send(&mut self, raw: &str) {
        if self.open {
            let _ = self.ws.send_with_str(raw);
        } else {
            self.queue.push(raw.to_owned());
        }
    }
}

impl Drop for WsLink {
    fn drop(&mut self) {
        // Detach first: the closures die with this struct.
        self.ws.set_onopen(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
        let _ = self.ws.close();
        if let Some(es) = &self.events {
            es.set_onmessage(None);
            es.close();
        }
    }
}

/// One side-channel event (`{type: spawned|stderr|exit|error|dropped, ...}`) as a log row.
pub fn side_row(seq: u32, text: &str) -> LogRow {
    let v: serde_json::Value = serde_json::from_str(text).unwrap_or_default();
    let s = |k: &str| v.get(k).and_then(serde_json::Value::as_str).unwrap_or("");
    let n = |k: &str| v.get(k).and_then(serde_json::Value::as_i64);
    match s("type") {
        "stderr" => LogRow::Stderr {
            seq,
            line: s("line").to_owned(),
        },
        "spawned" => LogRow::Note {
            seq,
            text: format!(
                "the bridge started {} (pid {})",
                s("server"),
                n("pid").unwrap_or(0)
            ),
        },
        "exit" => LogRow::Note {
            seq,
            text: match (n("code"), n("signal")) {
                (Some(c), _) => format!("the server process exited with code {c}"),
                (None, Some(sig)) => format!("the server process was ended by signal {sig}"),
                _ => "the server process ended".to_owned(),
            },
        },
        "error" => LogRow::Note {
            seq,
            text: format!("bridge: {}", s("message")),
        },
        "dropped" => LogRow::Note {
            seq,
            text: format!(
                "{} side-channel events were lost (too many at once)",
                n("count").unwrap_or(0)
            ),
        },
        _ => LogRow::Note {
            seq,
            text: format!("bridge event: {text}"),
        },
    }
}
