//! One row of the wire log.

use leptos::prelude::*;

use super::json_block::JsonBlock;
use crate::state::LogRow;

/// A frame, a message between a view and the host, a diagnostic, a stderr line
/// or a note.
#[component]
pub fn LogRowView(
    /// The row.
    row: LogRow,
) -> impl IntoView {
    match row {
        // A message between a view and the host (MCP Apps) is drawn as a frame is,
        // in its own lane: neither over MCP nor inside the host.
        LogRow::Wire {
            sent,
            at_ms,
            size,
            ref summary,
            ref raw,
            ..
        }
        | LogRow::App {
            sent,
            at_ms,
            size,
            ref summary,
            ref raw,
            ..
        } => {
            let app = matches!(row, LogRow::App { .. });
            let (lane, testid) = if app { ("app", "app-row") } else { ("wire", "wire-row") };
            let dir = if sent { "sent" } else { "received" };
            let arrow = match (app, sent) {
                (false, true) => "→",
                (false, false) => "←",
                (true, true) => "app ↔ host ⇢",
                (true, false) => "app ↔ host ⇠",
            };
            // As the steps do: a huge message is shown as it came, not parsed again.
            let pretty = (raw.len() <= mcpg_loop_data::REINDENT_MAX)
                .then(|| serde_json::from_str::<serde_json::Value>(raw).ok())
                .flatten()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| raw.to_string());
            let label = format!(
                "{arrow} {summary} · {} ms · {size} B",
                at_ms
            );
            view! {
                <li class=format!("row {lane} {dir}") data-testid=testid data-dir=dir>
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
