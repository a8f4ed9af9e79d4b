//! Headers for a Streamable HTTP connection (direct or relayed): name/value rows and
//! a "Bearer token" shortcut (lazy: mounted the first time a URL or a relay is
//! chosen). Values are password inputs, a DOM property only: shown nowhere else, and
//! kept by `effects::conn_headers` like the LLM API keys.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;

use super::model_bar::options;
use super::once_shown::Loaded;
use crate::effects::conn_headers::{self as store, Row};
use crate::model_state::KeyKeep;

/// The headers box for the connection kept under `key` (`None`: no HTTP source is
/// chosen, nothing is shown).
#[wasm_split(mcpg_conn_headers, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn conn_headers(key: Signal<Option<String>>) -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <HeadersBox key=key/> }.into_any())
}

const BEARER_PREFIX: &str = "Bearer ";

#[component]
fn HeadersBox(key: Signal<Option<String>>) -> impl IntoView {
    let keep = RwSignal::new(store::load());
    let rows = RwSignal::new(Vec::<Row>::new());
    // Another connection chosen: its own rows.
    Effect::new(move |_| rows.set(key.get().map(|k| store::rows(&k)).unwrap_or_default()));
    let save = move |new: Vec<Row>| {
        if let Some(k) = key.get_untracked() {
            store::set_rows(&k, new.clone());
            store::persist(keep.get_untracked());
        }
        rows.set(new);
    };
    let edit = move |i: usize, name: bool| {
        move |ev: web_sys::Event| {
            let v = event_target_value(&ev);
            let mut r = rows.get_untracked();
            if let Some(row) = r.get_mut(i) {
                if name { row.0 = v } else { row.1 = v }
            }
            save(r);
        }
    };
    let bearer = move || {
        rows.with(|r| {
            r.iter()
                .find(|(n, _)| n.eq_ignore_ascii_case("authorization"))
                .and_then(|(_, v)| v.strip_prefix(BEARER_PREFIX).map(str::to_owned))
                .unwrap_or_default()
        })
    };
    let set_bearer = move |ev: web_sys::Event| {
        let token = event_target_value(&ev);
        let mut r = rows.get_untracked();
        r.retain(|(n, _)| !n.eq_ignore_ascii_case("authorization"));
        if !token.trim().is_empty() {
            r.insert(
                0,
                (
                    "Authorization".to_owned(),
                    format!("{BEARER_PREFIX}{}", token.trim()),
                ),
            );
        }
        save(r);
    };
    let relay = move || key.with(|k| k.as_deref().is_some_and(|k| k.starts_with("relay:")));
    let list = move || {
        rows.get()
            .into_iter()
            .enumerate()
            .map(|(i, (name, value))| {
                let why = store::problem(&name, &value);
                view! {
                    <li class="header-row" data-testid="header-row">
                        <input type="text" data-testid="header-name" spellcheck="false" placeholder="Name"
                            aria-label=format!("Header {} name", i + 1)
                            prop:value=name on:change=edit(i, true)/>
                        <input type="password" data-testid="header-value" autocomplete="off" spellcheck="false"
                            placeholder="Value" aria-label=format!("Header {} value (hidden)", i + 1)
                            prop:value=value on:change=edit(i, false)/>
                        <button type="button" data-testid="header-remove" aria-label=format!("Remove header {}", i + 1)
                            on:click=move |_| {
                                let mut r = rows.get_untracked();
                                if i < r.len() { r.remove(i); }
                                save(r);
                            }>"Remove"</button>
                        {why.map(|w| view! { <span class="hint bad" data-testid="header-problem">{w}" (not sent)"</span> })}
                    </li>
                }
            })
            .collect_view()
    };
    view! {
        <Show when=move || key.with(Option::is_some)>
            <details class="conn-headers" data-testid="conn-headers">
                <summary>{move || format!("Headers ({})", rows.with(Vec::len))}</summary>
                <label>"Bearer token"
                    <input type="password" data-testid="bearer-input" autocomplete="off" spellcheck="false"
                        prop:value=bearer on:change=set_bearer/>
                </label>
                <ul class="header-rows">{list}</ul>
                <button type="button" data-testid="header-add"
                    on:click=move |_| {
                        let mut r = rows.get_untracked();
                        r.push((String::new(), String::new()));
                        rows.set(r);
                    }>"Add header"</button>
                <label>"Remember headers"
                    <select data-testid="headers-keep" prop:value=move || keep.get().id()
                        on:change=move |ev| {
                            keep.set(KeyKeep::from_id(&event_target_value(&ev)));
                            store::persist(keep.get_untracked());
                        }>
                        {options(KeyKeep::ALL.map(|k| (k.id(), k.label())).to_vec())}
                    </select>
                </label>
                <p class="hint" data-testid="headers-note">
                    {move || if relay() {
                        "Through the relay only Authorization is passed on (as Mcpg-Remote-Authorization; the bridge forwards it as Authorization). A remote's other headers belong in its [[remote]] config."
                    } else {
                        "Sent with every request to this URL (a cross-origin server must allow them in CORS)."
                    }}
                    " Values stay in memory unless you choose to keep them; they are never shown, logged, or put in a link, an export or the wire log."
                </p>
            </details>
        </Show>
    }
}
