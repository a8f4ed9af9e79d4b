//! Bridge servers: a WebSocket to `/ws` (subprotocol `mcp`, one JSON-RPC message per
//! text frame) and an `EventSource` on `/api/events` for the process's stderr and
//! exit, which never mix with MCP. Every browser event becomes an input for the
//! driver, tagged with the connection it belongs to.

use mcpg_page::{ConnId, Input, parse_bridge_event};
use wasm_bindgen::JsCast as _;
use wasm_bindgen::closure::Closure;
use web_sys::{CloseEvent, Event, EventSource, MessageEvent, WebSocket};

use super::early_ws::{self, encode};
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

impl WsLink {
    /// Opens `/ws?server=NAME` and its side channel for connection `conn`, on the
    /// bridge at `root` (`http://…`: this page's origin or a hosted page's bridge),
    /// or adopts the socket the first load opened for it (`early_ws`). Also returns
    /// what that socket fired before, as inputs, oldest first: the caller sends
    /// them once the link is where the driver's outputs find it.
    pub fn open(
        conn: ConnId,
        root: &str,
        server: &str,
        token: &str,
    ) -> Result<(WsLink, Vec<Input>), String> {
        // A socket opened early (by `boot.js` or the first load) is this link's only
        // when its URL is the one this link would open, with its own side channel:
        // else it is closed, and the link opens its own.
        let early = early_ws::take(conn).filter(|e| {
            let same =
                early_ws::url(root, server, &e.channel, token).is_some_and(|u| u == e.ws.url());
            if !same {
                let _ = e.ws.close();
            }
            same
        });
        let (ws, channel, fired, flooded) = match early {
            Some(early) => (early.ws, early.channel, early.fired, early.flooded),
            None => {
                let channel = super::clock::channel_id();
                let url = early_ws::url(root, server, &channel, token)
                    .ok_or_else(|| format!("cannot open a WebSocket to the bridge at {root}"))?;
                let ws = WebSocket::new_with_str(&url, "mcp")
                    .map_err(|_| format!("cannot open a WebSocket to the bridge for {server}"))?;
                (ws, channel, Vec::new(), false)
            }
        };
        let missed = if flooded {
            // The socket was closed for it: only that is told, with why (its
            // `open` would have the driver send on a closed socket).
            vec![Input::LinkClosed {
                conn,
                why: format!(
                    "the server sent more than {} messages before the page read its first; the connection was closed",
                    early_ws::MAX_KEPT
                ),
            }]
        } else {
            fired.iter().filter_map(|e| input_of(conn, e)).collect()
        };
        let on_open = Closure::<dyn FnMut(Event)>::new(move |_| send(opened(conn)));
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            if let Some(input) = frame(conn, &e) {
                send(input);
            }
        });
        let on_close =
            Closure::<dyn FnMut(CloseEvent)>::new(move |e: CloseEvent| send(closed(conn, &e)));
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
        let link = WsLink {
            ws,
            events,
            _on_open: on_open,
            _on_message: on_message,
            _on_close: on_close,
            _on_side: on_side,
        };
        Ok((link, missed))
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

/// The socket opened.
fn opened(conn: ConnId) -> Input {
    Input::LinkOpened { conn }
}

/// A text frame came (a binary one is not MCP and is left out).
fn frame(conn: ConnId, e: &MessageEvent) -> Option<Input> {
    let text = e.data().as_string()?;
    Some(Input::Frame { conn, text })
}

/// The socket closed, with the bridge's reason when it gave one.
fn closed(conn: ConnId, e: &CloseEvent) -> Input {
    let why = if e.reason().is_empty() {
        format!("the bridge closed the connection (code {})", e.code())
    } else {
        format!(
            "the bridge closed the connection: {} (code {})",
            e.reason(),
            e.code()
        )
    };
    Input::LinkClosed { conn, why }
}

/// What one of the events an early socket fired means for the driver.
fn input_of(conn: ConnId, e: &Event) -> Option<Input> {
    match e.type_().as_str() {
        "open" => Some(opened(conn)),
        "message" => frame(conn, e.dyn_ref()?),
        "close" => Some(closed(conn, e.dyn_ref()?)),
        _ => None,
    }
}
