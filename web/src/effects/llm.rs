//! Real models, straight from the browser: one `fetch` POST per model turn, and the
//! API keys (memory by default; sessionStorage or localStorage only when asked).
//!
//! The key is read here, put into one request header, and nowhere else: the session
//! shows the request through `shown_request`, which masks it, and the wire log only
//! carries MCP frames.

use leptos::prelude::*;
use mcpg_host::provider::{Provider, key_header};
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, RequestInit, RequestMode, Response, Storage};

use super::session::with_session;
use crate::model_state::{KeyKeep, slot};
use crate::state::AppState;

/// How a request to the model ended.
pub enum Reply {
    /// An HTTP answer: status and body text.
    Http(u16, String),
    /// No HTTP answer (network failure or CORS refusal, which look the same).
    Unreachable(String),
}

/// What the session hands over for one request (the key is added here).
pub struct Outgoing {
    /// The provider (which header carries the key).
    pub provider: Provider,
    /// URL to POST to.
    pub url: String,
    /// Headers without the key.
    pub headers: Vec<(&'static str, String)>,
    /// The JSON body.
    pub body: String,
}

/// Sends `out` with the provider's key; the reply goes to the session of
/// `generation`, for loop `loop_id` (a reply for an abandoned loop is dropped).
pub fn send(st: AppState, generation: u64, loop_id: u64, out: Outgoing) {
    let key = st
        .api_keys
        .with_untracked(|k| k.get(slot(out.provider)).cloned().unwrap_or_default());
    wasm_bindgen_futures::spawn_local(async move {
        let reply = match post(&out, &key).await {
            Ok(r) => r,
            Err(e) => Reply::Unreachable(e),
        };
        with_session(Some(generation), |s| s.model_answered(loop_id, reply));
    });
}

fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

async fn post(out: &Outgoing, key: &str) -> Result<Reply, String> {
    let win = web_sys::window().ok_or("no window")?;
    let headers = Headers::new().map_err(|e| js_text(&e))?;
    for (k, v) in &out.headers {
        headers.set(k, v).map_err(|e| js_text(&e))?;
    }
    if let Some((k, v)) = key_header(out.provider, key) {
        // A key with characters a header cannot carry is refused here, in words,
        // without echoing it.
        headers.set(k, &v).map_err(|_| {
            "the API key contains characters an HTTP header cannot carry".to_owned()
        })?;
    }
    let init = RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_mode(RequestMode::Cors);
    init.set_body(&JsValue::from_str(&out.body));
    let resp = JsFuture::from(win.fetch_with_str_and_init(&out.url, &init))
        .await
        .map_err(|e| js_text(&e))?;
    let resp: Response = resp.dyn_into().map_err(|e| js_text(&e))?;
    let text = JsFuture::from(resp.text().map_err(|e| js_text(&e))?)
        .await
        .map_err(|e| js_text(&e))?;
    Ok(Reply::Http(
        resp.status(),
        text.as_string().unwrap_or_default(),
    ))
}

/// The page's origin (for the OLLAMA_ORIGINS advice).
pub fn origin() -> String {
    web_sys::window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default()
}

fn storage(keep: KeyKeep) -> Option<Storage> {
    let w = web_sys::window()?;
    match keep {
        KeyKeep::Nowhere => None,
        KeyKeep::Tab => w.session_storage().ok().flatten(),
        KeyKeep::Browser => w.local_storage().ok().flatten(),
    }
}

fn storage_key(p: Provider) -> String {
    format!("mcpg-api-key-{}", p.id())
}

/// Writes every key where `keep` says, and removes it from the other storage.
fn persist(st: AppState) {
    let keep = st.key_keep.get_untracked();
    let keys = st.api_keys.get_untracked();
    for other in [KeyKeep::Tab, KeyKeep::Browser] {
        let Some(s) = storage(other) else { continue };
        for (p, key) in Provider::ALL.into_iter().zip(&keys) {
            let name = storage_key(p);
            // Storage can refuse (quota, privacy mode); the key still works from memory.
            let _ = if other == keep && !key.is_empty() {
                s.set_item(&name, key)
            } else {
                s.remove_item(&name)
            };
        }
    }
}

/// The learner typed a key for `provider`.
pub fn set_key(st: AppState, provider: Provider, key: String) {
    st.api_keys.update(|k| {
        if let Some(slot) = k.get_mut(slot(provider)) {
            *slot = key;
        }
    });
    persist(st);
}

/// The learner chose where keys are kept.
pub fn set_key_keep(st: AppState, keep: KeyKeep) {
    st.key_keep.set(keep);
    persist(st);
}

/// Reads keys kept by an earlier visit (this tab first, then this browser).
pub fn load_keys(st: AppState) {
    for keep in [KeyKeep::Tab, KeyKeep::Browser] {
        let Some(s) = storage(keep) else { continue };
        let found: Vec<String> = Provider::ALL
            .into_iter()
            .map(|p| {
                s.get_item(&storage_key(p))
                    .ok()
                    .flatten()
                    .unwrap_or_default()
            })
            .collect();
        if found.iter().any(|k| !k.is_empty()) {
            st.api_keys.set(found);
            st.key_keep.set(keep);
            return;
        }
    }
}
