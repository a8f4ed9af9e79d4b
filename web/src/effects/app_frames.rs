//! The frames MCP Apps' views run in (issue 29): each an `<iframe
//! sandbox="allow-scripts" src="app-frame.html">`, so its origin is opaque (no
//! cookies, storage, or reach into this page; no popups, no navigating the top).
//! Once the frame loaded, the page posts it the view's HTML and policy (the
//! frame's loader writes them); from then on every message is JSON-RPC, posted
//! with target `*` (an opaque origin has no name) and received only when its
//! `source` is that frame's window, then handed to the driver as text.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;

use mcpg_page::{AppCommand, Command};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{HtmlIFrameElement, MessageEvent};

use super::inbox;

thread_local! {
    /// The hosted views' frames, by view id.
    static FRAMES: RefCell<BTreeMap<u64, HtmlIFrameElement>> = const { RefCell::new(BTreeMap::new()) };
    /// Whether the page listens for the frames' messages (once for the page's life).
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// A view's frame is in the page: its messages are read from now on.
pub fn register(view: u64, frame: HtmlIFrameElement) {
    super::app_post::set(post);
    listen();
    FRAMES.with(|f| f.borrow_mut().insert(view, frame));
}

/// A view's frame left the page.
pub fn unregister(view: u64) {
    FRAMES.with(|f| f.borrow_mut().remove(&view));
}

/// The frame loaded: writes the view into it (once; later loads are the view's own
/// doing and get nothing).
pub fn write_view(frame: &HtmlIFrameElement, html: &str, policy: &str) {
    let Some(win) = frame.content_window() else {
        return;
    };
    let data = js_sys::Object::new();
    let view = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&view, &"html".into(), &html.into());
    let _ = js_sys::Reflect::set(&view, &"csp".into(), &policy.into());
    let _ = js_sys::Reflect::set(&data, &"mcpgView".into(), &view);
    let _ = win.post_message(&data, "*");
}

/// Posts one JSON-RPC message (the driver's text) to view `view`.
fn post(view: u64, text: &str) {
    let Ok(value) = js_sys::JSON::parse(text) else {
        return;
    };
    FRAMES.with(|f| {
        if let Some(win) = f
            .borrow()
            .get(&view)
            .and_then(HtmlIFrameElement::content_window)
        {
            let _ = win.post_message(&value, "*");
        }
    });
}

fn listen() {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|ev: MessageEvent| {
        let Some(source) = ev.source() else { return };
        // Only a hosted frame's own window speaks for its view.
        let view = FRAMES.with(|f| {
            f.borrow().iter().find_map(|(id, frame)| {
                let win = frame.content_window()?;
                (wasm_bindgen::JsValue::from(win) == wasm_bindgen::JsValue::from(source.clone()))
                    .then_some(*id)
            })
        });
        let Some(view) = view else { return };
        let raw = js_sys::JSON::stringify(&ev.data())
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_else(|| "null".to_owned());
        inbox::command(Command::App(AppCommand::FromView { view, raw }));
    });
    let _ = window.add_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    on_message.forget();
}

/// The learner opened (or dismissed) link `ticket` that view `view` asked for.
pub fn decide_link(view: u64, ticket: u32, open: bool) {
    inbox::command(Command::App(AppCommand::Link { view, ticket, open }));
}
