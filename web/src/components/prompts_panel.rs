//! The Prompts panel: prompts page by page; choosing one opens its form. Prompts
//! are the user's choice (a slash command, a menu), not the model's.

use leptos::prelude::*;
use mcpg_core::model::Prompt;
use mcpg_page::features::view::ListState;

use super::list_state::{ListStateLine, page_heading};
use super::prompt_form::PromptForm;
use crate::effects::features;
use crate::state::use_app;

/// The Prompts panel.
#[component]
pub fn PromptsPanel() -> impl IntoView {
    let fs = use_app().features;
    if fs.prompts.with_untracked(|l| l.state == ListState::Idle) {
        features::list_prompts();
    }
    let chosen: RwSignal<Option<Prompt>> = RwSignal::new(None);
    let row = move |p: Prompt| {
        let heading = p.title.clone().unwrap_or_else(|| p.name.clone());
        let args = p
            .arguments
            .iter()
            .flatten()
            .map(|a| a.name.clone())
            .collect::<Vec<_>>()
            .join(", ");
        let args = if args.is_empty() {
            "no arguments".to_owned()
        } else {
            format!("arguments: {args}")
        };
        let name = p.name.clone();
        let code = p.name.clone();
        let description = p.description.clone();
        view! {
            <li class="prompt" data-testid="prompt" data-name=name.clone()>
                <p><strong>{heading}</strong>" "<code>{code}</code></p>
                {description.map(|d| view! { <p class="muted">{d}</p> })}
                <p class="muted">{args}</p>
                <button type="button" class="quiet" data-testid="prompt-choose"
                    aria-label=format!("Choose the prompt {name}")
                    on:click=move |_| chosen.set(Some(p.clone()))>"Choose"</button>
            </li>
        }
    };
    let pages = move || {
        fs.prompts
            .get()
            .pages
            .into_iter()
            .map(|pg| {
                let heading = page_heading(
                    pg.page,
                    pg.items.len(),
                    "prompts",
                    pg.next_cursor.as_deref(),
                );
                let rows = pg.items.into_iter().map(row).collect_view();
                view! {
                    <section class="page" data-testid="prompts-page" data-page=pg.page.to_string()>
                        <h3 class="page-boundary">{heading}</h3>
                        <ul class="tool-list">{rows}</ul>
                    </section>
                }
            })
            .collect_view()
    };
    view! {
        <div class="prompts" data-testid="prompts-panel">
            <div class="tools-head">
                <button class="quiet" data-testid="prompts-refresh" on:click=move |_| features::list_prompts()>"List again"</button>
                <ListStateLine state=Signal::derive(move || fs.prompts.with(|l| l.state.clone())) what="prompts"/>
            </div>
            <p class="hint">"Prompts are templates the user picks (a slash command, a menu): the server offers them, the host shows them, the user chooses one. The model does not."</p>
            {pages}
            {move || chosen.get().map(|p| view! { <PromptForm prompt=p/> })}
        </div>
    }
}
