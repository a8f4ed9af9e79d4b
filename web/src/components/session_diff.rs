//! Compare two sessions, side by side: session A and session B (each pasted as a
//! link or a session file's JSON, picked as a file, or, for A, this page's own
//! session), and what changed in the server between them, one row per change with
//! A's value beside B's. The comparison is `mcpg diff`'s (`mcpg_recording::diff`).
//!
//! The panel is a split chunk of its own, fetched the first time Compare is pressed:
//! few learners open it, and in the later parts' chunk it delayed the loop's
//! controls for everyone (about 31 KB brotli, some 150 ms at 1.6 Mbps). Its price is
//! a few hundred bytes of the first load: every main-module function a chunk calls
//! that no chunk called before takes a table entry there. Every name and value
//! shown is a session's (a server's) words, rendered as text, never as markup.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use mcpg_page_later::session_diff::{Compared, SideSummary};
use mcpg_recording::diff::{FieldChange, ToolFieldChange};
use serde_json::Value;
use wasm_bindgen::JsCast as _;

use super::once_shown::Loaded;
use crate::effects::session_diff as effects;

/// The panel, from its own chunk.
#[wasm_split(mcpg_session_diff, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn session_diff_panel() -> Loaded {
    Ok(view! { <SessionDiff/> }.into_any())
}

/// Two sessions and their diff.
#[component]
fn SessionDiff() -> impl IntoView {
    let a = RwSignal::new(String::new());
    let b = RwSignal::new(String::new());
    let outcome = RwSignal::new(None::<Result<Compared, String>>);
    let busy = RwSignal::new(false);
    let on_compare = move |_| {
        busy.set(true);
        wasm_bindgen_futures::spawn_local(async move {
            let r = effects::compare(a.get_untracked(), b.get_untracked()).await;
            outcome.set(Some(r));
            busy.set(false);
        });
    };
    view! {
        <section class="session-diff" data-testid="diff-panel" aria-labelledby="diff-title">
            <h3 id="diff-title">"Compare two sessions"</h3>
            <p class="muted">
                "What changed in the server from session A to session B: tools added, removed, renamed or changed (field by field), and the answers to the same call (same tool, same arguments). The same comparison as "
                <code>"mcpg diff A B"</code> ". Nothing is connected."
            </p>
            <div class="diff-sides">
                {side("A", a, outcome)}
                {side("B", b, outcome)}
            </div>
            <button class="primary" data-testid="diff-compare" on:click=on_compare
                prop:disabled=move || busy.get()>"Compare"</button>
            {move || outcome.get().map(|r| match r {
                Ok(c) => compared(&c),
                Err(e) => view! { <p class="notice" role="alert" data-testid="diff-error">{e}</p> }.into_any(),
            })}
        </section>
    }
}

/// One side's inputs: paste, pick a file, or (A) take this page's session.
fn side(
    which: &'static str,
    text: RwSignal<String>,
    outcome: RwSignal<Option<Result<Compared, String>>>,
) -> AnyView {
    let lower = if which == "A" { "a" } else { "b" };
    let on_file = move |ev: leptos::ev::Event| {
        let input = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok());
        let Some(input) = input else { return };
        let file = input.files().and_then(|f| f.get(0));
        // The same file can be picked again.
        input.set_value("");
        if let Some(f) = file {
            wasm_bindgen_futures::spawn_local(async move {
                match effects::file_text(f).await {
                    Ok(t) => text.set(t),
                    Err(e) => outcome.set(Some(Err(format!("session {which}: {e}")))),
                }
            });
        }
    };
    let own = (which == "A").then(|| {
        view! {
            <button class="quiet" data-testid="diff-a-page"
                on:click=move |_| text.set(effects::page_session())>"This page's session"</button>
        }
    });
    view! {
        <div class="diff-side" data-testid=format!("diff-side-{lower}")>
            <h4>"Session " {which}</h4>
            <textarea rows="4" data-testid=format!("diff-{lower}-text")
                aria-label=format!("Session {which}: a link or a session file's JSON")
                placeholder="Paste a session link or a session file's JSON"
                prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <label class="quiet file-pick">"Session file "
                <input type="file" data-testid=format!("diff-{lower}-file")
                    accept=".json,application/json,text/plain" on:change=on_file/>
            </label>
            {own}
        </div>
    }
    .into_any()
}

/// One row of the table: what, which tool, where, A's value, B's value.
struct Row {
    kind: &'static str,
    tool: String,
    place: String,
    a: String,
    b: String,
}

/// How much of a value a cell shows.
const SHORT: usize = 300;

fn short(v: Option<&Value>) -> String {
    let Some(v) = v else { return "(absent)".into() };
    let s = v.to_string();
    match s.char_indices().nth(SHORT) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

fn change_row(kind: &'static str, tool: &str, place: String, c: &FieldChange) -> Row {
    Row {
        kind,
        tool: tool.to_owned(),
        place,
        a: short(c.before.as_ref()),
        b: short(c.after.as_ref()),
    }
}

fn tool_rows(kind: &'static str, tool: &str, changes: &[ToolFieldChange]) -> Vec<Row> {
    changes
        .iter()
        .map(|c| {
            let place = format!("{} {}", c.area.label(), c.change.pointer);
            change_row(kind, tool, place, &c.change)
        })
        .collect()
}

/// The diff as rows, in the diff's own order.
fn rows(c: &Compared) -> Vec<Row> {
    let mut out = Vec::new();
    let tool = |kind, name: &str, a: &str, b: &str| Row {
        kind,
        tool: name.to_owned(),
        place: "tool".into(),
        a: a.to_owned(),
        b: b.to_owned(),
    };
    if let Some(t) = &c.diff.tools {
        out.extend(t.added.iter().map(|e| tool("added", &e.name, "—", &e.name)));
        out.extend(
            t.removed
                .iter()
                .map(|e| tool("removed", &e.name, &e.name, "—")),
        );
        for r in &t.renamed {
            out.push(tool("renamed", &r.to, &r.from, &r.to));
            out.extend(tool_rows("renamed", &r.to, &r.changes));
        }
        for ch in &t.changed {
            out.extend(tool_rows("changed", &ch.name, &ch.changes));
        }
    }
    for r in &c.diff.results {
        let call = format!("{}({})", r.tool, short(Some(&r.arguments)));
        out.extend(r.changes.iter().map(|ch| {
            let place = if ch.pointer.is_empty() {
                format!("{call} (whole answer)")
            } else {
                format!("{call} {}", ch.pointer)
            };
            change_row("result", &r.tool, place, ch)
        }));
    }
    out
}

fn summary(which: &str, s: &SideSummary) -> String {
    let tools = s
        .tools
        .map_or("no tools/list".to_owned(), |n| format!("{n} tools"));
    format!("{which}: {tools}, {} calls", s.calls)
}

/// The comparison: both sides' counts, then the table (or "no differences").
fn compared(c: &Compared) -> AnyView {
    let n = c.diff.count();
    let head = format!(
        "{} · {} · {n} difference{} · {} calls compared",
        summary("A", &c.a),
        summary("B", &c.b),
        if n == 1 { "" } else { "s" },
        c.diff.calls.compared
    );
    let uncompared = c.diff.tools.is_none().then(|| {
        view! { <p class="muted" data-testid="diff-no-catalog">"The tool catalogs were not compared: a session never listed its tools."</p> }
    });
    let body = if n == 0 {
        view! { <p data-testid="diff-none">"No differences: both sessions show the same server."</p> }.into_any()
    } else {
        let rows = rows(c)
            .into_iter()
            .map(|r| {
                let name = r.tool.clone();
                view! {
                    <tr data-testid="diff-row" data-kind=r.kind data-tool=name>
                        <td data-testid="diff-kind">{r.kind}</td>
                        <td data-testid="diff-tool">{r.tool}</td>
                        <td data-testid="diff-where"><code>{r.place}</code></td>
                        <td data-testid="diff-a"><code>{r.a}</code></td>
                        <td data-testid="diff-b"><code>{r.b}</code></td>
                    </tr>
                }
            })
            .collect_view();
        view! {
            <table class="diff-table" data-testid="diff-table">
                <thead><tr><th>"Change"</th><th>"Tool"</th><th>"Where"</th><th>"Session A"</th><th>"Session B"</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
        }
        .into_any()
    };
    view! {
        <div data-testid="diff-result">
            <p data-testid="diff-summary">{head}</p>
            {uncompared}
            {body}
        </div>
    }
    .into_any()
}
