//! One hosted view: its sandboxed frame, where its dialogue stands, the links it
//! asks to open (opened only on a click), and what the host refused it. Everything
//! the view or its server sent is shown as text; its HTML goes only into the
//! sandboxed frame, never into this page.

use leptos::html::Iframe;
use leptos::prelude::*;

use crate::effects::app_frames;
use crate::state::use_app;

/// The card of view `id` (read from the page's views, so it follows their changes).
#[component]
pub fn AppViewCard(
    /// The view's id.
    id: u64,
) -> impl IntoView {
    let st = use_app();
    let me = Memo::new(move |_| st.apps.with(|a| a.iter().find(|v| v.id == id).cloned()));
    let Some(first) = me.get_untracked() else {
        return ().into_any();
    };
    let frame: NodeRef<Iframe> = NodeRef::new();
    let written = StoredValue::new(false);
    Effect::new(move |_| {
        if let Some(f) = frame.get() {
            app_frames::register(id, f);
        }
    });
    // The height the view asked for, set through the CSSOM: the page's policy
    // refuses a style attribute (`style-src 'self'`), not a property set by script.
    Effect::new(move |_| {
        let h = me
            .with(|v| v.as_ref().and_then(|v| v.height))
            .unwrap_or(320)
            .min(2000);
        if let Some(f) = frame.get() {
            let _ = web_sys::HtmlElement::style(&f).set_property("height", &format!("{h}px"));
        }
    });
    on_cleanup(move || app_frames::unregister(id));
    let (html, policy) = (first.html.clone(), first.policy.clone());
    let on_load = move |_| {
        if written.get_value() {
            return;
        }
        if let Some(f) = frame.get_untracked() {
            written.set_value(true);
            app_frames::write_view(&f, &html, &policy);
        }
    };
    let hosted = !first.html.is_empty();
    let title = format!("The view of {}", first.tool);
    let status = move || me.with(|v| v.as_ref().map_or("gone", |v| v.status));
    let class = move || {
        let full = me.with(|v| v.as_ref().is_some_and(|v| v.fullscreen));
        let border = first.border;
        format!(
            "app-view{}{}",
            if full { " fullscreen" } else { "" },
            if border { " bordered" } else { "" }
        )
    };
    let links = move || {
        me.with(|v| v.as_ref().map(|v| v.links.clone()).unwrap_or_default())
            .into_iter()
            .map(|l| {
                let ticket = l.ticket;
                let decide = move |open: bool| {
                    app_frames::decide_link(id, ticket, open);
                };
                view! {
                    <li data-testid="app-link">
                        "The view asks to open "<code data-testid="app-link-url">{l.url.clone()}</code>" "
                        <button type="button" data-testid="app-link-open" on:click=move |_| decide(true)>"Open in a new tab"</button>
                        " "
                        <button type="button" class="quiet" data-testid="app-link-dismiss" on:click=move |_| decide(false)>"Dismiss"</button>
                    </li>
                }
            })
            .collect_view()
    };
    let notes = move || {
        me.with(|v| v.as_ref().map(|v| v.notes.clone()).unwrap_or_default())
            .into_iter()
            .map(|n| view! { <li data-testid="app-note">{n}</li> })
            .collect_view()
    };
    view! {
        <figure class=class data-testid="app-view" data-view=id.to_string() data-status=status>
            <figcaption>
                <span class="badge app" data-testid="app-where">"app ↔ host"</span>" "
                <strong>{title.clone()}</strong>" · "<code>{first.uri.clone()}</code>" · "
                <span data-testid="app-status">{status}</span>
            </figcaption>
            <p class="explain">"The tool links this view (its _meta.ui.resourceUri). The host read it over MCP and runs it in a sandboxed frame with no access to this page: the view talks only to the host, by postMessage, and reaches the server only through it. Its messages are the wire log's app ↔ host rows."</p>
            {hosted.then(|| view! {
                <iframe node_ref=frame data-testid="app-frame" title=title.clone()
                    sandbox="allow-scripts" src="app-frame.html" referrerpolicy="no-referrer"
                    on:load=on_load></iframe>
            })}
            <ul class="app-links">{links}</ul>
            <ul class="app-notes">{notes}</ul>
            <details>
                <summary>"Content-Security-Policy of the view"</summary>
                <code data-testid="app-policy">{first.policy.clone()}</code>
            </details>
        </figure>
    }
    .into_any()
}
