//! Bridge servers: a WebSocket to `/ws` (subprotocol `mcp`, one JSON-RPC message per
//! text frame) and an `EventSource` on `/api/events` for the process's stderr and
//! exit, which never mix with MCP. Every browser event becomes an input for the
//! driver, tagged with the connection it belongs to.

use mcpg_page::{ConnId, Input, parse_bridge_event};
use wasm_bindgen::JsCast as _;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, Event, EventSource, MessageEvent, WebSocket};

use super::inbox::send;

/// An open (or opening) WebSocket and its side channel.
pub struct WsLink {
    ws: WebSocket,
    events: Option<EventSource>,
    // Kept alive for as long as the socket may call them.
    _on_open: Closure<dyn FnMut(Event)>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_close: Closure<dyn FnMut(CloseEvent)>,
    _on_side: Option<Closure<dyn FnMut(MessageEvent)>>,
}

/// Percent-encodes a query value (names and tokens are plain, but be safe).
pub fn encode(s: &str) -> String {
    js_sys::encode_uri_component(s).into()
}

impl WsLink {
    /// Opens `/ws?server=NAME` and its side channel for connection `conn`, on the
    /// bridge at `root` (`http://…`: this page's origin or a hosted page's bridge).
    pub fn open(conn: ConnId, root: &str, server: &str, token: &str) -> Result<WsLink, String> {
        let channel = super::clock::channel_id();
        let ws_root = match root.strip_prefix("http") {
            Some(rest) => ["ws", rest].concat(),
            None => return Err(format!("cannot open a WebSocket to the bridge at {root}")),
        };
        let url = format!(
            "{ws_root}/ws?server={}&channel={}&token={}",
            encode(server),
            encode(&channel),
            encode(token)
        );
        let ws = WebSocket::new_with_str(&url, "mcp")
            .map_err(|_| format!("cannot open a WebSocket to the bridge for {server}"))?;
        let on_open = Closure::<dyn FnMut(Event)>::new(move |_| send(Input::LinkOpened { conn }));
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(text) = e.data().as_string() {
                send(Input::Frame { conn, text });
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
            send(Input::LinkClosed { conn, why });
        });
        ws.set_onopen(Some(on_open.as_ref().unchecked_ref()));
        ws.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        ws.set_onclose(Some(on_close.as_ref().unchecked_ref()));
        let side_url = format!(
            "{root}/api/events?channel={}&token={}",
            encode(&channel),
            encode(token)
        );
        let (events, on_side) = match EventSource::new(&side_url) {
            Ok(es) => {
                let cb = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    if let Some(text) = e.data().as_string() {
                        let event = parse_bridge_event(&text);
                        send(Input::BridgeEvent { conn, event });
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
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
            _on_side: on_side,
        })
    }

    /// Sends one frame (the driver sends only after the socket opened).
    pub fn send(&self, raw: &str) {
        // A failed send shows up as a close event.
        let _ = self.ws.send_with_str(raw);
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
