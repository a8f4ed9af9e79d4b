//! The bridge's list of servers, read with the connections' code (a split chunk,
//! see `transports`): nothing before the first tool list needs it. A hosted page
//! whose bridge cannot be used gets one notice naming the command that fixes it; the
//! embedded server works regardless.

use leptos::prelude::*;
use mcpg_page::Command;
use wasm_bindgen::JsCast as _;
use wasm_bindgen_futures::JsFuture;
use web_sys::{RequestInit, RequestMode, Response};

use super::bridge_addr;
use super::here;
use super::inbox::command;
use crate::state::AppState;

/// Reads the bridge's server list into `st.bridge` (`bridge::load_bridge` cleared it).
pub fn list(st: AppState) {
    let b = st.bridge.get_untracked();
    let (Some(token), Some(root)) = (b.token.clone(), bridge_addr::root(&b, false)) else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        let info = fetch_servers(&root, &token).await;
        let failure = match info {
            Ok((servers, remotes)) => {
                // `error` may say the chunk could not be fetched the time before.
                st.bridge.update(|b| {
                    b.servers = servers;
                    b.remotes = remotes;
                    b.error = None;
                });
                return;
            }
            Err(ListError::Unreachable) if b.base.is_some() => {
                // A refused origin and a bridge that is down look the same to a
                // CORS fetch; a no-cors request (which never carries `Origin` for a
                // GET, and whose answer stays opaque) tells them apart.
                if answers(&root).await {
                    ListError::Refused
                } else {
                    ListError::Unreachable
                }
            }
            Err(e) => e,
        };
        st.bridge.update(|b| b.error = Some(failure.short()));
        if matches!(failure, ListError::Token) {
            bridge_addr::forget();
        }
        if b.base.is_some() {
            command(Command::ShowNotice(failure.notice(&root)));
        }
    });
}

/// Why the bridge's list could not be read.
enum ListError {
    /// The fetch failed below HTTP: down, blocked, or a refused origin.
    Unreachable,
    /// The bridge answers, but not to this page's origin.
    Refused,
    /// 401: a token from an earlier launch.
    Token,
    /// Another HTTP status.
    Status(u16),
    /// Not a server list.
    Unreadable(String),
}

impl ListError {
    /// A few words for the connect bar.
    fn short(&self) -> String {
        match self {
            ListError::Unreachable => "the bridge cannot be reached".to_owned(),
            ListError::Refused => "the bridge refused this page's origin".to_owned(),
            ListError::Token => "the bridge refused the token".to_owned(),
            ListError::Status(s) => format!("the bridge answered /api/servers with HTTP {s}"),
            ListError::Unreadable(e) => format!("the bridge's list is unreadable: {e}"),
        }
    }

    /// The one notice of a hosted page, naming the command that fixes it.
    fn notice(&self, root: &str) -> String {
        let page = here::page_url();
        let origin = super::here::origin();
        let run = format!("`mcpg serve --page-origin {page}`");
        let meanwhile = "The embedded demo server works meanwhile.";
        match self {
            ListError::Refused => format!(
                "The bridge at {root} refused this page: it does not trust the origin {origin}. Restart it with {run} and open the link it prints. {meanwhile}"
            ),
            ListError::Unreachable => format!(
                "The bridge at {root} cannot be reached from this page. Start it with {run} and open the link it prints (if the browser asks whether this site may access devices on your local network, allow it). {meanwhile}"
            ),
            ListError::Token => format!(
                "The bridge at {root} did not accept this link's token: the link is from an earlier launch. Open the link {run} printed this time. {meanwhile}"
            ),
            other => format!(
                "The bridge at {root} cannot be used: {}. Restart it with {run}. {meanwhile}",
                other.short()
            ),
        }
    }
}

type Lists = (Vec<String>, Vec<(String, String)>);

async fn fetch_servers(root: &str, token: &str) -> Result<Lists, ListError> {
    let win = web_sys::window().ok_or(ListError::Unreachable)?;
    let url = format!(
        "{root}/api/servers?token={}",
        super::early_ws::encode(token)
    );
    let resp = JsFuture::from(win.fetch_with_str(&url))
        .await
        .map_err(|_| ListError::Unreachable)?;
    let resp: Response = resp.dyn_into().map_err(|_| ListError::Unreachable)?;
    match resp.status() {
        200..=299 => {}
        401 => return Err(ListError::Token),
        s => return Err(ListError::Status(s)),
    }
    let text = match resp.text() {
        Ok(p) => JsFuture::from(p).await.ok().and_then(|v| v.as_string()),
        Err(_) => None,
    }
    .unwrap_or_default();
    let unreadable = |e: String| ListError::Unreadable(e);
    let v: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let list = mcpg_bridge_api::ServerList::from_json(&v).map_err(|e| unreadable(e.to_string()))?;
    let servers = list.servers.into_iter().map(|s| s.name).collect();
    let remotes = list.remotes.into_iter().map(|r| (r.name, r.url)).collect();
    Ok((servers, remotes))
}

/// Whether anything answers at `root` at all (an opaque no-cors answer counts).
async fn answers(root: &str) -> bool {
    let Some(win) = web_sys::window() else {
        return false;
    };
    let init = RequestInit::new();
    init.set_mode(RequestMode::NoCors);
    let probe = win.fetch_with_str_and_init(&format!("{root}/"), &init);
    JsFuture::from(probe).await.is_ok()
}
