//! Share (a link carrying the session in its fragment), Export and Import (a file,
//! also by dropping it on the page), Compare two sessions (the session diff), and
//! the model script editor.

use leptos::prelude::*;
use wasm_bindgen::JsCast as _;

use super::once_shown::once_shown;
use super::script_editor::ScriptEditor;
use super::session_diff::session_diff_panel;
use super::unrecorded_notice::UnrecordedNotice;
use crate::effects;

/// The share row.
#[component]
pub fn ShareBar() -> impl IntoView {
    let link = RwSignal::new(None::<String>);
    let diff_open = RwSignal::new(false);
    let message = RwSignal::new(None::<String>);
    let on_share = move |_| {
        wasm_bindgen_futures::spawn_local(async move {
            match effects::share::share().await {
                Ok(l) => {
                    message.set(Some(format!(
                        "Link ready ({} characters). The session travels in the part after #, which the browser never sends to a server.",
                        l.len()
                    )));
                    link.set(Some(l));
                }
                Err(e) => {
                    link.set(None);
                    message.set(Some(e));
                }
            }
        });
    };
    let on_export = move |_| {
        // Lazy: the export code is fetched on first use.
        wasm_bindgen_futures::spawn_local(async move {
            if let Err(e) = effects::share::export().await {
                message.set(Some(format!("Export failed: {e}")));
            }
        });
    };
    let on_import = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        if let Some(input) = input {
            if let Some(f) = input.files().and_then(|f| f.get(0)) {
                effects::share::import_file(f);
            }
            // The same file can be picked again.
            input.set_value("");
        }
    };
    view! {
        <section class="share" data-testid="share-bar" aria-labelledby="share-title">
            <h2 id="share-title">"Share this session"</h2>
            <button class="quiet" data-testid="share-button" on:click=on_share>"Share link"</button>
            <button class="quiet" data-testid="export-button" on:click=on_export>"Export file"</button>
            <label class="quiet file-pick">"Import file "
                <input type="file" data-testid="import-file" accept=".json,application/json,text/plain"
                    on:change=on_import/>
            </label>
            <span class="muted">"(or drop a session file on the page)"</span>
            <button class="quiet" data-testid="diff-open" aria-expanded=move || diff_open.get().to_string()
                on:click=move |_| diff_open.update(|o| *o = !*o)>"Compare two sessions"</button>
            <UnrecordedNotice/>
            <Show when=move || link.with(Option::is_some)>
                <input type="text" readonly data-testid="share-link" aria-label="Session link"
                    prop:value=move || link.get().unwrap_or_default()/>
                <button class="quiet" data-testid="share-copy"
                    on:click=move |_| effects::copy(&link.get_untracked().unwrap_or_default())>"Copy"</button>
            </Show>
            <Show when=move || message.with(Option::is_some)>
                <p data-testid="share-message">{move || message.get().unwrap_or_default()}</p>
            </Show>
            <div class="diff-holder" hidden=move || !diff_open.get()>
                {once_shown(move || diff_open.get(), session_diff_panel)}
            </div>
            <ScriptEditor/>
        </section>
    }
}
