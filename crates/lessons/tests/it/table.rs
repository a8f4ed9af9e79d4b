//! The table's own rules, the lenient short answers, stored progress and
//! `#lesson=` links.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_lessons::hash::{LessonLink, link, parse};
use mcpg_lessons::progress::{Loaded, Progress};
use mcpg_lessons::{Check, LESSONS, find, normalize};

#[test]
fn slugs_are_unique_and_fit_a_url_fragment() {
    let mut seen = HashSet::new();
    for l in LESSONS {
        assert!(seen.insert(l.slug), "duplicate slug {}", l.slug);
        assert!(
            !l.slug.is_empty()
                && l.slug
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{}",
            l.slug
        );
    }
    assert!(LESSONS.len() >= 9);
}

#[test]
fn every_lesson_has_words_and_pointers_within_the_six_steps() {
    for l in LESSONS {
        for text in [l.title, l.goal, l.task, l.setup.prompt, l.check.question()] {
            assert!(!text.trim().is_empty(), "{}", l.slug);
        }
        assert!(
            !l.goal.trim_end_matches('.').contains(". "),
            "{}: one sentence",
            l.slug
        );
        assert!(!l.notice.is_empty(), "{}", l.slug);
        for p in l.notice {
            assert!((1..=6).contains(&p.step), "{}: step {}", l.slug, p.step);
            assert!(!p.field.is_empty() && !p.note.is_empty(), "{}", l.slug);
        }
    }
}

#[test]
fn every_check_has_exactly_one_right_answer() {
    for l in LESSONS {
        match l.check {
            Check::Choice { choices, .. } => {
                assert!(choices.len() >= 2, "{}", l.slug);
                assert_eq!(choices.iter().filter(|c| c.right).count(), 1, "{}", l.slug);
                for (i, c) in choices.iter().enumerate() {
                    assert!(!c.feedback.is_empty(), "{}: choice {i}", l.slug);
                    // The page shows a right answer's feedback as it is, and puts
                    // "Not quite." before a wrong one's.
                    assert_eq!(c.feedback.starts_with("Right"), c.right, "{}: {i}", l.slug);
                    assert_eq!(l.check.judge(Some(i), "").right, c.right);
                }
                assert!(!l.check.judge(Some(choices.len()), "").right);
            }
            Check::Short {
                answer,
                also,
                right,
                ..
            } => {
                assert!(right.starts_with("Right"), "{}", l.slug);
                assert!(l.check.judge(None, answer).right, "{}", l.slug);
                for a in also {
                    assert!(l.check.judge(None, a).right, "{}: {a}", l.slug);
                }
                assert!(!l.check.judge(None, "").right, "{}: empty", l.slug);
                assert!(!l.check.judge(None, "no idea").right, "{}", l.slug);
                assert!(!l.check.judge(Some(0), "").right, "{}", l.slug);
            }
        }
    }
}

#[test]
fn short_answers_are_compared_leniently() {
    let six = find("six-steps").unwrap().1.check;
    for ok in ["1, 4, 5", "1,4,5", "Steps 1, 4 and 5", "5 4 1", " 1 4 5. "] {
        assert!(six.judge(None, ok).right, "{ok}");
    }
    for bad in ["1, 4", "1 2 3", "1 4 5 6", "all of them"] {
        let v = six.judge(None, bad);
        assert!(!v.right, "{bad}");
        assert!(v.feedback.contains("badges"), "the hint: {}", v.feedback);
    }
    assert_eq!(normalize("The math.square tool."), ["math.square", "tool"]);
    assert!(six.judge(None, "5, 5, 1, 4").right, "repeats do not matter");
}

#[test]
fn progress_round_trips_and_ignores_what_it_cannot_read() {
    let mut p = Progress::new();
    p.mark_done(0);
    p.mark_done(2);
    p.mark_done(999);
    assert_eq!(p.count(), 2);
    let stored = p.to_stored();
    assert_eq!(Progress::load(Some(&stored)), Loaded::Read(p.clone()));
    assert_eq!(Progress::load(None), Loaded::Empty);
    for bad in [
        "",
        "{",
        "null",
        "[\"six-steps\"]",
        r#"{"v":2,"done":["six-steps"]}"#,
        r#"{"v":1,"done":"six-steps"}"#,
        r#"{"v":1,"done":[1]}"#,
        "\u{0}garbage",
    ] {
        assert_eq!(Progress::load(Some(bad)), Loaded::Ignored, "{bad:?}");
        assert_eq!(Progress::load_or_new(Some(bad)).count(), 0);
    }
    // A lesson that left the track is dropped, the rest is kept.
    let old = r#"{"v":1,"done":["gone-lesson","pagination"]}"#;
    let p = Progress::load_or_new(Some(old));
    assert_eq!(p.count(), 1);
    assert!(p.is_done(find("pagination").unwrap().0));
}

#[test]
fn lesson_links_are_told_apart_from_session_links_and_anchors() {
    assert!(matches!(parse("#lesson=reshape"), LessonLink::Lesson(5, l) if l.slug == "reshape"));
    assert_eq!(parse("#lesson=nope"), LessonLink::Unknown("nope"));
    assert_eq!(parse("#lesson="), LessonLink::Unknown(""));
    for other in [
        "",
        "#",
        "#loop",
        "#s1.abc",
        "#s=s1.abc",
        "#lessons",
        "lesson",
    ] {
        assert_eq!(parse(other), LessonLink::None, "{other}");
    }
    for l in LESSONS {
        assert!(matches!(parse(&link(l.slug)), LessonLink::Lesson(_, x) if x.slug == l.slug));
    }
}
