//! A sampling request (`sampling/createMessage`): the exact request in readable
//! parts, then, as the spec recommends, a person approves (or edits, or rejects)
//! the request, picks who writes the reply (the deterministic mock or the learner),
//! and approves, edits or rejects the reply before anything goes back.

use leptos::prelude::*;
use mcpg_host::asks::{MOCK_MODEL, Reply, Sampled, SamplingAsk, edited_params, mock_sample};
use serde_json::json;

use super::json_block::JsonBlock;
use crate::effects::asks::{answer, sample_with_model};
use crate::model_state::ModelChoice;
use crate::state::{pretty, use_app};

/// The text a sampled message shows for editing (its JSON when it is not text).
fn text_of(s: &Sampled) -> String {
    s.content
        .get("text")
        .and_then(|t| t.as_str())
        .map_or_else(|| s.content.to_string(), str::to_owned)
}

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
    /// What was sent to a real model for it (no key), once asked.
    model_request: Option<String>,
    /// A real model's reply to approve (or why there is none).
    model_draft: Option<Result<Sampled, String>>,
    /// A real model is writing.
    model_busy: bool,
) -> impl IntoView {
    let st = use_app();
    let asked = RwSignal::new(ask.last_user_text());
    // A model asked means the request was approved; its reply is the draft.
    let approved = RwSignal::new(model_request.is_some());
    let from_model = model_draft.as_ref().and_then(|d| d.as_ref().ok()).cloned();
    let draft = RwSignal::new(from_model.as_ref().map(|s| (text_of(s), s.model.clone())));
    let problem = model_draft.and_then(Result::err);
    let reject = move |_| answer(id, Reply::SamplingRejected);
    let request = request_view(&ask);
    // Kept in the reactive arena so the click handlers are `Copy`, as `Show` needs.
    let stored = StoredValue::new((ask, from_model));
    let mock = move |_| {
        let s = stored.with_value(|(ask, _)| mock_sample(&edited(ask, &asked.get_untracked())));
        draft.set(Some((text_of(&s), MOCK_MODEL.to_owned())));
    };
    let send = move |_| {
        let Some((text, model)) = draft.get_untracked() else {
            return;
        };
        // The model's own message (tool uses, stop reason) unless the learner edited it.
        let reply = stored
            .with_value(|(_, m)| m.clone())
            .filter(|m| text_of(m) == text && m.model == model)
            .unwrap_or_else(|| Sampled::text(text, model));
        answer(id, Reply::Sampled(reply));
    };
    let real = move || st.model.get() == ModelChoice::Real;
    // The learner's edit of the request, which a real model is asked instead.
    let edit = move || {
        let text = asked.get_untracked();
        stored.with_value(|(ask, _)| {
            (text != ask.last_user_text()).then(|| edited_params(&ask.raw, &text))
        })
    };
    let shown_request = model_request.map(|r| {
        view! { <JsonBlock label="→ the request to the real model (sent on your click; the key is not in it)" json=r open=true/> }
    });
    view! {
        <div class="sampling" data-testid="sampling-ask">
            {request}
            {shown_request}
            {problem.map(|p| view! { <p class="error" data-testid="sampling-model-error">{p}</p> })}
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
                        <Show when=real fallback=|| view! {
                            <span class="hint">"(Choose a real model above to let it write the reply.)"</span>
                        }>
                            <button data-testid="sampling-model" disabled=model_busy
                                on:click=move |_| sample_with_model(id, edit())>"The real model"</button>
                        </Show>
                    </div>
                    {model_busy.then(|| view! { <p data-testid="sampling-model-busy">"The real model is writing…"</p> })}
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
