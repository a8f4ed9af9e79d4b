//! A lesson's check: first what the learner must make happen (each need ticked
//! when the page sees it), then the question, which opens only once every need
//! is seen: radio buttons in the lesson's seeded order (arrow keys move between
//! them) or a short answer box, a button to check, and the feedback.

use leptos::prelude::*;
use mcpg_lessons::{Check, Lesson, Need};

use crate::effects::lessons::{self, Lessons};

/// One need, ticked once seen.
#[component]
fn NeedRow(
    /// Its place in the lesson's needs.
    index: usize,
    /// The need.
    need: Need,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let seen = move || ls.watch.with(|w| w.seen(index));
    view! {
        <li class="lesson-need" data-testid="lesson-need" data-seen=move || seen().to_string()>
            <span class="tick" aria-hidden="true">{move || if seen() { "✓" } else { "○" }}</span>
            " "{need.task}
            <span class="visually-hidden">{move || if seen() { " (done)" } else { " (not yet)" }}</span>
        </li>
    }
}

/// The question: choices in the shown order, or a short answer.
#[component]
fn Question(
    /// The lesson.
    lesson: &'static Lesson,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    // Fresh for each lesson and each opening: no pick is carried over.
    let chosen = RwSignal::new(None::<usize>);
    let typed = RwSignal::new(String::new());
    let submit = move || lessons::answer(ls, chosen.get_untracked(), &typed.get_untracked());
    let input = match lesson.check {
        Check::Choice { choices, .. } => lesson
            .check
            .shown_order(lesson.slug)
            .into_iter()
            .filter_map(|i| choices.get(i).map(|c| (i, c)))
            .map(|(i, c)| {
                view! {
                    <label class="choice">
                        <input type="radio" name=format!("check-{}", lesson.slug)
                            data-testid="lesson-choice" value=i.to_string()
                            prop:checked=move || chosen.get() == Some(i)
                            on:change=move |_| {
                                chosen.set(Some(i));
                                ls.verdict.set(None);
                            }/>
                        " "{c.text}
                    </label>
                }
            })
            .collect_view()
            .into_any(),
        Check::Short { .. } => view! {
            <label class="short-answer">"Your answer "
                <input type="text" data-testid="lesson-answer" spellcheck="false" autocomplete="off"
                    prop:value=move || typed.get()
                    on:input=move |ev| {
                        typed.set(event_target_value(&ev));
                        ls.verdict.set(None);
                    }
                    on:keydown=move |ev| {
                        if ev.key() == "Enter" {
                            submit();
                        }
                    }/>
            </label>
        }
        .into_any(),
    };
    let unanswerable = move || match lesson.check {
        Check::Choice { .. } => chosen.get().is_none(),
        Check::Short { .. } => typed.with(|t| t.trim().is_empty()),
    };
    view! {
        <fieldset class="lesson-check" data-testid="lesson-check">
            <legend>{lesson.check.question()}</legend>
            {input}
            <button class="primary" data-testid="lesson-submit" disabled=unanswerable
                on:click=move |_| submit()>"Check my answer"</button>
        </fieldset>
    }
}

/// The needs, the check and its feedback.
#[component]
pub fn LessonCheck(
    /// The lesson.
    lesson: &'static Lesson,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let needs = lesson
        .needs
        .iter()
        .enumerate()
        .map(|(i, n)| view! { <NeedRow index=i need=*n ls=ls/> })
        .collect_view();
    let open = move || ls.watch.with(mcpg_lessons::Watch::all_seen);
    let feedback = move || {
        ls.verdict.get().map(|v| {
            let (class, lead) = if v.right {
                ("feedback right", "")
            } else {
                ("feedback wrong", "Not quite. ")
            };
            view! {
                <p class=class data-testid="lesson-feedback" data-right=v.right.to_string()>
                    {lead}{v.feedback}
                </p>
            }
        })
    };
    view! {
        <div class="lesson-needs" data-testid="lesson-needs">
            <h4>"Make it happen"</h4>
            <ol>{needs}</ol>
        </div>
        <Show when=open
            fallback=|| view! {
                <p class="hint" data-testid="lesson-check-locked">
                    "The question opens once the page has seen each of these."
                </p>
            }>
            <Question lesson=lesson ls=ls/>
        </Show>
        <div role="status" aria-live="polite">{feedback}</div>
    }
}
