//! One row of the wire log.

use leptos::prelude::*;

use super::json_block::JsonBlock;
use crate::state::LogRow;

/// A frame, a diagnostic, a stderr line or a note.
#[component]
pub fn LogRowView(
    /// The row.
    row: LogRow,
) -> impl IntoView {
    match row {
        LogRow::Wire {
            sent,
            at_ms,
            size,
            summary,
            raw,
            ..
        } => {
            let dir = if sent { "sent" } else { "received" };
            let arrow = if sent { "→" } else { "←" };
            let pretty = serde_json::from_str::<serde_json::Value>(&raw)
                .ok()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| raw.to_string());
            let label = format!(
                "{arrow} {summary} · {} ms · {size} B",
                at_ms
            );
            view! {
                <li class=format!("row wire {dir}") data-testid="wire-row" data-dir=dir>
                    <JsonBlock label=label json=pretty/>
                </li>
            }
            .into_any()
        }
        LogRow::Diag {
            severity,
            rule,
            message,
            ..
        } => {
            let class = format!("row diag {severity}");
            view! {
            <li class=class data-testid="diag-row">
                <span class="sev">{severity}</span>" "<code>{rule}</code>" "{message}
            </li>
            }
            .into_any()
        }
        LogRow::Stderr { line, .. } => view! {
            <li class="row stderr" data-testid="stderr-row"><span class="sev">"stderr"</span>" "{line}</li>
        }
        .into_any(),
        LogRow::Note { text, .. } => view! {
            <li class="row note" data-testid="note-row">{text}</li>
        }
        .into_any(),
    }
}
