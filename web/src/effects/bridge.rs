//! The page's URL and the bridge: the per-launch token (`?token=`), the server to
//! open (`?server=`, `?relay=`, `?url=`), and the bridge's list of servers.

use leptos::prelude::*;
use wasm_bindgen::JsCast as _;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Response, UrlSearchParams};

use crate::state::{AppState, BridgeInfo, Source};

fn params() -> Option<UrlSearchParams> {
    let search = web_sys::window()?.location().search().ok()?;
    UrlSearchParams::new_with_str(&search).ok()
}

/// The source the URL asks for (default: the embedded demo).
pub fn source_from_url() -> Source {
    let Some(p) = params() else {
        return Source::Demo;
    };
    if let Some(name) = p.get("server").filter(|s| !s.is_empty()) {
        return Source::Bridge(name);
    }
    if let Some(name) = p.get("relay").filter(|s| !s.is_empty()) {
        return Source::Relay(name);
    }
    if let Some(url) = p.get("url").filter(|s| !s.is_empty()) {
        return Source::Url(url);
    }
    Source::Demo
}

/// Reads the token from the URL and, when there is one, the bridge's server list.
pub fn load_bridge(st: AppState) {
    let token = params()
        .and_then(|p| p.get("token"))
        .filter(|t| !t.is_empty());
    st.bridge.set(BridgeInfo {
        token: token.clone(),
        ..BridgeInfo::default()
    });
    let Some(token) = token else { return };
    wasm_bindgen_futures::spawn_local(async move {
        let info = fetch_servers(&token).await;
        st.bridge.update(|b| match info {
            Ok((servers, remotes)) => {
                b.servers = servers;
                b.remotes = remotes;
            }
            Err(e) => b.error = Some(e),
        });
    });
}

type Lists = (Vec<String>, Vec<(String, String)>);

async fn fetch_servers(token: &str) -> Result<Lists, String> {
    let win = web_sys::window().ok_or("no window")?;
    let url = format!("/api/servers?token={}", super::ws::encode(token));
    let resp = JsFuture::from(win.fetch_with_str(&url))
        .await
        .map_err(|_| "the bridge did not answer /api/servers".to_owned())?;
    let resp: Response = resp.dyn_into().map_err(|_| "not a response")?;
    if !resp.ok() {
        return Err(format!(
            "the bridge answered /api/servers with HTTP {}",
            resp.status()
        ));
    }
    let text = JsFuture::from(resp.text().map_err(|_| "no body")?)
        .await
        .ok()
        .and_then(|v| v.as_string())
        .unwrap_or_default();
    let v: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let list = mcpg_wire::ServerList::from_json(&v).map_err(|e| e.to_string())?;
    let servers = list.servers.into_iter().map(|s| s.name).collect();
    let remotes = list.remotes.into_iter().map(|r| (r.name, r.url)).collect();
    Ok((servers, remotes))
}

/// What to do about a URL the browser blocked: advice in words, and the name of a
/// bridge relay that reaches the same URL, if one is configured.
pub fn cors_advice(url: &str, b: &BridgeInfo) -> (String, Option<String>) {
    let relay = b
        .remotes
        .iter()
        .find(|(_, u)| u.trim_end_matches('/') == url.trim_end_matches('/'))
        .map(|(n, _)| n.clone());
    let advice = match (&relay, b.token.is_some()) {
        (Some(n), _) => format!("The bridge can relay it: it is configured as the remote {n:?}."),
        (None, true) => "The bridge can relay it: add it to the bridge's config as a [[remote]] (name and url), restart `mcpg serve`, then pick it in the server list.".to_owned(),
        (None, false) => "No bridge serves this page: run `mcpg serve` (or `cargo xtask play`) with the server in its config as a [[remote]] and open the link it prints; the bridge relays it without CORS.".to_owned(),
    };
    (advice, relay)
}
