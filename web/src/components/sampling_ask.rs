//! A sampling request (`sampling/createMessage`): the exact request in readable
//! parts, then, as the spec recommends, a person approves (or edits, or rejects)
//! the request, picks who writes the reply (the deterministic mock or the learner),
//! and approves, edits or rejects the reply before anything goes back.

use leptos::prelude::*;
use mcpg_host::asks::{MOCK_MODEL, Reply, Sampled, SamplingAsk, mock_sample};
use serde_json::json;

use crate::effects::asks::answer;
use crate::state::pretty;

/// The request with its last user message replaced by `text` (the learner's edit).
fn edited(ask: &SamplingAsk, text: &str) -> SamplingAsk {
    let mut ask = ask.clone();
    if let Some(m) = ask.messages.iter_mut().rev().find(|m| m.role == "user") {
        m.content = vec![json!({"type": "text", "text": text})];
    }
    ask
}

/// The request's parts, each server string a text node.
fn request_view(ask: &SamplingAsk) -> AnyView {
    let messages = ask
        .messages
        .iter()
        .map(|m| {
            view! { <li><span class="role">{m.role.clone()}": "</span><span data-testid="sampling-message">{m.text()}</span></li> }
        })
        .collect_view();
    let tools = ask.tools.iter().map(|t| t.name.clone()).collect::<Vec<_>>();
    view! {
        <dl class="sampling-request" data-testid="sampling-request">
            <dt>"messages"</dt><dd><ol>{messages}</ol></dd>
            <dt>"systemPrompt"</dt>
            <dd data-testid="sampling-system">{ask.system_prompt.clone().unwrap_or_else(|| "(none)".into())}</dd>
            <dt>"modelPreferences"</dt>
            <dd><pre>{ask.model_preferences.as_ref().map_or_else(|| "(none)".to_owned(), pretty)}</pre></dd>
            <dt>"maxTokens"</dt><dd data-testid="sampling-max-tokens">{ask.max_tokens.to_string()}</dd>
            <dt>"temperature"</dt><dd>{ask.temperature.map_or_else(|| "(not set)".to_owned(), |t| t.to_string())}</dd>
            <dt>"includeContext"</dt><dd>{ask.include_context.clone().unwrap_or_else(|| "(not set)".into())}</dd>
            <dt>"tools"</dt>
            <dd data-testid="sampling-tools">{if tools.is_empty() { "(none)".to_owned() } else { tools.join(", ") }}</dd>
        </dl>
    }
    .into_any()
}

/// One sampling request and its answer.
#[component]
pub fn SamplingAskView(
    /// The question's number.
    id: u64,
    /// The request, read.
    ask: SamplingAsk,
    /// Still waiting for an answer.
    waiting: bool,
) -> impl IntoView {
    let asked = RwSignal::new(ask.last_user_text());
    let approved = RwSignal::new(false);
    let draft = RwSignal::new(None::<(String, String)>);
    let reject = move |_| answer(id, Reply::SamplingRejected);
    let request = request_view(&ask);
    // Kept in the reactive arena so the click handler is `Copy`, as `Show` needs.
    let stored = StoredValue::new(ask);
    let mock = move |_| {
        let s = stored.with_value(|ask| mock_sample(&edited(ask, &asked.get_untracked())));
        let text = s
            .content
            .get("text")
            .and_then(|t| t.as_str())
            .unwrap_or("")
            .to_owned();
        draft.set(Some((text, MOCK_MODEL.to_owned())));
    };
    let send = move |_| {
        if let Some((text, model)) = draft.get_untracked() {
            answer(id, Reply::Sampled(Sampled::text(text, model)));
        }
    };
    view! {
        <div class="sampling" data-testid="sampling-ask">
            {request}
            <Show when=move || waiting>
                <Show when=move || !approved.get() fallback=|| ()>
                    <label for=format!("sampling-asked-{id}")>"What the model will be asked (you may edit it)"</label>
                    <textarea id=format!("sampling-asked-{id}") data-testid="sampling-edit" rows="2"
                        prop:value=move || asked.get()
                        on:input=move |ev| asked.set(event_target_value(&ev))></textarea>
                    <div class="buttons">
                        <button class="primary" data-testid="sampling-approve" on:click=move |_| approved.set(true)>
                            "Approve the request"
                        </button>
                        <button data-testid="sampling-reject" on:click=reject>"Reject it"</button>
                    </div>
                </Show>
                <Show when=move || approved.get() && draft.with(Option::is_none) fallback=|| ()>
                    <p>"Who writes the reply?"</p>
                    <div class="buttons">
                        <button class="primary" data-testid="sampling-mock" on:click=mock>"The mock model"</button>
                        <button data-testid="sampling-write"
                            on:click=move |_| draft.set(Some((String::new(), "you".to_owned())))>"I write it"</button>
                    </div>
                </Show>
                <Show when=move || draft.with(Option::is_some) fallback=|| ()>
                    <label for=format!("sampling-draft-{id}")>
                        {move || format!("The reply (model {:?}); edit it, then send or reject it", draft.with(|d| d.as_ref().map(|d| d.1.clone()).unwrap_or_default()))}
                    </label>
                    <textarea id=format!("sampling-draft-{id}") data-testid="sampling-draft" rows="3"
                        prop:value=move || draft.with(|d| d.as_ref().map(|d| d.0.clone()).unwrap_or_default())
                        on:input=move |ev| draft.update(|d| if let Some(d) = d { d.0 = event_target_value(&ev) })></textarea>
                    <div class="buttons">
                        <button class="primary" data-testid="sampling-send" on:click=send>"Send this reply"</button>
                        <button data-testid="sampling-reject-reply" on:click=reject>"Reject the reply"</button>
                    </div>
                </Show>
            </Show>
        </div>
    }
}
