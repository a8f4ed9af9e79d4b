//! A lesson's question opens only after its learner made something happen: no
//! need is seen on a page just set up for the lesson, and the first need of each
//! lesson whose first action is to run its loop is seen once that loop has run
//! (the e2e learner test walks every need in a real browser).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_lessons::{Check, LESSONS, Lesson, Sign, Watch};
use support::{Played, opened, play};

fn watch(lesson: &Lesson, played: &Played) -> Watch {
    let mut w = Watch::new(lesson);
    w.see_steps(lesson, &played.steps);
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

/// Lessons whose first action is not running their own loop: a panel, or the
/// revision chooser.
const FIRST_ELSEWHERE: [&str; 4] = ["generations", "prompts", "completions", "logs"];

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
    // The unknown tool first: the second need shows, but the first has not.
    let mut w = watch(l, &play(&l.setup, "call no_such_tool"));
    assert!(!w.seen(0) && !w.seen(1));
    // Atlantis, then the unknown tool: both, though its cards replaced Atlantis's.
    w.see_steps(l, &play(&l.setup, l.setup.prompt).steps);
    assert!(w.seen(0) && !w.seen(1));
    w.see_steps(l, &play(&l.setup, "call no_such_tool").steps);
    assert!(w.all_seen());
    // Back to an empty page: still met.
    w.see_steps(l, &[]);
    assert!(w.all_seen());
}

#[test]
fn the_two_runs_of_reshape_are_both_needed() {
    let l = mcpg_lessons::find("reshape").unwrap().1;
    let mut w = watch(l, &play(&l.setup, l.setup.prompt));
    assert!(w.seen(0) && !w.all_seen(), "OpenAI alone is not enough");
    let mut gemini = l.setup;
    gemini.provider = mcpg_lessons::Provider::Gemini;
    w.see_steps(l, &play(&gemini, l.setup.prompt).steps);
    assert!(w.all_seen(), "then Gemini's step 2");
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
