//! The picture of the loop: a live sequence diagram in SVG, drawn from the same
//! steps the step cards show ([`mcpg_page_later::diagram`] computes every arrow; this only
//! draws them). Clicking an arrow, or Enter on it, jumps to its step's JSON (or an
//! MCP Apps view's arrow to the view's card); in presenter mode it shows that step
//! instead.

use leptos::prelude::*;
use mcpg_host::provider::Turn;
use mcpg_page_later::diagram::{Diagram, DiagramInput, LANE_TOP, Target, diagram, views_of};

use super::diagram_arrow::DiagramArrow;
use crate::effects::picture;
use crate::presenter::use_presenter;
use crate::state::use_app;

/// The diagram, with its heading and the presenter-mode button. `presenting` is the
/// copy inside presenter mode (its ids differ, its clicks move the presenter).
#[component]
pub fn LoopDiagram(
    /// Whether this is presenter mode's copy.
    #[prop(optional)]
    presenting: bool,
) -> impl IntoView {
    crate::effects::stylesheet::add_picture();
    let st = use_app();
    let pr = use_presenter();
    let current = Memo::new(move |_| {
        let len = st.steps.with(Vec::len);
        if presenting {
            pr.shown(len)
        } else {
            len.checked_sub(1)
        }
    });
    let drawn = Memo::new(move |_| {
        // The first user message opens the loop; later ones (a view's
        // `ui/message`) take it on from step 3.
        let mut said = st.turns.with(|t| {
            t.iter()
                .filter_map(|t| match t {
                    Turn::User(p) => Some(p.clone()),
                    _ => None,
                })
                .collect::<Vec<String>>()
        });
        let prompt = (!said.is_empty()).then(|| said.remove(0));
        let provider = st.provider.get();
        let answered = st.answer.with(Option::is_some);
        let next_step = st.next_step.get();
        let current = current.get();
        // Where each view belongs is the driver's to say; `apps` changing is what
        // tells that it may have changed.
        let views = st.apps.with(|a| views_of(a, &picture::app_lifelines()));
        st.steps.with(|steps| {
            diagram(&DiagramInput {
                steps,
                prompt: prompt.as_deref(),
                answered,
                provider,
                next_step,
                current,
                views: &views,
                follow_ups: &said,
            })
        })
    });
    // The lane heads change only when a view's lane comes or goes.
    let lanes = Memo::new(move |_| {
        drawn.with(|d| {
            let heads: Vec<(&'static str, u32)> =
                d.lanes.iter().map(|l| (l.label(), d.lane_x(*l))).collect();
            heads
        })
    });
    let id = if presenting {
        "present-diagram"
    } else {
        "diagram"
    };
    let pick = move |target: Target| {
        if presenting {
            picture::show_in_presenter(pr, target);
        } else {
            picture::jump_to(target);
        }
    };
    let heading = (!presenting).then(|| {
        view! {
            <div class="diagram-head">
                <h2 id="diagram-heading">"The loop at a glance"</h2>
                <button class="quiet" data-testid="present-button"
                    aria-keyshortcuts="P"
                    on:click=move |_| picture::set_presenting(pr, true)>
                    "Present (P)"
                </button>
            </div>
        }
    });
    view! {
        <figure class="diagram" class:big=presenting data-testid="diagram"
            aria-labelledby=format!("{id}-title")>
            {heading}
            <svg class="seq" viewBox=move || drawn.with(|d| format!("0 0 {} {}", d.width, d.height))
                role="group" aria-labelledby=format!("{id}-title")
                aria-describedby=format!("{id}-desc")>
                <title id=format!("{id}-title")>"Sequence diagram of the tool loop"</title>
                <desc id=format!("{id}-desc")>{move || drawn.with(|d| d.status.clone())}</desc>
                <Lanes lanes=lanes height=Signal::derive(move || drawn.with(|d| d.height))/>
                {move || drawn.with(frames)}
                // The key holds the path and the width: a view's lane coming moves
                // every lane, and so every arrow.
                <For
                    each=move || drawn.with(|d| d.arrows.iter().cloned().enumerate().map(|(i, a)| (i, d.width, a)).collect::<Vec<_>>())
                    key=|(i, w, a)| (*i, *w, a.label.clone(), a.path.clone(), a.kind, a.target, a.top, a.running, a.shows_number)
                    let((_, width, arrow))
                >
                    <DiagramArrow
                        is_current=Signal::derive({
                            let step = arrow.target.and_then(Target::step);
                            move || step.is_some() && current.get() == step
                        })
                        on_pick=Callback::new(pick)
                        width=width
                        arrow=arrow/>
                </For>
                {move || drawn.with(|d| d.arrows.is_empty()).then(|| view! {
                    <text class="empty-hint" x=move || drawn.with(|d| d.width / 2) y=LANE_TOP + 40 text-anchor="middle">
                        "Step or Run draws the loop here"
                    </text>
                })}
            </svg>
            <p class="visually-hidden" data-testid="diagram-status">
                {move || drawn.with(|d| d.status.clone())}
            </p>
        </figure>
    }
}

/// The lanes drawn (four, or five with a view's): a heading box and a dashed
/// lifeline down to `height`.
#[component]
fn Lanes(
    /// Each lane's heading and x, left to right.
    lanes: Memo<Vec<(&'static str, u32)>>,
    /// The diagram's height.
    #[prop(into)]
    height: Signal<u32>,
) -> impl IntoView {
    move || {
        lanes
            .get()
            .into_iter()
            .map(|(label, x)| {
                view! {
                    <g class="lane" aria-hidden="true" data-testid="diagram-lane">
                        <line class="lifeline" x1=x x2=x y1=28 y2=move || height.get().saturating_sub(4)/>
                        <rect class="lane-box" x=x - 52 y=4 width=104 height=24 rx=5/>
                        <text class="lane-label" x=x y=21 text-anchor="middle">{label}</text>
                    </g>
                }
            })
            .collect_view()
    }
}

/// The frames: `par` around parallel calls, `task` around a call run as a task.
fn frames(d: &Diagram) -> impl IntoView + use<> {
    d.frames
        .iter()
        .map(|f| {
            view! {
                <g class="frame" data-testid=format!("diagram-{}", f.kind.as_str()) data-calls=f.calls.to_string()>
                    <rect x=f.x y=f.y width=f.width height=f.height rx=4/>
                    <path class="frame-tag" d=format!("M {} {} h 96 v 12 l -8 6 h -88 z", f.x, f.y)/>
                    <text x=f.x + 6 y=f.y + 14>{f.label.clone()}</text>
                </g>
            }
        })
        .collect_view()
}
