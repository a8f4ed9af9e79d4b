//! Presenter mode: one step at a time at full width in large type, for a projector.
//! → and ← move through the steps (→ on the newest performs the next, like Step),
//! R runs, D shows the diagram (beside the step on a wide screen, instead of it on
//! a narrower one, so both stay large), Esc leaves; the buttons do the same for a
//! mouse. It shows the page's own steps: nothing here runs a loop of its own.

use leptos::prelude::*;
use mcpg_host::provider::Turn;
use mcpg_lessons::LESSONS;

use super::loop_diagram::LoopDiagram;
use super::step_card::StepCard;
use crate::effects::lessons::{self, Lessons};
use crate::effects::{self, picture};
use crate::presenter::use_presenter;
use crate::state::use_app;

/// The lesson picker: a presenter jumps to any lesson without leaving presenter
/// mode (the page is set up for it, as when a learner opens it), and its task shows
/// under the bar. Only once the lessons are in (their panel provides the signals).
fn lesson_picker() -> impl IntoView {
    let st = use_app();
    lessons::loaded().map(|ls: Lessons| {
        let options = LESSONS
            .iter()
            .enumerate()
            .map(|(i, l)| view! { <option value=i.to_string()>{format!("{}. {}", i + 1, l.title)}</option> })
            .collect_view();
        let task = move || {
            ls.current
                .get()
                .and_then(|i| LESSONS.get(i))
                .map(|l| view! { <p class="present-task" data-testid="present-lesson-task">{l.task}</p> })
        };
        view! {
            <label class="present-lesson">"Lesson "
                <select data-testid="present-lesson"
                    prop:value=move || ls.current.get().map(|i| i.to_string()).unwrap_or_default()
                    on:change=move |ev| {
                        if let Ok(i) = event_target_value(&ev).parse::<usize>() {
                            lessons::open(st, ls, i);
                        }
                    }>
                    <option value="">"(none)"</option>
                    {options}
                </select>
            </label>
            {task}
        }
    })
}

/// The presenter's screen, shown over the page while presenter mode is on.
#[component]
pub fn PresenterView() -> impl IntoView {
    crate::effects::stylesheet::add_picture();
    let st = use_app();
    let pr = use_presenter();
    let shown = Memo::new(move |_| pr.shown(st.steps.with(Vec::len)));
    let step = Memo::new(move |_| {
        shown
            .get()
            .and_then(|i| st.steps.with(|s| s.get(i).cloned()))
    });
    let position = move || {
        let len = st.steps.with(Vec::len);
        match shown.get() {
            Some(i) => format!("Step {} of {len} so far", i + 1),
            None => "No step yet: → starts the loop".to_owned(),
        }
    };
    let prompt = move || {
        st.turns.with(|t| {
            t.iter().find_map(|t| match t {
                Turn::User(p) => Some(p.clone()),
                _ => None,
            })
        })
    };
    // The first time, this view mounts after presenter mode was turned on (its
    // code loads then), too late for `set_presenting`'s focus: take it here.
    if pr.on.get_untracked() {
        picture::focus_presenter();
    }
    let at_end = move || {
        let len = st.steps.with(Vec::len);
        shown.get().is_some_and(|i| i + 1 == len) && st.answer.with(Option::is_some)
    };
    view! {
        <Show when=move || pr.on.get()>
            <section class="presenter" class:with-diagram=move || pr.diagram.get()
                data-testid="presenter" role="region" aria-label="Presenter mode" tabindex="-1">
                <div class="present-bar">
                    <p class="present-pos" data-testid="present-position" aria-live="polite">
                        {position}
                    </p>
                    <div class="present-buttons">
                        <button data-testid="present-prev" aria-keyshortcuts="ArrowLeft"
                            disabled=move || !picture::can_go_back(st, pr)
                            on:click=move |_| picture::previous(st, pr)>"← Previous"</button>
                        <button class="primary" data-testid="present-next" aria-keyshortcuts="ArrowRight"
                            disabled=move || !picture::can_go_next(st, pr)
                            on:click=move |_| picture::next(st, pr)>"Next →"</button>
                        <button data-testid="present-run" aria-keyshortcuts="R"
                            on:click=move |_| {
                                pr.cursor.set(None);
                                effects::run_all();
                            }>"Run (R)"</button>
                        <button data-testid="present-diagram-toggle" aria-keyshortcuts="D"
                            aria-pressed=move || if pr.diagram.get() { "true" } else { "false" }
                            on:click=move |_| pr.diagram.update(|d| *d = !*d)>"Diagram (D)"</button>
                        <button data-testid="present-leave" aria-keyshortcuts="Escape"
                            on:click=move |_| picture::set_presenting(pr, false)>"Leave (Esc)"</button>
                    </div>
                    {lesson_picker()}
                </div>
                {move || prompt().map(|p| view! {
                    <p class="present-prompt"><span class="who">"User: "</span>{p}</p>
                })}
                // On a narrow screen the diagram takes the step's place; the step's
                // title stays.
                <p class="present-title" data-testid="present-title">
                    {move || step.get().map(|s| format!("{}. {}", s.number, s.title))}
                </p>
                <div class="present-body">
                    <div class="present-step" data-testid="present-step">
                        {move || match step.get() {
                            Some(s) => view! { <ol class="steps"><StepCard step=s/></ol> }.into_any(),
                            None => view! {
                                <p class="empty">"Press → (or Next) to take the loop's first step, R to run it all."</p>
                            }.into_any(),
                        }}
                        <Show when=at_end>
                            <div class="answer" data-testid="present-answer">
                                <h3>"The model's answer"</h3>
                                <p>{move || st.answer.get().unwrap_or_default()}</p>
                            </div>
                        </Show>
                    </div>
                    <Show when=move || pr.diagram.get()>
                        <LoopDiagram presenting=true/>
                    </Show>
                </div>
                <p class="present-keys" aria-hidden="true">
                    "→ next   ← previous   R run   D diagram   Esc leave"
                </p>
            </section>
        </Show>
    }
}
