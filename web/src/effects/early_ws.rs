//! A bridge server's WebSocket, opened by the first load before the connections'
//! code (`transports`, a split chunk) is in.
//!
//! Why: the bridge starts the server's process when the socket opens, and a real
//! server takes its time to start (the Python SDK's ~0.7 s on the development
//! machine). Opened here, the process starts while the page fetches and compiles the
//! connections' code instead of after it (issue #33: that code shares chunks with
//! the first later pack, so before this the socket opened ~0.5 s after navigation
//! on localhost). Until the chunk's link adopts the socket ([`take`]), what it fires
//! waits here in order.
//!
//! Only a bridge link of a page that has the bridge's token opens early: every
//! other link (and any refusal) is the chunk's, as before.
//!
//! Earlier still, `boot.js` opens the socket of a `?server=` link on a page that
//! `mcpg serve` served, before the glue and the main module are in (issue #33:
//! ~0.1 s sooner on localhost; `crates/xtask/src/dist/page.rs`, `EARLY_SOCKET`).
//! [`open`] holds that one instead of opening another, and it keeps what the socket
//! fires in its own list until the link takes it; the link checks that its URL is
//! the one it would open (`ws.rs`). [`close_unclaimed`] closes it when the page's
//! start opened no bridge link. Reading `boot.js`'s list is the link's work, so
//! that code is in the chunk, not in the first load.

use std::cell::RefCell;

use mcpg_page::ConnId;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Event, WebSocket};

/// What a socket fires that its link reads.
const KINDS: [&str; 3] = ["open", "message", "close"];

/// The most messages an early socket keeps for its link. A server has nothing to
/// say before the page's `initialize` but a few log lines; one that floods it is
/// closed at this count (else every message would wait here, then be replayed in
/// one task).
pub const MAX_KEPT: usize = 1_000;

/// A socket opened early, and what it fired since.
struct Held {
    conn: ConnId,
    ws: WebSocket,
    channel: String,
    fired: Vec<Event>,
    /// Messages kept so far.
    messages: usize,
    /// More than [`MAX_KEPT`] messages came: the socket was closed.
    flooded: bool,
    // Listens for `KINDS` until the socket is taken; dropped only once detached.
    listener: Closure<dyn FnMut(Event)>,
}

/// A socket handed to its link: its side channel's id and what it fired, in order.
pub struct Adopted {
    /// The open (or opening, or closed) socket.
    pub ws: WebSocket,
    /// The side channel's id its URL names.
    pub channel: String,
    /// Its events since it was opened, oldest first.
    pub fired: Vec<Event>,
    /// The server sent more than [`MAX_KEPT`] messages before the link took the
    /// socket, which this module then closed (`fired` holds what came before).
    pub flooded: bool,
}

/// A socket opened early: by this module, or by `boot.js` (its global, with the
/// socket, its side channel, what it fired, and whether it closed the socket for
/// too many messages).
enum Early {
    Own(Held),
    Boot { conn: ConnId, held: JsValue },
}

impl Early {
    fn conn(&self) -> ConnId {
        match self {
            Early::Own(h) => h.conn,
            Early::Boot { conn, .. } => *conn,
        }
    }
}

thread_local! {
    // One at a time: a page opens one bridge link at start.
    static HELD: RefCell<Option<Early>> = const { RefCell::new(None) };
}

/// The global `boot.js` keeps its socket in.
const BOOT_GLOBAL: &str = "__mcpgEarlyWs";

/// `boot.js`'s global, removed from the window.
fn take_boot() -> Option<JsValue> {
    let win = web_sys::window()?;
    let key = JsValue::from_str(BOOT_GLOBAL);
    let held = js_sys::Reflect::get(&win, &key)
        .ok()
        .filter(JsValue::is_object)?;
    let _ = js_sys::Reflect::delete_property(&win, key.unchecked_ref());
    Some(held)
}

/// A field of `boot.js`'s global.
fn field(held: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(held, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Closes the socket `boot.js` opened when the page's start held it for no link
/// (it opened no bridge link): the bridge stops the process it started.
pub fn close_unclaimed() {
    if let Some(held) = take_boot() {
        close_boot(&held);
    }
}

fn close_boot(held: &JsValue) {
    if let Ok(ws) = field(held, "ws").dyn_into::<WebSocket>() {
        let _ = ws.close();
    }
}

/// Percent-encodes a query value (names and tokens are plain, but be safe).
pub fn encode(s: &str) -> String {
    js_sys::encode_uri_component(s).into()
}

/// The URL of `/ws?server=NAME` with its side channel and token, on the bridge at
/// `root` (`http://…`); `None` when `root` is not an `http` URL.
pub fn url(root: &str, server: &str, channel: &str, token: &str) -> Option<String> {
    let rest = root.strip_prefix("http")?;
    Some(format!(
        "ws{rest}/ws?server={}&channel={}&token={}",
        encode(server),
        encode(channel),
        encode(token)
    ))
}

/// Opens the socket of connection `conn` to the bridge server `server` now, unless
/// one is held already or it cannot be opened (then the link opens it, and says why).
pub fn open(conn: ConnId, root: &str, server: &str, token: &str) {
    if HELD.with(|h| h.borrow().is_some()) {
        return;
    }
    if let Some(held) = take_boot() {
        HELD.with(|h| *h.borrow_mut() = Some(Early::Boot { conn, held }));
        return;
    }
    let channel = super::clock::channel_id();
    let Some(url) = url(root, server, &channel, token) else {
        return;
    };
    let Ok(ws) = WebSocket::new_with_str(&url, "mcp") else {
        return;
    };
    let listener = Closure::<dyn FnMut(Event)>::new(|e: Event| {
        HELD.with(|h| {
            let mut h = h.borrow_mut();
            let Some(Early::Own(held)) = h.as_mut() else {
                return;
            };
            if held.flooded {
                return;
            }
            if e.type_() == "message" {
                if held.messages == MAX_KEPT {
                    held.flooded = true;
                    let _ = held.ws.close();
                    return;
                }
                held.messages += 1;
            }
            held.fired.push(e);
        });
    });
    for kind in KINDS {
        let _ = ws.add_event_listener_with_callback(kind, listener.as_ref().unchecked_ref());
    }
    HELD.with(|h| {
        *h.borrow_mut() = Some(Early::Own(Held {
            conn,
            ws,
            channel,
            fired: Vec::new(),
            messages: 0,
            flooded: false,
            listener,
        }));
    });
}

/// The socket opened early for `conn`, detached from this module, if there is one.
pub fn take(conn: ConnId) -> Option<Adopted> {
    match held_for(conn)? {
        Early::Own(held) => {
            for kind in KINDS {
                let _ = held.ws.remove_event_listener_with_callback(
                    kind,
                    held.listener.as_ref().unchecked_ref(),
                );
            }
            Some(Adopted {
                ws: held.ws,
                channel: held.channel,
                fired: held.fired,
                flooded: held.flooded,
            })
        }
        // Its handlers keep its list until the link sets its own, in this task.
        Early::Boot { held, .. } => Some(Adopted {
            ws: field(&held, "ws").dyn_into().ok()?,
            channel: field(&held, "channel").as_string()?,
            fired: js_sys::Array::from(&field(&held, "fired"))
                .iter()
                .map(JsCast::unchecked_into)
                .collect(),
            flooded: field(&held, "flooded").as_bool().unwrap_or(false),
        }),
    }
}

/// What was opened early for `conn`, taken from this module.
fn held_for(conn: ConnId) -> Option<Early> {
    HELD.with(|h| {
        let mut h = h.borrow_mut();
        match h.as_ref() {
            Some(e) if e.conn() == conn => h.take(),
            _ => None,
        }
    })
}

/// Closes the socket opened early for `conn` that no link will adopt (the
/// connections' code could not be loaded): the bridge stops its process.
pub fn discard(conn: ConnId) {
    match held_for(conn) {
        Some(Early::Own(held)) => {
            let _ = held.ws.close();
        }
        Some(Early::Boot { held, .. }) => close_boot(&held),
        None => {}
    }
}
