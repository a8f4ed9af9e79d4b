//! The Resources panel: resources page by page (page boundaries as in Tools), each
//! with **Read** and a subscribe toggle, the templates with their forms, and the
//! latest read.

use leptos::prelude::*;
use mcpg_core::model::Resource;
use mcpg_page::features::view::{ListState, SubState};

use super::list_state::{ListStateLine, page_heading};
use super::resource_read::ResourceRead;
use super::template_form::TemplateForm;
use crate::effects::features;
use crate::feature_state::FeatureState;
use crate::state::use_app;

/// The subscription toggle and its updates for `uri`.
fn subscription(fs: FeatureState, uri: String) -> impl IntoView {
    let u = uri.clone();
    let sub = Memo::new(move |_| fs.subs.with(|s| s.iter().find(|s| s.uri == u).cloned()));
    let on = move || {
        sub.with(|s| {
            s.as_ref()
                .is_some_and(|s| matches!(s.state, SubState::Pending | SubState::On))
        })
    };
    let label = move || if on() { "Unsubscribe" } else { "Subscribe" };
    let status = move || {
        sub.get().map(|s| match s.state {
            SubState::Pending => "asking…".to_owned(),
            SubState::Failed(e) => e,
            SubState::On if s.updates == 0 => "subscribed: no update yet".to_owned(),
            SubState::On => format!(
                "updated ×{} (last at {} ms)",
                s.updates,
                s.last_ms.unwrap_or_default()
            ),
        })
    };
    view! {
        <button type="button" class="quiet" data-testid="subscribe"
            aria-pressed=move || if on() { "true" } else { "false" }
            aria-label={let uri = uri.clone(); move || format!("{} {uri}", label())}
            on:click=move |_| features::subscribe(uri.clone(), !on())>{label}</button>
        <span class="muted" data-testid="subscription" role="status">{status}</span>
    }
}

fn resource_row(fs: FeatureState, r: Resource) -> impl IntoView {
    let name = r.title.clone().unwrap_or_else(|| r.name.clone());
    let detail = [r.mime_type.clone(), r.description.clone()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" · ");
    let uri = r.uri.clone();
    view! {
        <li class="resource" data-testid="resource">
            <p><strong>{name}</strong>" "<code>{r.uri.clone()}</code></p>
            <p class="muted">{detail}</p>
            <div class="buttons">
                <button type="button" class="quiet" data-testid="resource-read-button"
                    aria-label=format!("Read {uri}")
                    on:click={let uri = uri.clone(); move |_| features::read(uri.clone(), false)}>"Read"</button>
                {subscription(fs, uri)}
            </div>
        </li>
    }
}

/// The Resources panel.
#[component]
pub fn ResourcesPanel() -> impl IntoView {
    let fs = use_app().features;
    // Opening the panel is the learner's choice to look: list once.
    if fs.resources.with_untracked(|l| l.state == ListState::Idle) {
        features::list_resources();
    }
    let pages = move || {
        fs.resources
            .get()
            .pages
            .into_iter()
            .map(|p| {
                let heading =
                    page_heading(p.page, p.items.len(), "resources", p.next_cursor.as_deref());
                let rows = p
                    .items
                    .into_iter()
                    .map(|r| resource_row(fs, r))
                    .collect_view();
                view! {
                    <section class="page" data-testid="resources-page" data-page=p.page.to_string()>
                        <h3 class="page-boundary">{heading}</h3>
                        <ul class="tool-list">{rows}</ul>
                    </section>
                }
            })
            .collect_view()
    };
    let templates = move || {
        fs.templates
            .get()
            .pages
            .into_iter()
            .flat_map(|p| p.items)
            .enumerate()
            .map(|(i, t)| view! { <TemplateForm template=t index=i/> })
            .collect_view()
    };
    view! {
        <div class="resources" data-testid="resources-panel">
            <div class="tools-head">
                <button class="quiet" data-testid="resources-refresh" on:click=move |_| features::list_resources()>"List again"</button>
                <ListStateLine state=Signal::derive(move || fs.resources.with(|l| l.state.clone())) what="resources"/>
            </div>
            <p class="hint">"Resources are data the application decides to read (resources/read), not actions the model calls: the model never sees this list unless the host puts something into its context."</p>
            {pages}
            <h3>"Templates"</h3>
            <ListStateLine state=Signal::derive(move || fs.templates.with(|l| l.state.clone())) what="templates"/>
            <ul class="tool-list">{templates}</ul>
            <ResourceRead/>
        </div>
    }
}
