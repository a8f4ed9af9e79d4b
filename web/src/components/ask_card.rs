//! One question from the server: what it asked (as sent), where it stands, and the
//! controls to answer it, by kind. Everything from the server is a text node.

use leptos::prelude::*;
use mcpg_host::asks::{Ask, ElicitMode, parse};
use mcpg_page::{AskKey, AskState, AskView};

use super::elicit_form::ElicitForm;
use super::json_block::JsonBlock;
use super::roots_ask::RootsAsk;
use super::sampling_ask::SamplingAskView;
use super::url_ask::UrlAsk;
use crate::state::pretty;

/// Where the question stands, in words.
fn state_text(s: &AskState) -> String {
    match s {
        AskState::Waiting => "waiting for you".to_owned(),
        AskState::Answered(_) => "answered".to_owned(),
        AskState::Refused(why) => format!("refused ({why})"),
        AskState::TimedOut => {
            "timed out: the host did not answer in time, so the core answered with an error"
                .to_owned()
        }
        AskState::Gone => "no longer asked (the call or the connection ended)".to_owned(),
    }
}

/// How the question came: a request, or an entry of `inputRequests` (MRTR).
fn how(ask: &AskView) -> String {
    match &ask.key {
        AskKey::Request(id) => format!("a JSON-RPC request from the server (id {id})"),
        AskKey::Required => "a URL from a -32042 error (URL elicitation required): the call failed until you visit it; nothing is sent back, run the call again afterwards".to_owned(),
        AskKey::Input { key, .. } => format!(
            "inputRequests[{key:?}] of an input_required result (2026-07-28): the host answers by retrying the call"
        ),
    }
}

/// One question.
#[component]
pub fn AskCard(
    /// The question as the driver holds it.
    ask: AskView,
) -> impl IntoView {
    let waiting = ask.state == AskState::Waiting;
    let parsed = parse(&ask.method, Some(&ask.params));
    let id = ask.id;
    let controls = match parsed {
        Err(e) => view! {
            <p class="error" data-testid="ask-unreadable">
                {format!("The page cannot read this request: {e}. It is left unanswered; the core answers with an error at its deadline.")}
            </p>
        }
        .into_any(),
        Ok(Ask::Sampling(s)) => view! {
            <SamplingAskView id=id ask=s waiting=waiting model_request=ask.model_request.clone()
                model_draft=ask.draft.clone() model_busy=ask.model_busy/>
        }
        .into_any(),
        Ok(Ask::Elicit(e)) => match e.mode {
            ElicitMode::Form { requested_schema } => {
                view! { <ElicitForm id=id message=e.message schema=requested_schema waiting=waiting/> }
                    .into_any()
            }
            ElicitMode::Url { url, domain, domain_unicode, .. } => view! {
                <UrlAsk id=id message=e.message url=url domain=domain domain_unicode=domain_unicode waiting=waiting
                    opened=ask.opened completed=ask.completed/>
            }
            .into_any(),
        },
        Ok(Ask::Roots) => view! { <RootsAsk id=id waiting=waiting/> }.into_any(),
    };
    let answered = match &ask.state {
        AskState::Answered(json) => Some(json.clone()),
        _ => None,
    };
    let state = state_text(&ask.state);
    let state_class = format!("ask-state {}", if waiting { "waiting" } else { "done" });
    view! {
        <li class="ask-card" data-testid="ask-card" data-method=ask.method.clone()
            data-state=format!("{:?}", ask.state).split('(').next().unwrap_or("").to_lowercase()>
            <h4>
                <span class="badge server-request">"server → host"</span>
                " "{ask.method.clone()}
            </h4>
            <p class="ask-how">{how(&ask)}</p>
            <p class=state_class data-testid="ask-state">{state}</p>
            {ask.request_state.as_ref().map(|s| view! {
                <JsonBlock label="requestState (sent back with the retry, exactly as received)" json=pretty(s)/>
            })}
            <JsonBlock label=format!("← {} params (received)", ask.method) json=pretty(&ask.params)/>
            {controls}
            {answered.map(|j| view! { <JsonBlock label="→ the host's answer (sent)" json=j open=true/> })}
        </li>
    }
}
