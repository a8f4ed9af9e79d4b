//! The end of the track: how many lessons are done, the loop in six lines, and
//! each lesson left as a way back in.

use leptos::prelude::*;
use mcpg_host::tool_loop::TITLES;
use mcpg_lessons::LESSONS;

use crate::effects::lessons::{self, Lessons};
use crate::state::use_app;

/// The end of the track, shown after the last lesson's "Finish the track".
#[component]
pub fn TrackEnd(
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let st = use_app();
    let count = move || {
        format!(
            "You have done {} of {} lessons.",
            ls.progress.with(|p| p.count()),
            LESSONS.len()
        )
    };
    let steps = TITLES
        .iter()
        .zip(1u8..)
        .map(|(title, n)| {
            let (class, side) = if matches!(n, 1 | 4 | 5) {
                ("badge mcp", "over MCP")
            } else {
                ("badge host", "inside the host")
            };
            view! { <li>{*title}" "<span class=class>{side}</span></li> }
        })
        .collect_view();
    let left = move || {
        let left: Vec<usize> = (0..LESSONS.len())
            .filter(|&i| !ls.progress.with(|p| p.is_done(i)))
            .collect();
        if left.is_empty() {
            return view! { <p data-testid="track-end-left">"None: every lesson is done."</p> }
                .into_any();
        }
        let items = left
            .into_iter()
            .filter_map(|i| LESSONS.get(i).map(|l| (i, l)))
            .map(|(i, l)| {
                view! {
                    <li>
                        <button class="quiet" data-testid="track-end-lesson" data-slug=l.slug
                            on:click=move |_| {
                                lessons::open(st, ls, i);
                                lessons::focus_title();
                            }>
                            {format!("{}. {}", i + 1, l.title)}
                        </button>
                    </li>
                }
            })
            .collect_view();
        view! { <ul data-testid="track-end-left">{items}</ul> }.into_any()
    };
    view! {
        <article class="lesson track-end" data-testid="track-end" aria-labelledby="lesson-title">
            <h3 id="lesson-title" tabindex="-1">"The end of the track"</h3>
            <p data-testid="track-end-count">{count}</p>
            <h4>"The loop, in six steps"</h4>
            <ol class="track-end-steps">{steps}</ol>
            <h4>"Lessons not done yet"</h4>
            {left}
        </article>
    }
}
