//! One exchange of the OAuth flow as a card, like the loop's steps: the step, the
//! spec section that asks for it, one sentence why, the exact request and response
//! (secrets already masked by `mcpg_auth`), and what the server got wrong, with a
//! rule id, as the wire log shows the core's diagnostics.

use leptos::prelude::*;
use mcpg_auth::{Exchange, Finding, Step};
use mcpg_core::diag::Severity;

use super::json_block::JsonBlock;

/// A stable name for a step (`data-step`, for tests and links).
fn step_id(s: Step) -> &'static str {
    match s {
        Step::ProtectedResourceMetadata => "prm",
        Step::AuthorizationServerMetadata => "asm",
        Step::ClientMetadataDocument => "cimd",
        Step::Registration => "registration",
        Step::Authorization => "authorization",
        Step::TokenExchange => "token",
        Step::Refresh => "refresh",
        Step::StepUp => "step-up",
    }
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Info => "info",
        Severity::Warning => "warning",
        Severity::Error => "error",
    }
}

fn finding(f: Finding) -> impl IntoView {
    let sev = severity(f.severity);
    view! {
        <li class=format!("row diag {sev}") data-testid="oauth-finding" data-rule=f.rule>
            <code>{f.rule}</code>" ("{sev}"): expected "{f.expected}"; got "{f.got}
        </li>
    }
}

/// An exchange card (`number` counts from 1).
#[component]
pub fn OAuthCard(
    /// Its place in the flow, from 1.
    number: usize,
    /// The exchange, masked.
    exchange: Exchange,
) -> impl IntoView {
    let Exchange {
        step,
        spec,
        why,
        request,
        response,
        findings,
    } = exchange;
    let bad = !findings.is_empty();
    let findings = bad.then(|| {
        view! { <ul class="oauth-findings" aria-label="What the server got wrong">{findings.into_iter().map(finding).collect_view()}</ul> }
    });
    let response = match response {
        Some(r) => view! { <JsonBlock label="← response (received)" json=r open=true/> }.into_any(),
        None => view! { <p class="explain">"No HTTP answer."</p> }.into_any(),
    };
    view! {
        <li class="step mcp oauth-card" class:bad=bad data-testid="oauth-card" data-step=step_id(step)>
            <div class="step-head">
                <span class="num" aria-hidden="true">{number}</span>
                <h3><span class="visually-hidden">{format!("Exchange {number}: ")}</span>{step.title()}</h3>
            </div>
            <p class="spec" data-testid="oauth-spec">{spec}</p>
            <p class="explain" data-testid="oauth-why">{why}</p>
            <JsonBlock label="→ request (sent)" json=request open=true/>
            {response}
            {findings}
        </li>
    }
}
