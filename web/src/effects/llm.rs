//! Real models, straight from the browser: one `fetch` POST per model turn, and the
//! API keys (memory by default; sessionStorage or localStorage only when asked).
//!
//! The key is read here, put into one request header, and nowhere else: the driver
//! gets only its masked form (for step 3's display) and never the key, and the wire
//! log only carries MCP frames.

use leptos::prelude::*;
use mcpg_host::provider::{Provider, key_header, mask_key};
use mcpg_page::{Command, Input, ModelReply, ModelRequest};
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Headers, RequestInit, RequestMode, Response, Storage};

use super::inbox::send as to_driver;
use crate::model_state::{KeyKeep, slot};
use crate::state::AppState;

/// Sends the driver's request with the provider's key in its one header; the reply
/// goes back to the driver for the loop that asked (it ignores a stale one). Reached
/// only from the links chunk (`transports`), so its code loads with it.
pub fn send(st: AppState, out: ModelRequest) {
    let key = st
        .api_keys
        .with_untracked(|k| k.get(slot(out.provider)).cloned().unwrap_or_default());
    wasm_bindgen_futures::spawn_local(async move {
        let reply = match post(&out, &key).await {
            Ok(r) => r,
            Err(detail) => ModelReply::Unreachable {
                detail,
                origin: origin(),
            },
        };
        // A server's sampling request goes back to its question, a loop's turn to its loop.
        to_driver(match out.ask {
            Some(ask) => Input::SampleReply { ask, reply },
            None => Input::ModelReply {
                loop_id: out.loop_id,
                reply,
            },
        });
    });
}

fn js_text(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

async fn post(out: &ModelRequest, key: &str) -> Result<ModelReply, String> {
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
    Ok(ModelReply::Http {
        status: resp.status(),
        body: text.as_string().unwrap_or_default(),
    })
}

pub use super::here::origin;

/// The storage `keep` names (none for memory only; none when the browser refuses).
pub(super) fn storage(keep: KeyKeep) -> Option<Storage> {
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

/// Tells the driver the masked form of `key` (what step 3 shows), never the key.
fn hint(provider: Provider, key: &str) {
    let masked = (!key.trim().is_empty()).then(|| mask_key(key));
    to_driver(Input::Command(Command::SetKeyHint { provider, masked }));
}

/// The learner typed a key for `provider`.
pub fn set_key(st: AppState, provider: Provider, key: String) {
    hint(provider, &key);
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
            for (p, k) in Provider::ALL.into_iter().zip(&found) {
                hint(p, k);
            }
            st.api_keys.set(found);
            st.key_keep.set(keep);
            return;
        }
    }
}
