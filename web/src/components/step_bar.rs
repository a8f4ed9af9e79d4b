//! A narrow screen's step bar: fixed at the bottom on a phone, where the page is
//! one long column. It steps the loop and jumps to the parts a learner looks at
//! between steps (the lesson, the picture, the result), which are otherwise many
//! screens apart. Hidden on a wide screen, where they sit side by side.

use leptos::prelude::*;
use wasm_bindgen::JsCast as _;

use crate::effects;
use crate::state::{Tab, use_app};

/// Scrolls to the element `selector` names and moves the focus there.
fn jump(selector: &str) {
    let target = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(selector).ok().flatten());
    if let Some(e) = target {
        e.scroll_into_view();
        if let Some(h) = e.dyn_ref::<web_sys::HtmlElement>() {
            // Focusable for this move only: a region, not a control.
            if !h.has_attribute("tabindex") {
                let _ = h.set_attribute("tabindex", "-1");
            }
            let _ = h.focus();
        }
    }
}

/// The bar.
#[component]
pub fn StepBar() -> impl IntoView {
    let st = use_app();
    let show_result = move |_| {
        st.tab.set(Tab::Result);
        // After the tab's panel is shown.
        request_animation_frame(|| jump("#panel-result"));
    };
    view! {
        <nav class="step-bar" aria-label="Step bar" data-testid="step-bar">
            <button class="primary" data-testid="bar-step"
                disabled=move || st.running.get()
                on:click=move |_| effects::step()>"Step"</button>
            <button data-testid="bar-lesson" on:click=move |_| jump("[data-testid=lessons]")>"Lesson"</button>
            <button data-testid="bar-steps" on:click=move |_| jump("[data-testid=steps]")>"Steps"</button>
            <button data-testid="bar-picture" on:click=move |_| jump("[data-testid=diagram]")>"Picture"</button>
            <button data-testid="bar-result" on:click=show_result>"Result"</button>
        </nav>
    }
}
