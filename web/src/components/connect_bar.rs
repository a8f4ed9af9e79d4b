//! Choosing the server: the embedded demo, a bridge server, a relayed remote, or a
//! Streamable HTTP URL straight from the browser.

use leptos::prelude::*;

use super::conn_headers::conn_headers;
use super::once_shown::once_shown;
use crate::effects;
use crate::state::{Conn, Source, use_app};

/// The disabled choice that stands for the bridge's servers when there is no bridge.
const NEEDS_BRIDGE: &str = "Bridge servers (stdio) and relays: need `mcpg serve`";

fn choice_of(s: &Source) -> String {
    match s {
        Source::Demo => "demo".to_owned(),
        Source::Bridge(n) => format!("bridge:{n}"),
        Source::Relay(n) => format!("relay:{n}"),
        Source::Url(_) => "url".to_owned(),
    }
}

/// The source picker, the URL box and the connection status.
#[component]
pub fn ConnectBar() -> impl IntoView {
    let st = use_app();
    let choice = RwSignal::new(choice_of(&st.source.get_untracked()));
    // The URL may name a bridge server before the list of options has arrived, so
    // each option says whether it is the chosen one (a `value` set on the select
    // before its options exist would be lost).
    Effect::new(move |_| choice.set(choice_of(&st.source.get())));
    let url = RwSignal::new(match st.source.get_untracked() {
        Source::Url(u) => u,
        _ => "http://127.0.0.1:3001/mcp".to_owned(),
    });
    // Where the chosen HTTP connection's headers are kept (none for the demo or a
    // stdio server): the box is a chunk, fetched the first time one is chosen.
    let headers_key = Signal::derive(move || {
        let c = choice.get();
        if c.starts_with("relay:") {
            Some(c)
        } else if c == "url" {
            Some(format!("url:{}", url.get().trim()))
        } else {
            None
        }
    });
    let connect = move || {
        let c = choice.get_untracked();
        let source = if let Some(n) = c.strip_prefix("bridge:") {
            Source::Bridge(n.to_owned())
        } else if let Some(n) = c.strip_prefix("relay:") {
            Source::Relay(n.to_owned())
        } else if c == "url" {
            Source::Url(url.get_untracked().trim().to_owned())
        } else {
            Source::Demo
        };
        effects::connect(source);
    };
    let status = move || match st.conn.get() {
        Conn::Idle => "not connected".to_owned(),
        Conn::Connecting => "connecting…".to_owned(),
        Conn::Ready => {
            let name = st
                .server
                .with(|s| s.as_ref().map(|s| format!("{} {}", s.name, s.version)))
                .unwrap_or_default();
            format!("connected to {name}")
        }
        Conn::Closed(why) => format!("not connected: {why}"),
    };
    let status_class = move || match st.conn.get() {
        Conn::Ready => "status ok",
        Conn::Connecting => "status busy",
        _ => "status bad",
    };
    // Memos, not `<Show>`: each `<Show>` is its own generic code in the first load,
    // and a memo re-renders its part only when the answer changes, as `<Show>` does.
    let is_url = Memo::new(move |_| choice.get() == "url");
    let no_bridge = Memo::new(move |_| st.bridge.with(|b| b.token.is_none()));
    let bridge_failed = Memo::new(move |_| st.bridge.with(|b| b.error.is_some()));
    view! {
        <form class="connect" on:submit=move |ev| {
            ev.prevent_default();
            connect();
        }>
            <label for="source">"Server"</label>
            <select id="source" data-testid="source-select"
                on:change=move |ev| choice.set(event_target_value(&ev))>
                {move || {
                    let chosen = choice.get();
                    let mut options = vec![("demo".to_owned(), "Embedded demo server (in this page)".to_owned(), false)];
                    st.bridge.with(|b| {
                        options.extend(b.servers.iter().map(|n| (format!("bridge:{n}"), format!("Bridge: {n} (stdio)"), false)));
                        options.extend(b.remotes.iter().map(|(n, u)| (format!("relay:{n}"), format!("Relay: {n} ({u})"), false)));
                        // Without a bridge the bridge's choices are shown, disabled,
                        // with the reason, rather than missing without a word.
                        if b.token.is_none() {
                            options.push(("needs-bridge".to_owned(), NEEDS_BRIDGE.to_owned(), true));
                        }
                    });
                    options.push(("url".to_owned(), "Streamable HTTP URL (direct from the browser)".to_owned(), false));
                    options
                        .into_iter()
                        .map(|(value, label, disabled)| {
                            let selected = value == chosen;
                            view! { <option value=value selected=selected disabled=disabled>{label}</option> }
                        })
                        .collect_view()
                }}
            </select>
            {move || is_url.get().then(|| view! {
                <label for="url" class="visually-hidden">"Server URL"</label>
                <input id="url" type="url" data-testid="url-input" size="32"
                    prop:value=move || url.get()
                    on:input=move |ev| url.set(event_target_value(&ev))/>
            })}
            {once_shown(move || headers_key.with(Option::is_some), move || conn_headers(headers_key))}
            <button type="submit" data-testid="connect-button">"Connect"</button>
            <span class=status_class data-testid="conn-status" role="status" title=status>{status}</span>
            {move || no_bridge.get().then(|| view! {
                <span class="hint" data-testid="bridge-needed">"No bridge: stdio servers and relayed remotes need `mcpg serve` (or `cargo xtask play`); open the link it prints. The embedded server and direct URLs work here."</span>
            })}
            {move || bridge_failed.get().then(|| view! {
                <span class="hint bad">{move || st.bridge.with(|b| b.error.clone().unwrap_or_default())}</span>
            })}
        </form>
    }
}
