//! The open lesson: its goal, its set-up, what to do, what to notice (each with a
//! button that points at its step card), the check, and the way to the previous
//! and next lessons. Every text is a text node.

use leptos::prelude::*;
use mcpg_lessons::{LESSONS, Lesson, Model, Pointer, Server};
use mcpg_loop_data::Pitfalls;

use super::lesson_check::LessonCheck;
use super::lesson_transports::TransportSwitch;
use crate::effects;
use crate::effects::lessons::{self, Lessons};
use crate::state::use_app;

/// The set-up in words.
fn setup_text(l: &Lesson) -> String {
    let model = match l.setup.model {
        Model::Mock => "the mock model",
        Model::Play => "you play the model",
    };
    let revision = match l.setup.revision {
        Some(v) => format!("protocol revision pinned to {}", v.as_str()),
        None => "protocol revision auto".to_owned(),
    };
    let server = match l.setup.server {
        Server::Demo => "the embedded demo server",
        Server::OAuthDemo => {
            "the demo behind OAuth (a protected server and its authorization server, both in this page)"
        }
        Server::SseDemo => "the demo over HTTP+SSE (2024-11-05, in this page)",
    };
    format!(
        "Set up: {server} · {revision} · message “{}” · {model} · {} format",
        l.setup.prompt,
        l.setup.provider.label()
    )
}

/// Moves the focus to the loop's step button, past everything between: the
/// lesson's way to the controls it talks about.
fn go_to_controls() {
    let button = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| {
            d.query_selector("[data-testid=\"step-button\"]")
                .ok()
                .flatten()
        })
        .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
    if let Some(b) = button {
        b.scroll_into_view();
        let _ = b.focus();
    }
}

/// A lesson's host switch: the careful host, or the naive one that makes the
/// lesson's mistakes on purpose. It shows the page's setting, which the driver
/// echoes back.
#[component]
fn HostSwitch(
    /// The lesson.
    lesson: &'static Lesson,
) -> impl IntoView {
    let st = use_app();
    let naive_set = lesson
        .pitfalls
        .iter()
        .fold(Pitfalls::NONE, |set, p| set.with(*p, true));
    let labels: Vec<&str> = lesson.pitfalls.iter().map(|p| p.label()).collect();
    let naive_label = format!("Naive host: {}", labels.join("; "));
    let is_naive = move || !st.pitfalls.get().is_careful();
    view! {
        <fieldset class="lesson-host" data-testid="lesson-host">
            <legend>"The host"</legend>
            <label>
                <input type="radio" name=format!("host-{}", lesson.slug) data-testid="lesson-host-careful"
                    prop:checked=move || !is_naive()
                    on:change=move |_| effects::set_pitfalls(Pitfalls::NONE)/>
                " Careful host"
            </label>
            <label>
                <input type="radio" name=format!("host-{}", lesson.slug) data-testid="lesson-host-naive"
                    prop:checked=is_naive
                    on:change=move |_| effects::set_pitfalls(naive_set)/>
                " "{naive_label}
            </label>
        </fieldset>
    }
}

/// One thing to notice.
#[component]
fn PointerRow(
    /// The pointer.
    p: Pointer,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let side = if matches!(p.step, 1 | 4 | 5) {
        "mcp"
    } else {
        "host"
    };
    let step = p.step;
    let try_it = p.prompt.map(|prompt| {
        view! {
            <button class="quiet" data-testid="lesson-try"
                on:click=move |_| lessons::use_message(prompt)>
                {format!("Use the message “{prompt}”")}
            </button>
        }
    });
    view! {
        <li class="lesson-pointer" data-testid="lesson-pointer" data-step=step.to_string()>
            <span class=format!("badge {side}")>{format!("Step {step}")}</span>
            " "
            <code data-testid="lesson-field">{p.field}</code>
            " "
            <span>{p.note}</span>
            " "
            {try_it}
            <button class="quiet" data-testid="lesson-show-step"
                on:click=move |_| lessons::show_step(ls, step)>
                {format!("Show step {step}")}
            </button>
        </li>
    }
}

/// The open lesson, by index in the track.
#[component]
pub fn LessonCard(
    /// Index in [`LESSONS`].
    index: usize,
    /// The track's signals.
    ls: Lessons,
) -> impl IntoView {
    let st = use_app();
    let Some(lesson) = LESSONS.get(index).copied() else {
        return ().into_any();
    };
    let pointers = lesson
        .notice
        .iter()
        .map(|p| view! { <PointerRow p=*p ls=ls/> })
        .collect_view();
    let prev = index.checked_sub(1);
    let next = (index + 1 < LESSONS.len()).then_some(index + 1);
    let go = move |to: Option<usize>| {
        move |_| {
            if let Some(i) = to {
                lessons::open(st, ls, i);
                lessons::focus_title();
            }
        }
    };
    view! {
        <article class="lesson" data-testid="lesson" data-slug=lesson.slug aria-labelledby="lesson-title">
            <h3 id="lesson-title" data-testid="lesson-title" tabindex="-1">
                {format!("Lesson {} of {}: {}", index + 1, LESSONS.len(), lesson.title)}
            </h3>
            <div class="lesson-main">
                <p class="lesson-goal" data-testid="lesson-goal"><strong>"Goal: "</strong>{lesson.goal}</p>
                <p class="lesson-setup" data-testid="lesson-setup">{setup_text(lesson)}</p>
                <Show when=move || ls.reconnected.get()>
                    <p class="hint" data-testid="lesson-reconnected">
                        "Opening this lesson reconnected to its server with its protocol revision: the wire log started again."
                    </p>
                </Show>
                <p data-testid="lesson-task"><strong>"Do: "</strong>{lesson.task}</p>
                {(!lesson.pitfalls.is_empty()).then(|| view! { <HostSwitch lesson=lesson/> })}
                {(lesson.setup.server == Server::SseDemo).then(|| view! { <TransportSwitch/> })}
                <button class="quiet" data-testid="lesson-skip" on:click=move |_| go_to_controls()>
                    "Go to the loop's controls"
                </button>
                <h4>"What to notice"</h4>
                <ul class="lesson-notice">{pointers}</ul>
                <p class="hint" role="status" data-testid="lesson-step-note">
                    {move || ls.step_note.get().unwrap_or_default()}
                </p>
            </div>
            <div class="lesson-side">
                <LessonCheck lesson=lesson ls=ls/>
                <div class="lesson-nav">
                    <button data-testid="lesson-prev" disabled=prev.is_none() on:click=go(prev)>
                        "← Previous lesson"
                    </button>
                    <button data-testid="lesson-close" class="quiet" on:click=move |_| lessons::close(ls)>
                        "Close the lesson"
                    </button>
                    {match next {
                        Some(_) => view! {
                            <button class="primary" data-testid="lesson-next" on:click=go(next)>
                                "Next lesson →"
                            </button>
                        }.into_any(),
                        None => view! {
                            <button class="primary" data-testid="lesson-finish"
                                on:click=move |_| {
                                    lessons::finish(ls);
                                    lessons::focus_title();
                                }>
                                "Finish the track →"
                            </button>
                        }.into_any(),
                    }}
                </div>
            </div>
        </article>
    }
    .into_any()
}
