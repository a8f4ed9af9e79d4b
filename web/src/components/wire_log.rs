//! Every JSON-RPC frame both ways, with time and size, and the core's diagnostics
//! and the server's stderr in between, in the order they happened.
//!
//! The rows live in the driver's bounded log; this view shows only a window of the
//! newest ones (more on "Show older"), so a long session costs what is on screen.
//! The counts come with the log's change, never recounted here.

use leptos::prelude::*;

use super::log_row::LogRowView;
use crate::effects;
use crate::state::{LogRow, use_app};

/// Rows shown at first, and added by each "Show older".
const PAGE: usize = 200;

/// The wire log.
#[component]
pub fn WireLog() -> impl IntoView {
    let st = use_app();
    let window = RwSignal::new(PAGE);
    let counts = move || {
        let m = st.log.get();
        format!(
            "{} messages, {} bytes, {} diagnostics",
            m.frames, m.bytes, m.diags
        )
    };
    let dropped = move || {
        let d = st.log.get().dropped;
        (d > 0).then(|| {
            format!(
                "{d} older messages dropped (the page keeps the newest {}).",
                mcpg_page::LOG_CAPACITY
            )
        })
    };
    let hidden = move || st.log.get().len.saturating_sub(window.get());
    // The visible slice: re-read from the driver when the log changes.
    let rows = move || {
        let len = st.log.get().len;
        let from = len.saturating_sub(window.get());
        effects::log_rows(from, len)
    };
    let export_msg = RwSignal::new(None::<String>);
    view! {
        <div class="wire">
            <p class="hint">"→ sent by the page (the client), ← received from the server. Times are milliseconds since the connection started; sizes are bytes on the wire. Open a row for its JSON."</p>
            <p data-testid="wire-summary">{counts}</p>
            <p class="hint" data-testid="wire-dropped">{dropped}</p>
            <p>
                <button class="quiet" data-testid="wire-export" on:click=move |_| {
                    export_msg.set(effects::export_log().err());
                }>"Export the log (JSON)"</button>
                {move || export_msg.get()}
            </p>
            <Show when=move || { hidden() > 0 }>
                <button class="quiet" data-testid="wire-older"
                    on:click=move |_| window.update(|w| *w += PAGE)>
                    {move || format!("Show older ({} more)", hidden())}
                </button>
            </Show>
            <ol class="log" data-testid="wire-log">
                <For each=rows key=LogRow::seq let:row>
                    <LogRowView row=row/>
                </For>
            </ol>
        </div>
    }
}
