//! The lesson track: progress ("3 of 13 done"), the list of lessons with a tick for
//! each one done, a notice for a `#lesson=` name the track does not have, and the
//! open lesson.

use leptos::prelude::*;
use mcpg_lessons::LESSONS;

use super::lesson_card::LessonCard;
use super::track_end::TrackEnd;
use crate::effects::lessons::{self, Lessons};
use crate::state::use_app;

/// One lesson in the list.
#[component]
fn LessonItem(
    /// Index in the track.
    index: usize,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let st = use_app();
    let lesson = LESSONS.get(index).copied();
    let (slug, title) = lesson.map_or(("", ""), |l| (l.slug, l.title));
    let done = move || ls.progress.with(|p| p.is_done(index));
    view! {
        <li>
            <button class="lesson-item" data-testid="lesson-item" data-slug=slug
                data-done=move || done().to_string()
                aria-current=move || (ls.current.get() == Some(index)).then_some("true")
                on:click=move |_| {
                    lessons::open(st, ls, index);
                    lessons::focus_title();
                }>
                <span class="tick" aria-hidden="true">{move || if done() { "✓" } else { "" }}</span>
                {format!("{}. {title}", index + 1)}
                <span class="visually-hidden">{move || if done() { " (done)" } else { "" }}</span>
            </button>
        </li>
    }
}

/// The lessons panel.
#[component]
pub fn LessonsPanel() -> impl IntoView {
    let st = use_app();
    // Here rather than in `App`: the page has connected by now, so a lesson link's
    // set-up comes after (and wins over) the default connection.
    let ls = lessons::init(st);
    let count = move || {
        format!(
            "{} of {} done",
            ls.progress.with(|p| p.count()),
            LESSONS.len()
        )
    };
    let items = (0..LESSONS.len())
        .map(|i| view! { <LessonItem index=i ls=ls/> })
        .collect_view();
    view! {
        <section class="panel lessons" aria-labelledby="lessons-title" data-testid="lessons">
            <div class="lessons-head">
                <h2 id="lessons-title">"Lessons"</h2>
                <span class="lessons-progress" data-testid="lessons-progress">{count}</span>
                <button data-testid="lessons-toggle" aria-controls="lesson-list"
                    aria-expanded=move || ls.expanded.get().to_string()
                    on:click=move |_| ls.expanded.update(|e| *e = !*e)>
                    {move || if ls.expanded.get() { "Hide the list" } else { "Show the lessons" }}
                </button>
            </div>
            <Show when=move || ls.unknown.with(Option::is_some)>
                <p class="notice" role="alert" data-testid="lesson-unknown">
                    {move || format!(
                        "There is no lesson called “{}”. Pick one from the list below.",
                        ls.unknown.get().unwrap_or_default()
                    )}
                </p>
            </Show>
            <ol id="lesson-list" class="lesson-list" data-testid="lesson-list"
                hidden=move || !ls.expanded.get()>{items}</ol>
            {move || ls.current.get().map(|i| view! { <LessonCard index=i ls=ls/> })}
            <Show when=move || ls.finished.get()>
                <TrackEnd ls=ls/>
            </Show>
        </section>
    }
}
