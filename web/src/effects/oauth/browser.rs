//! The browser's half of the OAuth flow: the flow's requests through `fetch` (no
//! redirect followed: the flow sees exactly what the server answered), entropy from
//! `crypto.getRandomValues`, the sign-in popup, and the redirect handed back by
//! `oauth-callback.html`, accepted only from this page's own origin.

use std::cell::Cell;

use leptos::prelude::WithUntracked as _;
use mcpg_auth::{AuthRequest, AuthResponse};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, MessageEvent, RequestInit, RequestMode, RequestRedirect, Response, Window};

use super::super::bridge_addr;
use super::super::here::{origin, page_url};
use super::super::ws::encode;
use crate::state::AppState;

/// The landing page of the redirect, beside index.html (any path prefix).
const CALLBACK: &str = "oauth-callback.html";

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
/// (`POST /api/oauth-fetch`, with the bridge's token in the query, never in the
/// ask), when the page has a bridge.
pub fn bridge_fetch_url(st: AppState) -> Option<String> {
    st.bridge.with_untracked(|b| {
        let token = b.token.as_deref()?;
        Some(format!(
            "{}/api/oauth-fetch?token={}",
            bridge_addr::root(b, false)?,
            encode(token)
        ))
    })
}

/// Makes `req` exactly as given (straight, or through the bridge at `via`) and
/// reports what came back. A failure below HTTP to another origin is likely CORS
/// (the browser cannot tell it from a dead server).
pub async fn run(req: &AuthRequest, via: Option<&str>) -> AuthResponse {
    let made = match via {
        Some(bridge) => through_bridge(req, bridge).await,
        None => fetch(req).await,
    };
    match made {
        Ok(r) => r,
        Err(reason) => AuthResponse::Failed {
            id: req.id,
            cors_suspected: !req.url.starts_with(&origin()),
            reason,
        },
    }
}

/// The same exchange, asked of the bridge: it makes the request (no redirect
/// followed) and answers `{status, headers, body}` whatever the status.
async fn through_bridge(req: &AuthRequest, bridge: &str) -> Result<AuthResponse, String> {
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
        url: bridge.to_owned(),
        headers: vec![("Content-Type".to_owned(), "application/json".to_owned())],
        body: Some(ask.to_string()),
    };
    let AuthResponse::Answered { status, body, .. } = fetch(&asked).await? else {
        return Err("the bridge did not answer".to_owned());
    };
    let v: serde_json::Value = serde_json::from_str(&body)
        .map_err(|_| format!("the bridge answered HTTP {status} without JSON"))?;
    if let Some(e) = v.get("error").and_then(|e| e.as_str()) {
        return Err(format!("through the bridge: {e}"));
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

async fn fetch(req: &AuthRequest) -> Result<AuthResponse, String> {
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
    let text = JsFuture::from(resp.text().map_err(|e| js_text(&e))?)
        .await
        .map_err(|e| js_text(&e))?;
    Ok(AuthResponse::Answered {
        id: req.id,
        status: resp.status(),
        headers: head,
        body: text.as_string().unwrap_or_default(),
    })
}

/// Opens the authorization URL in a popup (called from the learner's click only).
pub fn open_popup(url: &str) -> Result<Window, String> {
    web_sys::window()
        .ok_or("no window")?
        .open_with_url_and_target_and_features(url, "mcpg-oauth", "popup,width=520,height=680")
        .map_err(|e| js_text(&e))?
        .ok_or_else(|| {
            "the browser blocked the sign-in window (allow popups for this page)".to_owned()
        })
}

thread_local! {
    static LISTENING: Cell<bool> = const { Cell::new(false) };
}

/// Calls `on` with each redirect URL `oauth-callback.html` posts back. Only a
/// message from this page's own origin whose data is `{ mcpgOAuthRedirect: URL }`
/// with a URL under the redirect URI counts; anything else is ignored. Listens once
/// per page.
pub fn listen_redirects(on: fn(String)) {
    if LISTENING.with(|l| l.replace(true)) {
        return;
    }
    let Some(win) = web_sys::window() else { return };
    let handler = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
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
    // Lives as long as the page: one listener for every sign-in.
    let _ = win.add_event_listener_with_callback("message", handler.as_ref().unchecked_ref());
    handler.forget();
}
