//! Streamable HTTP from the browser: each client frame is a `fetch` POST with the
//! core's protocol headers plus the transport's own (`Accept`, `Content-Type`,
//! `Mcp-Session-Id`); answers come back as JSON or as an SSE stream read as it
//! arrives (so progress shows while a call runs).
//!
//! Used for direct URLs and for the bridge's `/relay/NAME`. A `TypeError` from
//! `fetch` on a cross-origin URL is, in practice, the browser's CORS block: the page
//! says so and offers the relay.

use std::cell::RefCell;
use std::rc::Rc;

use mcpg_core::client::{Outgoing, SendFailure};
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, ReadableStreamDefaultReader, RequestInit, Response};

use mcpg_page::{ConnId, HttpFailure, Input};

use super::inbox::send;
use super::sse::SseParser;

/// A Streamable HTTP endpoint and its session.
#[derive(Debug)]
pub struct HttpLink {
    conn: ConnId,
    url: String,
    /// Whether `url` is on another origin than the page (CORS applies).
    cross_origin: bool,
    session_id: Rc<RefCell<Option<String>>>,
}

fn page_origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

impl HttpLink {
    /// A link to `url` for connection `conn`.
    pub fn new(conn: ConnId, url: &str) -> HttpLink {
        let origin = page_origin();
        let same = url.starts_with(&format!("{origin}/")) || url.starts_with('/');
        HttpLink {
            conn,
            url: url.to_owned(),
            cross_origin: !same,
            session_id: Rc::new(RefCell::new(None)),
        }
    }

    /// Sends one frame; the answer arrives later as inputs for the driver.
    pub fn send(&self, out: Outgoing) {
        let conn = self.conn;
        let url = self.url.clone();
        let sid = self.session_id.clone();
        let cross_origin = self.cross_origin;
        wasm_bindgen_futures::spawn_local(async move {
            let id = out.message.id().cloned();
            if let Err(failure) = post(conn, &url, &sid, &out, cross_origin).await {
                send(Input::SendFailed { conn, id, failure });
            }
        });
    }

    /// Ends the HTTP session (DELETE with its id), best effort.
    pub fn close(&self) {
        let Some(sid) = self.session_id.borrow().clone() else {
            return;
        };
        let url = self.url.clone();
        wasm_bindgen_futures::spawn_local(async move {
            let Some(win) = web_sys::window() else { return };
            let Ok(headers) = Headers::new() else { return };
            let _ = headers.set("Mcp-Session-Id", &sid);
            let init = RequestInit::new();
            init.set_method("DELETE");
            init.set_headers(&headers);
            let _ = JsFuture::from(win.fetch_with_str_and_init(&url, &init)).await;
        });
    }
}

fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

async fn post(
    conn: ConnId,
    url: &str,
    sid: &Rc<RefCell<Option<String>>>,
    out: &Outgoing,
    cross_origin: bool,
) -> Result<(), HttpFailure> {
    let network = |detail: String| HttpFailure::Network {
        detail,
        cross_origin,
    };
    let win = web_sys::window().ok_or_else(|| network("no window".into()))?;
    let headers = Headers::new().map_err(|e| network(js_text(&e)))?;
    let set = |k: &str, v: &str| headers.set(k, v).map_err(|e| network(js_text(&e)));
    set("Content-Type", "application/json")?;
    set("Accept", "application/json, text/event-stream")?;
    for (k, v) in &out.headers {
        set(k, v)?;
    }
    let had_session = sid.borrow().clone();
    if let Some(s) = &had_session {
        set("Mcp-Session-Id", s)?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(out.message.raw()));
    let resp = JsFuture::from(win.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|e| network(js_text(&e)))?;
    let resp: Response = resp
        .dyn_into()
        .map_err(|_| network("not a Response".into()))?;
    if let Ok(Some(s)) = resp.headers().get("mcp-session-id") {
        *sid.borrow_mut() = Some(s);
    }
    let status = resp.status();
    if status == 404 && had_session.is_some() {
        return Err(HttpFailure::Status(SendFailure::SessionExpired));
    }
    if !(200..300).contains(&status) {
        let body = read_text(&resp).await;
        return Err(HttpFailure::Status(SendFailure::Rejected { status, body }));
    }
    let content_type = resp
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .unwrap_or_default();
    if content_type.contains("text/event-stream") {
        read_events(conn, &resp).await;
    } else {
        let text = read_text(&resp).await;
        if !text.trim().is_empty() {
            send(Input::Frame { conn, text });
        }
    }
    Ok(())
}

async fn read_text(resp: &Response) -> String {
    match resp.text() {
        Ok(p) => JsFuture::from(p)
            .await
            .ok()
            .and_then(|v| v.as_string())
            .unwrap_or_default(),
        Err(_) => String::new(),
    }
}

/// Reads an SSE body chunk by chunk, handing each `data` to the driver as it comes.
async fn read_events(conn: ConnId, resp: &Response) {
    let Some(body) = resp.body() else { return };
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut parser = SseParser::default();
    loop {
        let Ok(chunk) = JsFuture::from(reader.read()).await else {
            return;
        };
        let done = js_sys::Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            return;
        }
        let Ok(value) = js_sys::Reflect::get(&chunk, &JsValue::from_str("value")) else {
            return;
        };
        let bytes = js_sys::Uint8Array::new(&value).to_vec();
        for ev in parser.push(&bytes) {
            if ev.data.trim().is_empty() {
                continue;
            }
            // A stream of a replaced connection stops reading.
            if !super::inbox::read(|d| d.conn() == conn).unwrap_or(true) {
                let _ = reader.cancel();
                return;
            }
            send(Input::Frame {
                conn,
                text: ev.data,
            });
        }
    }
}
