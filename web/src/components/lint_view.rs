//! Beside step 2: what the chosen provider's API would reject, rewrite or drop of
//! the tools as the server wrote them (`mcpg_host::lint`), rejections first, so a
//! learner sees before a real model call that it would fail or that the model sees
//! less than the server said. Only `reshape.rs`'s split chunk renders it, so it is
//! not in the first load.

use leptos::prelude::*;
use mcpg_host::lint::{Finding, LintOptions, Severity, lint};

use crate::state::use_app;

/// The lint's findings for the chosen provider, one line each; nothing when there
/// are none. Each message ends with what this host does about it. Server text
/// (names, pointers, messages) is rendered as text.
#[component]
pub fn LintView() -> impl IntoView {
    let st = use_app();
    let found = Memo::new(move |_| {
        let tools = st.all_tools();
        let provider = st.provider.get();
        // The page's host never asks for OpenAI's strict mode.
        let mut found = lint(&tools, &[provider], LintOptions::default());
        // Stable: within a severity, the tools keep the server's order.
        found.sort_by_key(|f| f.severity);
        (provider.label(), found)
    });
    move || {
        let (label, found) = found.get();
        (!found.is_empty()).then(|| {
            let rejections = found
                .iter()
                .filter(|f| f.severity == Severity::Reject)
                .count();
            view! {
                <div class="lint" data-testid="lint-findings">
                    <h4>{format!("What {label} does with these tools as written")}</h4>
                    <p class="lint-summary" data-testid="lint-summary">{summary(rejections, found.len())}</p>
                    <ul>{found.into_iter().map(row).collect_view()}</ul>
                </div>
            }
        })
    }
}

fn summary(rejections: usize, all: usize) -> String {
    let other = all - rejections;
    match rejections {
        0 => format!("{other} changed or dropped before the model sees them; none refused."),
        1 => format!("1 refused with a 400 as written, {other} changed or dropped."),
        n => format!("{n} refused with a 400 as written, {other} changed or dropped."),
    }
}

fn row(f: Finding) -> impl IntoView {
    let (class, badge) = match f.severity {
        Severity::Reject => ("lint-finding lint-reject", "rejects"),
        Severity::Rewrite => ("lint-finding lint-rewrite", "rewrites"),
        Severity::Drop => ("lint-finding lint-drop", "drops"),
    };
    let doc = f.doc();
    let (rule, severity, action) = (f.rule.id(), f.severity.id(), f.host.id());
    let tool = f.tool;
    let tool_attr = tool.clone();
    view! {
        <li
            class=class
            data-testid="lint-finding"
            data-rule=rule
            data-severity=severity
            data-host=action
            data-tool=tool_attr
        >
            <span class="lint-badge">{badge}</span>
            " "
            <code>{tool}</code>
            " "
            <code class="lint-pointer">{f.pointer}</code>
            ": "
            <span data-testid="lint-message">{f.message}</span>
            " ("
            <a href=doc target="_blank" rel="noopener noreferrer" data-testid="lint-rule">{rule}</a>
            ")"
        </li>
    }
}
