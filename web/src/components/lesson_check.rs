//! A lesson's check: radio buttons (arrow keys move between them) or a short
//! answer box, a button to check, and the feedback, right or wrong.

use leptos::prelude::*;
use mcpg_lessons::{Check, Lesson};

use crate::effects::lessons::{self, Lessons};

/// The check and its feedback.
#[component]
pub fn LessonCheck(
    /// The lesson.
    lesson: &'static Lesson,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let chosen = RwSignal::new(None::<usize>);
    let typed = RwSignal::new(String::new());
    let submit = move || lessons::answer(ls, chosen.get_untracked(), &typed.get_untracked());
    let input = match lesson.check {
        Check::Choice { choices, .. } => choices
            .iter()
            .enumerate()
            .map(|(i, c)| {
                view! {
                    <label class="choice">
                        <input type="radio" name=format!("check-{}", lesson.slug)
                            data-testid="lesson-choice" value=i.to_string()
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
        <fieldset class="lesson-check" data-testid="lesson-check">
            <legend>{lesson.check.question()}</legend>
            {input}
            <button class="primary" data-testid="lesson-submit" disabled=unanswerable
                on:click=move |_| submit()>"Check my answer"</button>
        </fieldset>
        <div role="status" aria-live="polite">{feedback}</div>
    }
}
