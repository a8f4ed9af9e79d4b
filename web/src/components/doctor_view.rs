//! The Server panel's Doctor: a button that runs `mcpg-doctor`'s checks against
//! the URL in the connect bar's box, and one row per check with its verdict, the
//! evidence and the fix. Everything a server sent is shown as text, never HTML.

use std::rc::Rc;

use leptos::prelude::*;

use crate::effects::doctor::{self, Snapshot};
use crate::state::{Source, use_app};

/// The Doctor: its button, a summary and the checks.
#[component]
pub fn DoctorView() -> impl IntoView {
    let st = use_app();
    let shown = RwSignal::new(None::<Snapshot>);
    let note = RwSignal::new(None::<String>);
    let run = move |_| {
        let url = doctor::url_in_box().or_else(|| match st.source.get_untracked() {
            Source::Url(u) => Some(u),
            _ => None,
        });
        let Some(url) = url else {
            shown.set(None);
            note.set(Some(
                "The Doctor checks a server by its http(s) URL: choose \"Streamable HTTP URL\" \
                 and enter it (the demo over HTTP is https://mcp.demo-sse.invalid/mcp). For a \
                 stdio server or a relayed remote, run `mcpg doctor` on the machine of the bridge."
                    .to_owned(),
            ));
            return;
        };
        note.set(None);
        if let Err(e) = doctor::start(&url, Rc::new(move |s| shown.set(Some(s)))) {
            shown.set(None);
            note.set(Some(e.to_string()));
        }
    };
    let summary = move |s: &Snapshot| {
        if s.done {
            format!("{}: worst result {}", s.url, s.worst)
        } else {
            format!("{}: checking…", s.url)
        }
    };
    view! {
        <section class="doctor" data-testid="doctor">
            <h3>"Doctor"</h3>
            <p class="hint">"Runs the checks a connection depends on against the URL in the box, as far as a browser can see them (the CLI's `mcpg doctor URL` sees name resolution, TCP, TLS and CORS preflights too)."</p>
            <button type="button" data-testid="doctor-run" on:click=run>"Doctor"</button>
            {move || note.get().map(|n| view! { <p class="hint" data-testid="doctor-note">{n}</p> })}
            {move || shown.get().map(|s| {
                let rows = s.rows.clone().into_iter().map(|r| view! {
                    <li data-testid="doctor-check" data-check=r.id data-verdict=r.verdict class=format!("doctor-{}", r.verdict)>
                        <strong>{format!("{} {}", r.verdict, r.title)}</strong>
                        " "
                        <span data-testid="doctor-evidence">{r.evidence}</span>
                        {r.fix.map(|f| view! { <p class="fix" data-testid="doctor-fix">{f}</p> })}
                    </li>
                }).collect_view();
                view! {
                    <p data-testid="doctor-summary" data-verdict=s.worst
                        data-state=if s.done { "done" } else { "running" } role="status">
                        {summary(&s)}
                    </p>
                    <ol class="doctor-checks">{rows}</ol>
                }
            })}
        </section>
    }
}
