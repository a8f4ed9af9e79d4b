//! A labelled block of JSON with a copy button. The text is a text node, never
//! HTML; large blocks render only once opened, and then only their head (Copy
//! takes it all).

use std::sync::Arc;

use leptos::prelude::*;

use super::long_text::LongText;
use crate::effects;

/// Label, pretty JSON, copy.
#[component]
pub fn JsonBlock(
    /// What the block is.
    #[prop(into)]
    label: String,
    /// The JSON text (shared: a step's block can be megabytes).
    #[prop(into)]
    json: Arc<str>,
    /// Whether it starts open.
    #[prop(optional)]
    open: bool,
) -> impl IntoView {
    let shown = RwSignal::new(open);
    let copied = RwSignal::new(false);
    let text = StoredValue::new(json);
    view! {
        <details class="json" open=open on:toggle=move |ev| {
            use wasm_bindgen::JsCast as _;
            let is_open = ev
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                .is_some_and(|d| d.open());
            shown.set(is_open);
        }>
            <summary>{label}</summary>
            <Show when=move || shown.get()>
                <div class="json-body">
                    <button class="copy quiet" data-testid="copy-json" on:click=move |_| {
                        effects::copy(&text.get_value());
                        copied.set(true);
                    }>{move || if copied.get() { "Copied" } else { "Copy" }}</button>
                    <LongText text=text.get_value() testid="json"/>
                </div>
            </Show>
        </details>
    }
}
