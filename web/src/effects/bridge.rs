//! The page's URL and the bridge: the server to open (`?server=`, `?relay=`,
//! `?url=`), the bridge's list of servers (read by `bridge_list`; where the bridge is
//! and its token are found by `bridge_addr`), and what to do about a blocked URL.

use leptos::prelude::*;
use web_sys::UrlSearchParams;

use super::here;
use super::link_chunk;
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

/// Reads the bridge's server list, when the page knows a bridge: with the
/// connections' code (`bridge_list`, in their chunk), right after the first tool list
/// or with the first link, whichever comes first.
pub fn load_bridge(st: AppState) {
    st.bridge.update(|b| {
        b.servers.clear();
        b.remotes.clear();
        b.error = None;
    });
    if st.bridge.with_untracked(|b| b.token.is_some()) {
        link_chunk::list_bridge(st);
    }
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
        (None, false) => format!(
            "No bridge serves this page: run `mcpg serve --page-origin {}` (or `cargo xtask play` in a checkout) with the server in its config as a [[remote]] and open the link it prints; the bridge relays it without CORS.",
            here::page_url()
        ),
    };
    (advice, relay)
}
