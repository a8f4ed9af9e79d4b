//! The picture of the loop, drawn from the steps the driver really produces against
//! the embedded demo: lanes, labels and kinds of every arrow, the current step, and
//! the geometry. (Parallel calls and failures: `diagram_kinds.rs`.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::diagram_support;
use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use diagram_support::{arrows, draw, run};
use mcpg_host::provider::Provider;
use mcpg_page::Command;
use mcpg_page_later::diagram::{ArrowKind, DiagramInput, HEAD, Lane, ROW, Target, diagram};
use support::Shell;

use ArrowKind::{Host as H, Mcp as M, User as U};
use Lane::{Host, Model, Server, User};

#[test]
fn the_walkthrough_draws_one_arrow_per_message_between_the_right_lanes() {
    let s = run("What's the weather in Austin?");
    let d = draw(&s, "What's the weather in Austin?");
    let expected = [
        (User, Host, U, "“What's the weather in Austin?”"),
        (Host, Server, M, "tools/list ×5"),
        (Server, Host, M, "tools, 5 pages"),
        (Host, Host, H, "reshape → Anthropic"),
        (Host, Model, H, "tools + message"),
        (Model, Host, H, "picks get_weather"),
        (Host, Server, M, "tools/call get_weather"),
        (Server, Host, M, "result"),
        (Host, Model, H, "feed back the result"),
        (Model, Host, H, "answers"),
        (Host, User, U, "answer"),
    ];
    let expected: Vec<_> = expected
        .iter()
        .map(|(f, t, k, l)| (*f, *t, *k, (*l).to_owned()))
        .collect();
    assert_eq!(arrows(&d), expected);
    // Every step's arrows lead to that step's card; the answer to the answer.
    let numbers: Vec<Option<u8>> = d.arrows.iter().map(|a| a.number).collect();
    let steps = [1, 1, 2, 3, 3, 4, 5, 6, 6].map(Some);
    assert_eq!(numbers[1..10], steps);
    for a in &d.arrows[1..10] {
        let Some(Target::Step(i)) = a.target else {
            panic!("{a:?}")
        };
        assert_eq!(Some(s.steps[i].number), a.number);
    }
    assert_eq!(d.arrows[0].target, None, "the message leads nowhere");
    assert_eq!(d.arrows[10].target, Some(Target::Answer));
    // One number per step, on its first row.
    let shown: Vec<u8> = d
        .arrows
        .iter()
        .filter(|a| a.shows_number)
        .filter_map(|a| a.number)
        .collect();
    assert_eq!(shown, [1, 2, 3, 4, 5, 6]);
    // The last step is current: both of step 6's arrows, and they say so in words.
    let current: Vec<&str> = d
        .arrows
        .iter()
        .filter(|a| a.current)
        .map(|a| a.label.as_str())
        .collect();
    assert_eq!(current, ["feed back the result", "answers"]);
    assert!(
        d.status.starts_with("Current: Step 6, inside the host"),
        "{}",
        d.status
    );
    assert!(d.frames.is_empty());
}

#[test]
fn arrows_follow_the_loop_step_by_step() {
    let mut s = Shell::demo();
    let mut seen = Vec::new();
    for _ in 0..5 {
        s.cmd(Command::Step);
        let d = draw(&s, "q");
        let current: Vec<String> = d
            .arrows
            .iter()
            .filter(|a| a.current)
            .map(|a| a.label.clone())
            .collect();
        seen.push((d.arrows.len(), current));
    }
    let owned = |v: &[&str]| v.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        seen,
        [
            (3, owned(&["tools/list ×5", "tools, 5 pages"])),
            (4, owned(&["reshape → Anthropic"])),
            // Step 4 comes next: the model picked a tool, not yet sent.
            (6, owned(&["tools + message", "picks a tool"])),
            (8, owned(&["result"])),
            (11, owned(&["feed back the result", "answers"])),
        ]
    );
}

#[test]
fn the_current_step_is_the_one_asked_for() {
    let s = run("What's the weather in Austin?");
    let mut input = DiagramInput {
        steps: &s.steps,
        prompt: None,
        answered: false,
        provider: Provider::Gemini,
        next_step: None,
        current: Some(3),
        views: &[],
        follow_ups: &[],
    };
    let d = diagram(&input);
    let current: Vec<_> = d.arrows.iter().filter(|a| a.current).collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].label, "tools/call get_weather");
    assert_eq!(current[0].target, Some(Target::Step(3)));
    assert!(
        d.status
            .contains("Step 4, over MCP, from the host to the MCP server"),
        "{}",
        d.status
    );
    input.current = None;
    assert!(diagram(&input).arrows.iter().all(|a| !a.current));
}

#[test]
fn geometry_keeps_every_arrow_inside_the_view_box_and_between_its_lanes() {
    let s = run("weather in Paris and Austin");
    let d = draw(&s, &"a very long message ".repeat(10));
    let mut last = 0;
    for a in &d.arrows {
        assert!(a.y > last, "rows go down: {a:?}");
        assert!(a.y < d.height);
        last = a.y;
        let (x1, x2) = (d.lane_x(a.from), d.lane_x(a.to));
        assert!(a.path.starts_with(&format!("M {x1} ")), "{a:?}");
        assert!(a.head.starts_with(&format!("{x2},")), "{a:?}");
        // Beside a self-arrow (its loop is 26 wide) names in capitals take ~8.2 a
        // character; between lanes ~7.5.
        let (room, tenths) = if x1 == x2 {
            (d.width - x1 - 32, 82)
        } else {
            (x1.abs_diff(x2), 75)
        };
        let chars = u32::try_from(a.label.chars().count()).unwrap();
        assert!(
            chars * tenths / 10 <= room,
            "{} does not fit in {room}",
            a.label
        );
    }
    assert!(d.arrows[0].label.ends_with('…'), "{}", d.arrows[0].label);
    assert!(
        d.arrows[0]
            .description
            .contains(&"a very long message ".repeat(10))
    );
    // Label in name (WCAG 2.5.3, axe's label-content-name-mismatch): what an arrow
    // shows is inside its accessible name, shortened or not.
    for a in &d.arrows {
        assert!(a.description.contains(&a.label), "{a:?}");
    }
    // Rows are at least a row apart, frames add their own room.
    let gaps: Vec<u32> = d.arrows.windows(2).map(|w| w[1].y - w[0].y).collect();
    assert!(gaps.iter().all(|g| *g >= ROW), "{gaps:?}");
    const { assert!(HEAD < ROW) };
}

#[test]
fn no_steps_draw_no_arrows_and_say_what_to_do() {
    let d = diagram(&DiagramInput {
        steps: &[],
        prompt: Some("hello"),
        answered: false,
        provider: Provider::Anthropic,
        next_step: Some(1),
        views: &[],
        follow_ups: &[],
        current: None,
    });
    assert!(d.arrows.is_empty());
    assert!(d.status.contains("Step or Run"), "{}", d.status);
    assert!(d.height > 0);
}
