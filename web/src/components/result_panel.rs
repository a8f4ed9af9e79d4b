//! The latest call's result: each content block rendered for what it is, the
//! structured content checked against the output schema, and the two kinds of
//! failure told apart. Progress and a cancel button while it runs.

use leptos::prelude::*;
use mcpg_core::client::CallOutcome;
use mcpg_host::tool_loop::{PROTOCOL_ERROR_LINE, TOOL_ERROR_LINE};
use mcpg_text::num::fmt_num;
use serde_json::Value;

use super::content_block::ContentView;
use crate::effects;
use crate::state::{CallView, pretty, use_app};

/// A short name for how the call ended, and the class that colours it.
fn kind(c: &CallView) -> (&'static str, &'static str) {
    match &c.outcome {
        None => ("Running…", "busy"),
        Some(CallOutcome::Success(_)) => ("Success", "ok"),
        Some(CallOutcome::ToolError(_)) => ("Tool failure (isError: true)", "tool-error"),
        Some(CallOutcome::ProtocolError(_)) => {
            ("Protocol failure (JSON-RPC error)", "protocol-error")
        }
        Some(CallOutcome::InputRequired(_)) => ("Input required", "bad"),
        Some(CallOutcome::Failed(_)) => ("No answer", "bad"),
    }
}

/// The line that says what this kind of ending means, and the one it is not.
fn lines(c: &CallView) -> (String, Option<&'static str>) {
    match &c.outcome {
        Some(CallOutcome::ToolError(_)) => (TOOL_ERROR_LINE.to_owned(), Some(PROTOCOL_ERROR_LINE)),
        Some(CallOutcome::ProtocolError(_)) => (PROTOCOL_ERROR_LINE.to_owned(), Some(TOOL_ERROR_LINE)),
        Some(CallOutcome::Success(_)) => ("The tool ran and succeeded; this CallToolResult goes back to the model in step 6.".to_owned(), None),
        Some(CallOutcome::Failed(f)) => (format!("The call ended without an answer: {f}."), None),
        Some(CallOutcome::InputRequired(_)) => ("The server needs more input before it can finish; the playground does not answer those yet.".to_owned(), None),
        None => ("Waiting for the server.".to_owned(), None),
    }
}

/// The body of a finished call.
fn body(c: CallView) -> AnyView {
    match c.outcome {
        Some(CallOutcome::Success(r) | CallOutcome::ToolError(r)) => {
            let blocks = r
                .content
                .into_iter()
                .map(|b| view! { <ContentView block=b/> })
                .collect_view();
            let structured = r.structured_content.map(|sc| {
                let check = match &c.check {
                    Some(Ok(())) => ("ok", "It fits the tool's outputSchema.".to_owned()),
                    Some(Err(errs)) => (
                        "bad",
                        format!(
                            "It does not fit the tool's outputSchema: {}.",
                            errs.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
                        ),
                    ),
                    None => ("", "The tool declares no outputSchema to check it against.".to_owned()),
                };
                view! {
                    <div class="structured">
                        <h4>"structuredContent"</h4>
                        <p class=format!("check {}", check.0) data-testid="structured-check">{check.1}</p>
                        <pre tabindex="0">{pretty(&sc)}</pre>
                    </div>
                }
            });
            let missing = match &c.check {
                Some(Err(errs)) if structured.is_none() => Some(view! {
                    <p class="check bad" data-testid="structured-check">
                        {errs.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")}
                    </p>
                }),
                _ => None,
            };
            view! {
                <div class="content" data-testid="result-content">{blocks}</div>
                {structured}
                {missing}
            }
            .into_any()
        }
        Some(CallOutcome::ProtocolError(e)) => view! {
            <dl class="rpc-error" data-testid="rpc-error">
                <dt>"code"</dt><dd>{e.code}</dd>
                <dt>"message"</dt><dd>{e.message}</dd>
                {e.data.map(|d: Value| view! { <dt>"data"</dt><dd><pre tabindex="0">{pretty(&d)}</pre></dd> })}
            </dl>
        }
        .into_any(),
        _ => ().into_any(),
    }
}

/// The Result panel.
#[component]
pub fn ResultPanel() -> impl IntoView {
    let st = use_app();
    let running = move || {
        st.call
            .with(|c| c.as_ref().is_some_and(|c| c.outcome.is_none()))
    };
    let progress = move || {
        st.progress.get().map(|p| {
            let max = p.total.unwrap_or(0.0);
            let text = match (p.total, &p.message) {
                (_, Some(m)) => m.clone(),
                (Some(t), None) => format!("{} of {}", fmt_num(p.progress), fmt_num(t)),
                (None, None) => fmt_num(p.progress),
            };
            view! {
                <div class="progress" data-testid="progress">
                    <progress max=fmt_num(max) value=fmt_num(p.progress)></progress>
                    <span>{text}</span>
                </div>
            }
        })
    };
    view! {
        <div class="result" data-testid="result-panel">
            <Show when=move || st.call.with(Option::is_some)
                fallback=|| view! { <p class="empty">"No tool call yet. Run the loop, or play the model from a tool's form."</p> }>
                {move || st.call.get().map(|c| {
                    let (label, class) = kind(&c);
                    let (line, other) = lines(&c);
                    let args = pretty(&Value::Object(c.arguments.clone()));
                    view! {
                        <h3 class="call-title"><code>{c.tool.clone()}</code></h3>
                        <pre tabindex="0" class="args">{args}</pre>
                        <p class=format!("kind {class}") data-testid="result-kind" data-kind=class>{label}</p>
                        <p class="kind-line" data-testid="result-line">{line}</p>
                        {other.map(|o| view! { <p class="kind-other">"Not to be confused with: "{o}</p> })}
                        {body(c)}
                    }
                })}
                <Show when=running>
                    {progress}
                    <button class="danger" data-testid="cancel-button" on:click=move |_| effects::cancel()>"Cancel the call"</button>
                </Show>
            </Show>
        </div>
    }
}
