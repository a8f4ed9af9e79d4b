//! Every JSON-RPC frame both ways, with time and size, and the core's diagnostics
//! and the server's stderr in between, in the order they happened.

use leptos::prelude::*;

use super::log_row::LogRowView;
use crate::state::{LogRow, use_app};

/// The wire log.
#[component]
pub fn WireLog() -> impl IntoView {
    let st = use_app();
    let counts = move || {
        st.log.with(|l| {
            let frames = l
                .iter()
                .filter(|r| matches!(r, LogRow::Wire { .. }))
                .count();
            let diags = l
                .iter()
                .filter(|r| matches!(r, LogRow::Diag { .. }))
                .count();
            let bytes: usize = l
                .iter()
                .map(|r| match r {
                    LogRow::Wire { size, .. } => *size,
                    _ => 0,
                })
                .sum();
            format!("{frames} messages, {bytes} bytes, {diags} diagnostics")
        })
    };
    view! {
        <div class="wire">
            <p class="hint">"→ sent by the page (the client), ← received from the server. Times are milliseconds since the connection started; sizes are bytes on the wire. Open a row for its JSON."</p>
            <p data-testid="wire-summary">{counts}</p>
            <ol class="log" data-testid="wire-log">
                <For each=move || st.log.get() key=LogRow::seq let:row>
                    <LogRowView row=row/>
                </For>
            </ol>
        </div>
    }
}
