//! The advice under a step 5 whose call the server refused with a JSON-RPC error
//! a real SDK is known to send (the table of `mcpg-advice`): what happened and
//! why, and the page's setting that gets past it. Only the step cards use it, and
//! they are in the later parts' chunk: the table stays out of the first load.

use leptos::prelude::*;
use mcpg_advice::{Advice, Situation, advise};
use mcpg_core::client::GenerationMode;
use mcpg_core::jsonrpc::{Body, Message};
use mcpg_core::{Generation, ProtocolVersion};
use mcpg_page::Pin;

use crate::state::use_app;

/// The advice for `response` under the revision and the picker as they are when
/// the card first shows (read once: a later reconnection does not rewrite an old
/// card).
fn advice_for(response: &str) -> Option<Advice> {
    let st = use_app();
    let error = match Message::decode(response).ok()?.body() {
        Body::Error { error, .. } => error.clone(),
        _ => return None,
    };
    let revision = st
        .server
        .with_untracked(|s| s.as_ref().and_then(|s| ProtocolVersion::parse(&s.protocol)));
    let mode = match st.pin.get_untracked() {
        Pin::Auto => GenerationMode::Auto,
        Pin::Revision(v) if v.generation() == Generation::Stateless => GenerationMode::Stateless,
        Pin::Revision(_) => GenerationMode::Initialize,
    };
    advise(
        &Situation::rpc("tools/call", &error)
            .under(revision)
            .allowing(mode),
    )
}

/// What happened, why, and the fix in the page (all the table's own words, shown
/// as text).
#[component]
pub fn AdviceNote(
    /// The step's received JSON-RPC error response, as its block shows it.
    response: String,
) -> impl IntoView {
    advice_for(&response).map(|a| {
        let fix = a.page.map(|p| {
            view! { <p class="advice-fix" data-testid="advice-fix"><strong>"Fix: "</strong>{p}</p> }
        });
        view! {
            <div class="advice" data-testid="advice" data-advice=a.id.as_str() role="note">
                <p class="advice-why">{a.why}</p>
                {fix}
            </div>
        }
    })
}
