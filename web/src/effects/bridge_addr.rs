//! Where the bridge is and its token. Three places, read once at start:
//!
//! - a hosted page's link fragment, `#bridge=http://127.0.0.1:PORT&token=…`
//!   (`mcpg serve --page-origin` prints it): read, then removed from the address bar
//!   at once, so it never ends up in a bookmark, a share link or a screenshot; kept
//!   for this tab in sessionStorage, so a reload still finds the bridge;
//! - the same-origin page's query, `?token=` (the bridge served the page itself):
//!   read, then removed from the address bar at once like the fragment (issue 26:
//!   another script, a screenshot, a shared address or a `Referer` must not carry
//!   it), the rest of the address kept; kept for this tab in sessionStorage too;
//! - nothing: no bridge; the embedded server and direct URLs still work.
//!
//! The token leaves this module only towards the bridge's own URLs.

use mcpg_bridge_api::BridgeLink;
use wasm_bindgen::JsValue;
use web_sys::UrlSearchParams;

use leptos::prelude::*;

use crate::state::{AppState, BridgeInfo};

/// The sessionStorage key for this tab's hosted bridge (its fragment form).
const KEPT: &str = "mcpg.bridge";

/// The sessionStorage key for the token of the bridge that served this page.
const KEPT_TOKEN: &str = "mcpg.bridge-token";

/// Finds the bridge's address and token and puts them in `st.bridge`. Runs before
/// the fragment is read as a session link, so the two never mix. Returns the notice
/// for a bridge link that cannot be used, for the caller to show once the first
/// connection is open (opening one clears the notice).
pub fn take(st: AppState) -> Option<String> {
    let loc = web_sys::window()?.location();
    let mut notice = None;
    let hash = loc.hash().unwrap_or_default();
    let (base, token) = match BridgeLink::read_fragment(&hash) {
        Some(read) => {
            // Gone from the address bar before anything else can see it, good or bad.
            scrub();
            match read {
                Ok(link) => {
                    keep(Some(&link));
                    (Some(link.base().to_owned()), Some(link.token().to_owned()))
                }
                Err(e) => {
                    notice = Some(format!(
                        "This link's bridge part cannot be used: {e}. Start the bridge with `mcpg serve --page-origin {}` and open the link it prints. The embedded demo server works meanwhile.",
                        super::here::page_url()
                    ));
                    (None, None)
                }
            }
        }
        None => match query_token() {
            Some(token) => {
                scrub_query_token();
                keep_token(Some(&token));
                (None, Some(token))
            }
            None => match kept() {
                Some(link) => (Some(link.base().to_owned()), Some(link.token().to_owned())),
                None => (None, kept_token()),
            },
        },
    };
    st.bridge.set(BridgeInfo {
        base,
        token,
        ..BridgeInfo::default()
    });
    notice
}

/// The bridge's root for `http` (or `ws`) URLs: the hosted bridge's address, or this
/// page's own origin when the bridge served the page.
pub fn root(b: &BridgeInfo, ws: bool) -> Option<String> {
    let http = match &b.base {
        Some(base) => base.clone(),
        None => web_sys::window()?.location().origin().ok()?,
    };
    Some(match (ws, http.strip_prefix("http")) {
        (true, Some(rest)) => ["ws", rest].concat(),
        _ => http,
    })
}

/// Forgets this tab's bridge token (it was refused: a reload must not retry).
pub fn forget() {
    keep(None);
    keep_token(None);
}

fn query_token() -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    let token = UrlSearchParams::new_with_str(&search).ok()?.get("token")?;
    (!token.is_empty()).then_some(token)
}

/// Removes the fragment from the address bar without reloading or adding a history
/// entry (and without a `hashchange`, so nothing reads it as a session link).
fn scrub() {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let url = [
        loc.pathname().unwrap_or_default(),
        loc.search().unwrap_or_default(),
    ]
    .concat();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Removes `token` from the address bar's query, keeping every other parameter
/// (`?url=`, `?relay=`, …) and the fragment, without a reload or a history entry.
fn scrub_query_token() {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let Ok(params) = UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) else {
        return;
    };
    params.delete("token");
    let rest = String::from(params.to_string());
    let query = if rest.is_empty() {
        String::new()
    } else {
        ["?", &rest].concat()
    };
    let url = [
        loc.pathname().unwrap_or_default(),
        query,
        loc.hash().unwrap_or_default(),
    ]
    .concat();
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

fn keep_token(token: Option<&str>) {
    let Some(s) = storage() else { return };
    // As `keep`: the page works without storage.
    let _ = match token {
        Some(t) => s.set_item(KEPT_TOKEN, t),
        None => s.remove_item(KEPT_TOKEN),
    };
}

fn kept_token() -> Option<String> {
    let token = storage()?.get_item(KEPT_TOKEN).ok()??;
    (!token.is_empty()).then_some(token)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

fn keep(link: Option<&BridgeLink>) {
    let Some(s) = storage() else { return };
    // Storage may be full or refused (private mode); the page works without it.
    let _ = match link {
        Some(l) => s.set_item(KEPT, &l.to_fragment()),
        None => s.remove_item(KEPT),
    };
}

fn kept() -> Option<BridgeLink> {
    let text = storage()?.get_item(KEPT).ok()??;
    BridgeLink::read_fragment(&text)?.ok()
}
