//! One arrow of the loop's picture: shaft, head, label, and the step's number on
//! its first row. An arrow that leads somewhere is a focusable button (click, Enter
//! or Space); the current step's arrows say so with `aria-current="step"`. Labels
//! are SVG text nodes: server text is never markup.

use leptos::prelude::*;
use mcpg_page_later::diagram::{Arrow, ROW, Target};

/// An arrow, drawn.
#[component]
pub fn DiagramArrow(
    /// The placed arrow.
    arrow: Arrow,
    /// Whether it belongs to the current step (kept apart from `arrow` so moving
    /// the highlight does not rebuild the arrow, and focus stays on it).
    #[prop(into)]
    is_current: Signal<bool>,
    /// What a click or Enter does with the arrow's target.
    on_pick: Callback<Target>,
    /// The diagram's `viewBox` width (the row's highlight spans it).
    width: u32,
) -> impl IntoView {
    let target = arrow.target;
    let pick = move || {
        if let Some(t) = target {
            on_pick.run(t);
        }
    };
    let (lx, ly, anchor) = arrow.label_at;
    let kind = arrow.kind.as_str();
    let step = arrow.number.map(|n| n.to_string());
    // The number sits beside the arrow, not in it: an arrow's visible text is its
    // label alone, which its accessible name contains (WCAG's "label in name").
    let badge = (arrow.shows_number)
        .then_some(arrow.number)
        .flatten()
        .map(|n| {
            view! {
                <g class=format!("arrow-num {kind}") aria-hidden="true">
                    <circle cx=14 cy=arrow.y - 4 r=10/>
                    <text x=14 y=arrow.y text-anchor="middle">{n.to_string()}</text>
                </g>
            }
        });
    view! {
        <g class=format!("arrow {kind}") class:current=move || is_current.get()
            class:running=arrow.running class:error=arrow.kind.is_error()
            data-testid="diagram-arrow" data-kind=kind data-step=step
            data-target=match target {
                Some(Target::Step(i)) => i.to_string(),
                Some(Target::Answer) => "answer".to_owned(),
                Some(Target::View { id, .. }) => format!("view-{id}"),
                None => String::new(),
            }
            role=if target.is_some() { "button" } else { "img" }
            tabindex=target.map(|_| "0")
            aria-label=arrow.description.clone()
            aria-current=move || is_current.get().then_some("step")
            on:click=move |_| pick()
            on:keydown=move |ev| {
                if matches!(ev.key().as_str(), "Enter" | " ") {
                    ev.prevent_default();
                    pick();
                }
            }>
            <title>{arrow.description.clone()}</title>
            <rect class="hit" x=2 y=arrow.top width=width - 4 height=ROW rx=5/>
            <path class="shaft" d=arrow.path.clone()/>
            <polygon class="head" points=arrow.head.clone()/>
            <text class="label" x=lx y=ly text-anchor=anchor.as_str()
                data-testid="diagram-label">{arrow.label.clone()}</text>
        </g>
        // After the arrow, so the row's highlight does not cover it.
        {badge}
    }
}
