//! The browser's half of the OAuth flow: the flow's requests through `fetch` (no
//! redirect followed: the flow sees exactly what the server answered; answers over
//! `mcpg_auth::MAX_ANSWER_BYTES` not read), entropy from `crypto.getRandomValues`, the sign-in
//! window, and the redirect handed back by `oauth-callback.html` over a
//! `BroadcastChannel`, accepted only from this page's own origin.
//!
//! Issue 26: the sign-in window is opened without an opener, so a hostile
//! authorization server's page in it cannot navigate the playground's tab (reverse
//! tabnabbing), and only a URL that passes `mcpg_safe_url::check` is opened at all
//! (a `javascript:` or `data:` "authorization endpoint" would run in this origin).

use std::cell::RefCell;

use leptos::prelude::WithUntracked as _;
use mcpg_auth::{AuthRequest, AuthResponse, MAX_ANSWER_BYTES};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    BroadcastChannel, Headers, MessageEvent, ReadableStreamDefaultReader, RequestInit, RequestMode,
    RequestRedirect, Response,
};

use super::super::here::{origin, page_url};
use super::super::{bridge_addr, demo_oauth};
use crate::state::AppState;

/// The landing page of the redirect, beside index.html (any path prefix).
const CALLBACK: &str = "oauth-callback.html";

/// The channel `oauth-callback.js` hands the redirect back on (same origin only).
const CHANNEL: &str = "mcpg-oauth";

/// The redirect URI: this page's own folder + `oauth-callback.html`.
pub fn redirect_uri() -> String {
    let page = page_url();
    let folder = page.rfind('/').map_or(page.as_str(), |i| &page[..=i]);
    format!("{folder}{CALLBACK}")
}

/// 64 random bytes for the PKCE verifier and `state`.
pub fn entropy() -> Result<[u8; 64], String> {
    let mut bytes = [0u8; 64];
    web_sys::window()
        .ok_or("no window")?
        .crypto()
        .map_err(|e| js_text(&e))?
        .get_random_values_with_u8_array(&mut bytes)
        .map_err(|e| js_text(&e))?;
    Ok(bytes)
}

fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// The bridge's go-between for an authorization server that refuses web pages
/// (`POST /api/oauth-fetch`): its URL, and the bridge's token, which goes in an
/// `Authorization` header (issue 26: never in a URL, where an error text, a log or
/// the model's context could show it; the bridge never passes that header on).
#[derive(Clone, PartialEq)]
pub struct BridgeFetch {
    /// `ROOT/api/oauth-fetch`, no query.
    url: String,
    token: String,
}

impl std::fmt::Debug for BridgeFetch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BridgeFetch")
            .field("url", &self.url)
            .finish_non_exhaustive()
    }
}

/// The bridge's go-between, when the page has a bridge.
pub fn bridge_fetch(st: AppState) -> Option<BridgeFetch> {
    st.bridge.with_untracked(|b| {
        Some(BridgeFetch {
            url: format!("{}/api/oauth-fetch", bridge_addr::root(b, false)?),
            token: b.token.clone()?,
        })
    })
}

/// Makes `req` exactly as given (straight, or through the bridge at `via`) and
/// reports what came back. A failure below HTTP to another origin is likely CORS
/// (the browser cannot tell it from a dead server).
pub async fn run(req: &AuthRequest, via: Option<&BridgeFetch>) -> AuthResponse {
    // The demo behind OAuth is answered in the page, never fetched (nor sent to
    // the bridge): its hosts resolve nowhere.
    if demo_oauth::is_in_page(&req.url) {
        let a = demo_oauth::answer(req.method, &req.url, &req.headers, req.body.as_deref());
        return AuthResponse::Answered {
            id: req.id,
            status: a.status,
            headers: a.headers,
            body: a.body,
        };
    }
    let made = match via {
        Some(bridge) => through_bridge(req, bridge).await,
        None => fetch(req).await,
    };
    match made {
        Ok(r) => r,
        Err(Fail::Net(reason)) => AuthResponse::Failed {
            id: req.id,
            cors_suspected: !req.url.starts_with(&origin()),
            reason,
        },
        // The server answered, at length: the flow stops on it (not a CORS refusal).
        Err(Fail::TooLarge { status }) => AuthResponse::TooLarge { id: req.id, status },
    }
}

/// Why a request brought no answer the flow can read.
enum Fail {
    /// Below HTTP (unreachable, or in a browser possibly CORS), or an answer the
    /// bridge could not give.
    Net(String),
    /// An answer over [`MAX_ANSWER_BYTES`], no longer read (a hostile server must
    /// not make the page hold an endless body).
    TooLarge {
        /// Its HTTP status.
        status: u16,
    },
}

impl From<String> for Fail {
    fn from(reason: String) -> Fail {
        Fail::Net(reason)
    }
}

impl From<&str> for Fail {
    fn from(reason: &str) -> Fail {
        Fail::Net(reason.to_owned())
    }
}

/// The same exchange, asked of the bridge: it makes the request (no redirect
/// followed) and answers `{status, headers, body}` whatever the status.
async fn through_bridge(req: &AuthRequest, bridge: &BridgeFetch) -> Result<AuthResponse, Fail> {
    let ask = serde_json::json!({
        "method": req.method,
        "url": req.url,
        "headers": req.headers,
        "body": req.body,
    });
    let asked = AuthRequest {
        id: req.id,
        step: req.step,
        method: "POST",
        url: bridge.url.clone(),
        headers: vec![
            ("Content-Type".to_owned(), "application/json".to_owned()),
            (
                "Authorization".to_owned(),
                format!("Bearer {}", bridge.token),
            ),
        ],
        body: Some(ask.to_string()),
    };
    let AuthResponse::Answered { status, body, .. } = fetch(&asked).await? else {
        return Err("the bridge did not answer".into());
    };
    let v: serde_json::Value = serde_json::from_str(&body)
        .map_err(|_| format!("the bridge answered HTTP {status} without JSON"))?;
    if let Some(e) = v.get("error").and_then(|e| e.as_str()) {
        return Err(format!("through the bridge: {e}").into());
    }
    let headers = v
        .get("headers")
        .and_then(|h| serde_json::from_value::<Vec<(String, String)>>(h.clone()).ok())
        .unwrap_or_default();
    Ok(AuthResponse::Answered {
        id: req.id,
        status: v
            .get("status")
            .and_then(|s| s.as_u64())
            .and_then(|s| u16::try_from(s).ok())
            .unwrap_or(0),
        headers,
        body: v
            .get("body")
            .and_then(|b| b.as_str())
            .unwrap_or_default()
            .to_owned(),
    })
}

async fn fetch(req: &AuthRequest) -> Result<AuthResponse, Fail> {
    let win = web_sys::window().ok_or("no window")?;
    let headers = Headers::new().map_err(|e| js_text(&e))?;
    for (k, v) in &req.headers {
        headers.set(k, v).map_err(|e| js_text(&e))?;
    }
    let init = RequestInit::new();
    init.set_method(req.method);
    init.set_headers(&headers);
    init.set_mode(RequestMode::Cors);
    init.set_redirect(RequestRedirect::Manual);
    if let Some(b) = &req.body {
        init.set_body(&JsValue::from_str(b));
    }
    let resp = JsFuture::from(win.fetch_with_str_and_init(&req.url, &init))
        .await
        .map_err(|e| js_text(&e))?;
    let resp: Response = resp.dyn_into().map_err(|e| js_text(&e))?;
    let mut head = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&resp.headers()) {
        for pair in entries.flatten() {
            let pair = js_sys::Array::from(&pair);
            if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
                head.push((k, v));
            }
        }
    }
    let body = read_bounded(&resp, MAX_ANSWER_BYTES).await?;
    Ok(AuthResponse::Answered {
        id: req.id,
        status: resp.status(),
        headers: head,
        body,
    })
}

/// The answer's body as text, refused past `max` bytes: the declared length is
/// checked first, then the bytes as they stream in (a length may be absent or lie).
async fn read_bounded(resp: &Response, max: usize) -> Result<String, Fail> {
    let too_big = || Fail::TooLarge {
        status: resp.status(),
    };
    let declared = resp
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_big());
    }
    let Some(stream) = resp.body() else {
        return Ok(String::new());
    };
    let reader: ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let mut bytes = Vec::new();
    loop {
        let step = JsFuture::from(reader.read())
            .await
            .map_err(|e| js_text(&e))?;
        let done = js_sys::Reflect::get(&step, &JsValue::from_str("done"))
            .ok()
            .and_then(|d| d.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        if let Ok(value) = js_sys::Reflect::get(&step, &JsValue::from_str("value")) {
            bytes.extend(js_sys::Uint8Array::new(&value).to_vec());
        }
        if bytes.len() > max {
            // Stops the download too, not just the reading.
            let _ = reader.cancel();
            return Err(too_big());
        }
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Why `url` may not be opened as the sign-in page, or `None` when it may: the
/// shared URL rule (issue 26), so a hostile authorization server's `javascript:` or
/// `data:` "endpoint" never runs in this origin.
pub fn refused(url: &str) -> Option<String> {
    mcpg_safe_url::check(url).err().map(|r| {
        format!(
            "the sign-in URL was refused ({}: {r}); nothing was opened. The rule: {}",
            r.rule(),
            mcpg_safe_url::RULE
        )
    })
}

/// Opens the authorization URL in a new window (called from the learner's click
/// only) without an opener and without a referrer, so the authorization server's
/// page cannot reach this tab. A browser returns no window for such an open, so a
/// blocked popup cannot be told from an opened one: the panel shows the URL as a
/// link too.
pub fn open_popup(url: &str) -> Result<(), String> {
    if let Some(why) = refused(url) {
        return Err(why);
    }
    web_sys::window()
        .ok_or("no window")?
        .open_with_url_and_target_and_features(
            url,
            "_blank",
            "popup,width=520,height=680,noopener,noreferrer",
        )
        .map_err(|e| js_text(&e))?;
    Ok(())
}

thread_local! {
    /// The channel the redirect comes back on, once listening (kept for the page's
    /// life: one listener for every sign-in).
    static CHANNEL_OPEN: RefCell<Option<BroadcastChannel>> = const { RefCell::new(None) };
}

/// Calls `on` with each redirect URL `oauth-callback.js` hands back. Only a
/// message from this page's own origin whose data is `{ mcpgOAuthRedirect: URL }`
/// with a URL under the redirect URI counts; anything else is ignored (the flow
/// then checks the `state`). Listens once per page.
pub fn listen_redirects(on: fn(String)) {
    if CHANNEL_OPEN.with(|c| c.borrow().is_some()) {
        return;
    }
    let Ok(channel) = BroadcastChannel::new(CHANNEL) else {
        return;
    };
    let handler = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
        // A BroadcastChannel reaches this origin only; checked anyway, as the
        // data's shape and the URL are.
        if ev.origin() != origin() {
            return;
        }
        let url = js_sys::Reflect::get(&ev.data(), &JsValue::from_str("mcpgOAuthRedirect"))
            .ok()
            .and_then(|v| v.as_string());
        if let Some(url) = url.filter(|u| u.starts_with(&redirect_uri())) {
            on(url);
        }
    });
    channel.set_onmessage(Some(handler.as_ref().unchecked_ref()));
    // Lives as long as the page, as the channel does.
    handler.forget();
    CHANNEL_OPEN.with(|c| *c.borrow_mut() = Some(channel));
}
