//! A request and its response as they crossed the wire, pretty-printed: what a
//! panel shows under its result so the learner sees the exchange itself.

use std::sync::Arc;

use leptos::prelude::*;

use super::json_block::JsonBlock;

/// Wire text, pretty-printed when it is JSON (as text, always).
fn pretty_wire(raw: &str) -> String {
    serde_json::from_str::<serde_json::Value>(raw)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| raw.to_owned())
}

/// The request sent and the response received, where there are.
#[component]
pub fn Exchange(
    /// What the request was (e.g. `resources/read`).
    method: &'static str,
    /// The request, as sent.
    request: Option<Arc<str>>,
    /// The response, as received.
    response: Option<Arc<str>>,
) -> impl IntoView {
    let request = request.map(|r| {
        view! { <JsonBlock label=format!("→ {method} (sent)") json=pretty_wire(&r)/> }
    });
    let response = response.map(|r| {
        view! { <JsonBlock label=format!("← result of {method} (received)") json=pretty_wire(&r)/> }
    });
    view! { <div class="exchange" data-testid="exchange">{request}{response}</div> }
}
