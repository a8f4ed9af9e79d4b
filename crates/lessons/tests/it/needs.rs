//! A lesson's question opens only after its learner made something happen: no
//! need is seen on a page just set up for the lesson, and the first need of each
//! lesson whose first action is to run its loop is seen once that loop has run
//! (the e2e learner test walks every need in a real browser).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_lessons::{Check, LESSONS, Lesson, Pitfall, Sign, Watch};
use mcpg_loop_data::Pitfalls;
use support::{Played, opened, play, play_with};

fn watch(lesson: &Lesson, played: &Played) -> Watch {
    let mut w = Watch::new(lesson);
    w.see_steps(lesson, &played.steps);
    // The page looks at the Transport row whenever the cards change, too.
    w.see_transport(lesson, &played.transport);
    for raw in &played.wire {
        w.see_wire(lesson, raw);
    }
    w
}

#[test]
fn every_lesson_needs_something_done() {
    for l in LESSONS {
        assert!(!l.needs.is_empty(), "{}: a check with no need", l.slug);
        for n in l.needs {
            assert!(!n.task.trim().is_empty(), "{}", l.slug);
            if let Sign::Field { step, .. } | Sign::Done(step) | Sign::Cards { step, .. } = n.sign {
                assert!((1..=6).contains(&step), "{}: step {step}", l.slug);
            }
        }
    }
}

#[test]
fn nothing_is_seen_before_the_learner_acts() {
    for l in LESSONS {
        let w = watch(l, &opened(&l.setup));
        assert!(
            !w.seen(0),
            "{}: “{}” is seen on a page just set up",
            l.slug,
            l.needs[0].task
        );
    }
}

/// Lessons whose first action is not running their own loop with the careful
/// host: a panel, the revision chooser, the naive host, or signing in.
const FIRST_ELSEWHERE: [&str; 7] = [
    "generations",
    "pagination",
    "prompts",
    "skills",
    "completions",
    "logs",
    "oauth",
];

#[test]
fn running_the_loop_meets_the_first_need_of_the_lessons_that_start_with_it() {
    for l in LESSONS {
        if FIRST_ELSEWHERE.contains(&l.slug) {
            continue;
        }
        let w = watch(l, &play(&l.setup, l.setup.prompt));
        assert!(
            w.seen(0),
            "{}: running the loop does not meet “{}”",
            l.slug,
            l.needs[0].task
        );
    }
}

#[test]
fn needs_are_met_in_order_and_stay_met() {
    let l = mcpg_lessons::find("is-error").unwrap().1;
    let naive = Pitfalls::NONE
        .with(Pitfall::ErrorAsSuccess, true)
        .with(Pitfall::AcceptInventedTool, true);
    // The invented tool first: its -32602 shows, but the needs before it have not
    // been seen, so it does not count.
    let mut w = watch(l, &play_with(&l.setup, "call no_such_tool", naive));
    assert!(!w.seen(0) && !w.seen(3));
    // In the task's order: each run meets its need, though it replaced the cards.
    w.see_steps(l, &play(&l.setup, l.setup.prompt).steps);
    assert!(w.seen(0) && !w.seen(1));
    w.see_steps(l, &play_with(&l.setup, l.setup.prompt, naive).steps);
    assert!(w.seen(1) && !w.seen(2));
    w.see_steps(l, &play(&l.setup, l.setup.prompt).steps);
    assert!(w.seen(2) && !w.seen(3));
    w.see_steps(l, &play_with(&l.setup, "call no_such_tool", naive).steps);
    assert!(w.seen(3) && !w.seen(4));
    w.see_steps(l, &play(&l.setup, "call no_such_tool").steps);
    assert!(w.all_seen());
    // Back to an empty page: still met.
    w.see_steps(l, &[]);
    assert!(w.all_seen());
}

#[test]
fn every_pitfall_lesson_breaks_the_loop_with_its_naive_host() {
    let mut taught = Vec::new();
    for l in LESSONS.iter().filter(|l| !l.pitfalls.is_empty()) {
        let mut naive = Pitfalls::NONE;
        for p in l.pitfalls {
            naive.set(*p, true);
        }
        for need in l.needs {
            if let Sign::Choice {
                pitfall,
                naive: is_naive,
            } = need.sign
            {
                assert!(l.pitfalls.contains(&pitfall), "{}: {pitfall:?}", l.slug);
                let host = if is_naive { naive } else { Pitfalls::NONE };
                // The lesson's own message, or the one its pointers offer.
                let prompts =
                    std::iter::once(l.setup.prompt).chain(l.notice.iter().filter_map(|p| p.prompt));
                let shown = prompts
                    .into_iter()
                    .any(|prompt| need.sign.in_steps(&play_with(&l.setup, prompt, host).steps));
                assert!(
                    shown,
                    "{}: the host ({host:?}) never shows “{}”",
                    l.slug, need.task
                );
            }
        }
        taught.extend_from_slice(l.pitfalls);
    }
    for p in Pitfall::ALL {
        assert!(
            taught.contains(&p),
            "no lesson switches on the naive host's {p:?}"
        );
    }
}

#[test]
fn the_two_runs_of_reshape_are_both_needed() {
    let l = mcpg_lessons::find("reshape").unwrap().1;
    let mut w = watch(l, &play(&l.setup, l.setup.prompt));
    assert!(w.seen(0) && !w.all_seen(), "OpenAI alone is not enough");
    let mut gemini = l.setup;
    gemini.provider = mcpg_lessons::Provider::Gemini;
    w.see_steps(l, &play(&gemini, l.setup.prompt).steps);
    assert!(
        !w.seen(1),
        "Gemini before the naive host's run does not count"
    );
    w.see_steps(
        l,
        &play_with(&l.setup, l.setup.prompt, Pitfalls::only(Pitfall::RawNames)).steps,
    );
    w.see_steps(l, &play(&gemini, l.setup.prompt).steps);
    assert!(
        w.all_seen(),
        "then the naive host's 400, then Gemini's step 2"
    );
}

#[test]
fn choices_are_shuffled_so_the_right_one_moves() {
    let mut at_position = [0usize; 4];
    let mut checks = 0;
    for l in LESSONS {
        if let Check::Choice { choices, .. } = l.check {
            let order = l.check.shown_order(l.slug);
            assert_eq!(order.len(), choices.len());
            let right = choices.iter().position(|c| c.right).unwrap();
            let shown_at = order.iter().position(|&i| i == right).unwrap();
            at_position[shown_at] += 1;
            checks += 1;
        }
    }
    // The right choice is shown first in at most half the checks, and every
    // position of three gets it at least once.
    assert!(at_position[0] * 2 <= checks, "{at_position:?} of {checks}");
    assert!(at_position[..3].iter().all(|&n| n > 0), "{at_position:?}");
}
