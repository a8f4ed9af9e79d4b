//! The MCP Apps views of the loop (issue 29): each tool result whose tool links a
//! view gets it here, under the steps, for as long as its dialogue lasts (a reset
//! asks the view to tear down first, so a frame outlives its step card for at
//! most `mcpg_apps::TEARDOWN_MS`).

use leptos::prelude::*;

use super::app_view::AppViewCard;
use crate::state::use_app;

/// Every hosted view, keyed by its id (a frame is never re-created while its view
/// lives: re-creating it would reload the view).
#[component]
pub fn AppViews() -> impl IntoView {
    let st = use_app();
    view! {
        <Show when=move || st.apps.with(|a| !a.is_empty())>
            <section class="app-views" data-testid="app-views" aria-label="MCP Apps views">
                <For each=move || st.apps.get() key=|v| v.id let(v)>
                    <AppViewCard id=v.id/>
                </For>
            </section>
        </Show>
    }
}
