//! A real LLM's base URL, model name and API key (split off the first load: only a
//! learner who picks a real model needs it). The key field is a password input whose
//! value is a DOM property only; the key is shown nowhere else.

use leptos::prelude::*;
use leptos::wasm_split::wasm_split;
use mcpg_host::provider::{Provider, needs_key};

use super::model_bar::options;
use super::once_shown::Loaded;
use crate::effects::{self, llm};
use crate::model_state::{KeyKeep, LlmSettings, ModelChoice, slot};
use crate::state::use_app;

/// What the page does for this provider's browser access, in words.
fn advice(p: Provider, origin: &str) -> String {
    let how = match p {
        Provider::Anthropic => "The page sends anthropic-version and anthropic-dangerous-direct-browser-access: true, the header Anthropic requires before it answers a web page.".to_owned(),
        Provider::OpenAiChat => "Any OpenAI-compatible server works too (LM Studio http://localhost:1234/v1, vLLM, Ollama's http://localhost:11434/v1): set its base URL and model name; it must allow this page's origin (CORS).".to_owned(),
        Provider::OpenAiResponses => "The key goes in Authorization: Bearer; the request goes to /v1/responses.".to_owned(),
        Provider::Gemini => "The key goes in the x-goog-api-key header (never in the URL).".to_owned(),
        Provider::Ollama => format!("Ollama needs no key, but it must allow this page: start it with OLLAMA_ORIGINS={origin} ollama serve."),
    };
    format!(
        "{how} Keys stay in memory unless you choose to keep them; they are never shown, logged, or put in a link or an export."
    )
}

/// A real model's settings (lazy: mounted the first time a real model is chosen).
#[wasm_split(mcpg_llm_settings, wasm_split_path = ::leptos::wasm_split, fallible)]
pub fn llm_settings() -> Loaded {
    crate::effects::stylesheet::add_later();
    Ok(view! { <LlmSettingsBox/> }.into_any())
}

/// A real model's settings, shown while a real model is chosen.
#[component]
fn LlmSettingsBox() -> impl IntoView {
    let st = use_app();
    let settings = move || {
        let p = st.provider.get();
        st.llm
            .with(|l| l.get(slot(p)).cloned())
            .unwrap_or_else(|| LlmSettings::default_for(p))
    };
    let edit = move |base: bool| {
        move |ev: web_sys::Event| {
            let v = event_target_value(&ev);
            let p = st.provider.get_untracked();
            let mut s = st
                .llm
                .with_untracked(|l| l.get(slot(p)).cloned())
                .unwrap_or_else(|| LlmSettings::default_for(p));
            if base {
                s.base = v
            } else {
                s.model = v
            }
            effects::set_llm(p, s);
        }
    };
    let key = move || {
        st.api_keys
            .with(|k| k.get(slot(st.provider.get())).cloned().unwrap_or_default())
    };
    let origin = StoredValue::new(llm::origin());
    view! {
        <Show when=move || st.model.get() == ModelChoice::Real>
            <div class="llm-settings" data-testid="llm-settings">
                <label>"Base URL"
                    <input type="url" data-testid="model-base" spellcheck="false"
                        prop:value=move || settings().base on:input=edit(true)/>
                </label>
                <label>"Model name"
                    <input type="text" data-testid="model-name" spellcheck="false"
                        prop:value=move || settings().model on:input=edit(false)/>
                </label>
                <label>{move || if needs_key(st.provider.get()) { "API key" } else { "API key (not needed)" }}
                    <input type="password" data-testid="model-key" autocomplete="off" spellcheck="false"
                        prop:value=key
                        on:input=move |ev| llm::set_key(st, st.provider.get_untracked(), event_target_value(&ev))/>
                </label>
                <label>"Remember the key"
                    <select data-testid="key-keep" prop:value=move || st.key_keep.get().id()
                        on:change=move |ev| llm::set_key_keep(st, KeyKeep::from_id(&event_target_value(&ev)))>
                        {options(KeyKeep::ALL.map(|k| (k.id(), k.label())).to_vec())}
                    </select>
                </label>
                <p class="model-note" data-testid="llm-advice">{move || origin.with_value(|o| advice(st.provider.get(), o))}</p>
            </div>
        </Show>
    }
}
