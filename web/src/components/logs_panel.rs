//! The Logs panel: the level the server should log at (`logging/setLevel`, or the
//! 2026-07-28 per-request level), and the server's `notifications/message` with
//! level, logger and time, filtered by level and text. Data is shown as text.

use leptos::prelude::*;
use mcpg_core::model::LoggingLevel;
use mcpg_text::case::to_lower;

use crate::effects::features;
use crate::state::use_app;

/// The eight RFC 5424 levels, least severe first.
const LEVELS: [&str; 8] = [
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
];

fn options() -> impl IntoView {
    LEVELS
        .iter()
        .map(|l| view! { <option value=*l>{*l}</option> })
        .collect_view()
}

/// The Logs panel.
#[component]
pub fn LogsPanel() -> impl IntoView {
    let fs = use_app().features;
    let min = RwSignal::new(String::new());
    let text = RwSignal::new(String::new());
    let rows = move || {
        let floor = LoggingLevel::parse(&min.get());
        let t = to_lower(&text.get());
        let all = fs.logs.get();
        let total = all.len();
        let shown: Vec<_> = all
            .into_iter()
            .rev()
            .filter(|e| floor.is_none_or(|f| e.level >= f))
            .filter(|e| {
                t.is_empty()
                    || to_lower(&e.data).contains(&t)
                    || e.logger
                        .as_deref()
                        .is_some_and(|l| to_lower(l).contains(&t))
            })
            .collect();
        let count = format!("{} of {total} message(s), newest first", shown.len());
        let body = shown
            .into_iter()
            .map(|e| {
                let level = e.level.as_str();
                view! {
                    <tr data-testid="log-message" data-level=level>
                        <td><span class=format!("chip level-{level}")>{level}</span></td>
                        <td>{e.logger.unwrap_or_default()}</td>
                        <td class="num">{format!("{} ms", e.at_ms)}</td>
                        <td><pre class="log-data">{e.data}</pre></td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <p class="muted" data-testid="logs-count">{count}</p>
            <table class="logs-table">
                <thead><tr><th scope="col">"Level"</th><th scope="col">"Logger"</th><th scope="col">"Time"</th><th scope="col">"Message"</th></tr></thead>
                <tbody>{body}</tbody>
            </table>
        }
    };
    let chosen = move || {
        fs.level
            .with(|l| l.level.map(|l| l.as_str().to_owned()).unwrap_or_default())
    };
    view! {
        <div class="logs" data-testid="logs-panel">
            <div class="tools-head">
                <label for="log-level">"Server log level"</label>
                <select id="log-level" data-testid="log-level" prop:value=chosen
                    on:change=move |ev| {
                        if let Some(l) = LoggingLevel::parse(&event_target_value(&ev)) {
                            features::set_log_level(l);
                        }
                    }>
                    <option value="" disabled=true>"choose…"</option>
                    {options()}
                </select>
                <button class="quiet" data-testid="logs-clear" on:click=move |_| features::clear_logs()>"Clear"</button>
            </div>
            <p class="hint" data-testid="log-level-status" role="status">{move || fs.level.with(|l| l.status.clone())}</p>
            <p class="hint">"The server sends notifications/message at the level chosen and above; what it logs is for the user and the developer, not for the model."</p>
            <div class="tools-head">
                <label for="logs-min">"Show from"</label>
                <select id="logs-min" data-testid="logs-min" on:change=move |ev| min.set(event_target_value(&ev))>
                    <option value="">"every level"</option>
                    {options()}
                </select>
                <label for="logs-filter" class="visually-hidden">"Filter messages"</label>
                <input id="logs-filter" type="search" placeholder="Filter by text or logger" data-testid="logs-filter"
                    prop:value=move || text.get() on:input=move |ev| text.set(event_target_value(&ev))/>
            </div>
            {rows}
        </div>
    }
}
