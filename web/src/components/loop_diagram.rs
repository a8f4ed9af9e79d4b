//! The picture of the loop: a live sequence diagram in SVG, drawn from the same
//! steps the step cards show ([`mcpg_page_later::diagram`] computes every arrow; this only
//! draws them). Clicking an arrow, or Enter on it, jumps to its step's JSON; in
//! presenter mode it shows that step instead.

use leptos::prelude::*;
use mcpg_host::provider::Turn;
use mcpg_page_later::diagram::{Diagram, DiagramInput, LANE_TOP, Lane, Target, WIDTH, diagram};

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
        let prompt = st.turns.with(|t| {
            t.iter().find_map(|t| match t {
                Turn::User(p) => Some(p.clone()),
                _ => None,
            })
        });
        let provider = st.provider.get();
        let answered = st.answer.with(Option::is_some);
        let next_step = st.next_step.get();
        let current = current.get();
        st.steps.with(|steps| {
            diagram(&DiagramInput {
                steps,
                prompt: prompt.as_deref(),
                answered,
                provider,
                next_step,
                current,
            })
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
            <svg class="seq" viewBox=move || format!("0 0 {WIDTH} {}", drawn.with(|d| d.height))
                role="group" aria-labelledby=format!("{id}-title")
                aria-describedby=format!("{id}-desc")>
                <title id=format!("{id}-title")>"Sequence diagram of the tool loop"</title>
                <desc id=format!("{id}-desc")>{move || drawn.with(|d| d.status.clone())}</desc>
                <Lanes height=Signal::derive(move || drawn.with(|d| d.height))/>
                {move || drawn.with(frames)}
                <For
                    each=move || drawn.with(|d| d.arrows.clone().into_iter().enumerate().collect::<Vec<_>>())
                    key=|(i, a)| (*i, a.label.clone(), a.kind, a.target, a.top, a.running, a.shows_number)
                    let((_, arrow))
                >
                    <DiagramArrow
                        is_current=Signal::derive({
                            let target = arrow.target;
                            move || matches!(target, Some(Target::Step(i)) if current.get() == Some(i))
                        })
                        on_pick=Callback::new(pick)
                        arrow=arrow/>
                </For>
                {move || drawn.with(|d| d.arrows.is_empty()).then(|| view! {
                    <text class="empty-hint" x=WIDTH / 2 y=LANE_TOP + 40 text-anchor="middle">
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

/// The four lanes: a heading box and a dashed lifeline down to `height`.
#[component]
fn Lanes(
    /// The diagram's height.
    #[prop(into)]
    height: Signal<u32>,
) -> impl IntoView {
    Lane::ALL
        .into_iter()
        .map(|lane| {
            let x = Diagram::lane_x(lane);
            view! {
                <g class="lane" aria-hidden="true">
                    <line class="lifeline" x1=x x2=x y1=28 y2=move || height.get().saturating_sub(4)/>
                    <rect class="lane-box" x=x - 52 y=4 width=104 height=24 rx=5/>
                    <text class="lane-label" x=x y=21 text-anchor="middle">{lane.label()}</text>
                </g>
            }
        })
        .collect_view()
}

/// The `par` frames around parallel calls.
fn frames(d: &Diagram) -> impl IntoView + use<> {
    d.frames
        .iter()
        .map(|f| {
            view! {
                <g class="frame" data-testid="diagram-par" data-calls=f.calls.to_string()>
                    <rect x=f.x y=f.y width=f.width height=f.height rx=4/>
                    <path class="frame-tag" d=format!("M {} {} h 96 v 12 l -8 6 h -88 z", f.x, f.y)/>
                    <text x=f.x + 6 y=f.y + 14>{f.label.clone()}</text>
                </g>
            }
        })
        .collect_view()
}
