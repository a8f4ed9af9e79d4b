//! The MCP Apps view as a lifeline of the picture: a loop whose call hosts the
//! demo's weather card gets a "View" lane between the model and the host, and the
//! view's arrows right after its call's step 5 (the result handed in, then each
//! call the view made through the host). A loop without a view keeps its four lanes.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::apps::{at_step_five, from_view, initialize, posted, view_says};
use crate::diagram_support::{arrows, draw};
use crate::support::Shell;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::provider::Provider;
use mcpg_page::{AppLifeline, Command};
use mcpg_page_later::diagram::{
    ArrowKind, Diagram, DiagramInput, DiagramView, Lane, Target, WIDTH, WIDTH_WITH_VIEW, diagram,
    views_of,
};
use serde_json::json;

use ArrowKind::{App as A, Host as H, Mcp as M};
use Lane::{Host, Model, Server, User, View};

const AUSTIN: &str = "What's the weather in Austin?";

/// The diagram of the shell's steps with the views it hosts, the last step current.
fn draw_with_views(s: &Shell, views: &[DiagramView]) -> Diagram {
    diagram(&DiagramInput {
        steps: &s.steps,
        prompt: Some(AUSTIN),
        answered: s.answer.is_some(),
        provider: Provider::Anthropic,
        next_step: s.next_step,
        current: s.steps.len().checked_sub(1),
        views,
        follow_ups: &[],
    })
}

/// The shell's views as the page hands them to the picture.
fn views(s: &Shell) -> Vec<DiagramView> {
    views_of(&s.apps, &s.d.app_lifelines())
}

/// The view asks the host to call `tool`; the host sends it on and hands back
/// the server's answer.
fn view_calls(s: &mut Shell, view: u64, id: u64, tool: &str) {
    from_view(
        s,
        view,
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
               "params": {"name": tool, "arguments": {"city": "Paris", "days": 2}}}),
    );
    let back = posted(s, view);
    assert_eq!(back.len(), 1, "{back:?}");
    assert!(back[0].get("result").is_some(), "{back:?}");
}

/// "What's the weather in Austin?" to its end, its view ready and having called
/// get_forecast twice, then get_weather.
fn austin_with_calls() -> Shell {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    posted(&mut s, id);
    view_calls(&mut s, id, 7, "get_forecast");
    view_calls(&mut s, id, 8, "get_forecast");
    view_calls(&mut s, id, 9, "get_weather");
    s.cmd(Command::Step);
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert!(s.answer.is_some());
    s
}

/// Each label fits between its lanes (or beside its self-arrow), as geometry's
/// shortening promises: ~7.5 units a character between lanes, ~8.2 beside.
fn labels_fit(d: &Diagram) {
    for a in &d.arrows {
        let (x1, x2) = (d.lane_x(a.from), d.lane_x(a.to));
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
        assert!(a.description.contains(&a.label), "{a:?}");
        assert!(a.path.starts_with(&format!("M {x1} ")), "{a:?}");
        assert!(a.head.starts_with(&format!("{x2},")), "{a:?}");
    }
}

#[test]
fn a_loop_without_a_view_keeps_its_four_lanes() {
    let s = crate::diagram_support::run("square 12");
    assert!(s.apps.is_empty(), "square links no view");
    let views = views(&s);
    assert!(views.is_empty());
    let d = draw_with_views(&s, &views);
    assert_eq!(d.lanes, Lane::LOOP);
    assert_eq!(d.width, WIDTH);
    let xs: Vec<u32> = d.lanes.iter().map(|l| d.lane_x(*l)).collect();
    assert_eq!(xs, [70, 225, 385, 570]);
    assert!(
        arrows(&d)
            .iter()
            .all(|a| a.2 != A && a.0 != View && a.1 != View)
    );
    // The page's own drawing of a loop (no views handed in) is today's too.
    assert_eq!(draw(&s, "square 12").lanes, Lane::LOOP);
}

#[test]
fn the_driver_records_the_views_step_and_its_answered_calls() {
    let s = austin_with_calls();
    let v = &s.apps[0];
    let calls = ["get_forecast", "get_forecast", "get_weather"].map(String::from);
    assert_eq!(
        s.d.app_lifelines(),
        [AppLifeline {
            view: v.id,
            step: 4,
            calls: calls.to_vec(),
        }]
    );
    assert_eq!(s.steps[4].number, 5);
    assert_eq!(
        views(&s),
        [DiagramView {
            id: v.id,
            step: 4,
            tool: "get_weather".into(),
            calls: calls.to_vec(),
            waiting: false,
        }]
    );
}

#[test]
fn a_hosted_view_is_a_lane_between_model_and_host_with_its_arrows_after_step_5() {
    let s = austin_with_calls();
    let views = views(&s);
    let d = draw_with_views(&s, &views);
    assert_eq!(d.lanes, [User, Model, View, Host, Server]);
    assert_eq!(d.width, WIDTH_WITH_VIEW);
    let xs: Vec<u32> = d.lanes.iter().map(|l| d.lane_x(*l)).collect();
    assert!(xs.windows(2).all(|w| w[0] < w[1]), "{xs:?}");
    // Lane boxes are 104 wide, centred on their lifeline: none overlaps another
    // or the view box.
    assert!(xs.windows(2).all(|w| w[1] - w[0] >= 104), "{xs:?}");
    assert!(xs[0] >= 52 && xs[4] + 52 <= d.width, "{xs:?}");

    let all = arrows(&d);
    let result = all
        .iter()
        .position(|a| a.3 == "result" && a.0 == Server)
        .unwrap();
    let owned = |(f, t, k, l): (Lane, Lane, ArrowKind, &str)| (f, t, k, l.to_owned());
    let expected = [
        (Host, View, A, "tool-result"),
        (View, Host, A, "tools/call get_forecast ×2"),
        (Host, Server, M, "tools/call get_forecast ×2"),
        (Server, Host, M, "result ×2"),
        (Host, View, A, "result ×2"),
        (View, Host, A, "tools/call get_weather"),
        (Host, Server, M, "tools/call get_weather"),
        (Server, Host, M, "result"),
        (Host, View, A, "result"),
        (Host, Model, H, "feed back the result"),
    ]
    .map(owned);
    assert_eq!(all[result + 1..result + 11], expected);
    // Before them, the loop's own arrows are today's.
    assert_eq!(all[result - 1].3, "tools/call get_weather");
    let view_rows = &d.arrows[result + 1..result + 10];
    for a in view_rows {
        assert_eq!(
            a.target,
            Some(Target::View {
                id: s.apps[0].id,
                step: 4
            })
        );
        assert_eq!(a.number, Some(5));
        assert!(!a.shows_number, "step 5's number is on its result");
        assert!(!a.running);
    }
    assert_eq!(
        view_rows[1].description,
        "Step 5, between the view and the host, from the tool's view to the host: tools/call get_forecast ×2"
    );
    assert_eq!(
        view_rows[2].description,
        "Step 5, over MCP, for the view of get_weather, from the host to the MCP server: tools/call get_forecast ×2"
    );
    assert_eq!(view_rows[0].kind.as_str(), "app");
    labels_fit(&d);
    // Every label fits whole: nothing was shortened.
    assert!(d.arrows[1..].iter().all(|a| !a.label.ends_with('…')));
}

#[test]
fn the_status_line_says_where_a_views_arrows_go_when_its_step_is_current() {
    let s = austin_with_calls();
    let views = views(&s);
    let d = diagram(&DiagramInput {
        steps: &s.steps,
        prompt: None,
        answered: false,
        provider: Provider::Anthropic,
        next_step: None,
        current: Some(4),
        views: &views,
        follow_ups: &[],
    });
    let current: Vec<&str> = d
        .arrows
        .iter()
        .filter(|a| a.current)
        .map(|a| a.label.as_str())
        .collect();
    assert_eq!(current.len(), 10, "step 5's result and its view's nine");
    assert!(
        d.status.contains(
            "Step 5, between the view and the host, from the tool's view to the host: tools/call get_weather"
        ),
        "{}",
        d.status
    );
}

#[test]
fn a_view_still_loading_waits_for_its_result_and_one_without_calls_draws_one_arrow() {
    let s = at_step_five();
    let views = views(&s);
    assert!(
        views[0].waiting,
        "no handshake yet: the host holds the result"
    );
    let d = draw_with_views(&s, &views);
    let view: Vec<_> = d.arrows.iter().filter(|a| a.kind == A).collect();
    assert_eq!(view.len(), 1);
    assert_eq!(view[0].label, "tool-result");
    assert!(view[0].running, "drawn as under way");
    assert!(d.status.contains("(under way)"), "{}", d.status);
}

#[test]
fn a_reset_forgets_the_views_lane_while_the_view_tears_down() {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    s.cmd(Command::Reset);
    assert_eq!(s.apps.len(), 1, "still tearing down");
    assert!(views(&s).is_empty(), "a view tearing down is not drawn");
    let d = draw_with_views(&s, &views(&s));
    assert_eq!(d.lanes, Lane::LOOP);
    assert!(d.arrows.is_empty());
    // The next loop reaches its step 5 (at the same index) before the old view
    // went: only the new view is drawn there.
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.apps.len(), 2, "the old view still tears down");
    let views = views(&s);
    assert_eq!(views.len(), 1);
    assert_ne!(views[0].id, id);
    let d = draw_with_views(&s, &views);
    let tool_results = d.arrows.iter().filter(|a| a.label == "tool-result").count();
    assert_eq!(tool_results, 1);
}

#[test]
fn parallel_views_widen_the_par_frame_to_the_views_lane() {
    let mut s = Shell::demo();
    s.cmd(Command::SetPrompt("weather in Paris and Austin".into()));
    for _ in 0..5 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 4, 5], "{:?}", s.numbers());
    assert_eq!(s.apps.len(), 2);
    let views = views(&s);
    assert_eq!(views.iter().map(|v| v.step).collect::<Vec<_>>(), [4, 6]);
    let d = draw_with_views(&s, &views);
    let f = &d.frames[0];
    assert!(f.x < d.lane_x(View), "{f:?}");
    assert!(f.x + f.width > d.lane_x(Server), "{f:?}");
    let inside: Vec<&str> = d
        .arrows
        .iter()
        .filter(|a| a.y > f.y && a.y < f.y + f.height)
        .map(|a| a.label.as_str())
        .collect();
    assert_eq!(
        inside,
        [
            "tools/call get_weather",
            "result",
            "tool-result",
            "tools/call get_weather",
            "result",
            "tool-result"
        ]
    );
    labels_fit(&d);
}

#[test]
fn a_views_message_draws_the_answer_then_the_later_message_before_step_3_again() {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    posted(&mut s, id);
    view_says(&mut s, id, "Forecast for Paris");
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6, 3, 4, 5, 6]);
    // A seeded first message before the one that opened the loop is skipped.
    let said = [
        "an earlier seeded message".to_owned(),
        "Forecast for Paris".to_owned(),
    ];
    let v = views(&s);
    let d = diagram(&DiagramInput {
        steps: &s.steps,
        prompt: Some(AUSTIN),
        answered: s.answer.is_some(),
        provider: Provider::Anthropic,
        next_step: s.next_step,
        current: s.steps.len().checked_sub(1),
        views: &v,
        follow_ups: &said,
    });
    let labels: Vec<&str> = d.arrows.iter().map(|a| a.label.as_str()).collect();
    let second = labels
        .iter()
        .position(|l| *l == "“Forecast for Paris”")
        .unwrap();
    assert_eq!(labels[second - 1], "answer", "{labels:?}");
    assert_eq!(
        d.arrows[second - 1].target,
        Some(Target::Step(5)),
        "the first answer is step 6's card"
    );
    assert_eq!((d.arrows[second].from, d.arrows[second].to), (User, Host));
    assert_eq!(d.arrows[second + 1].number, Some(3), "{labels:?}");
    assert_eq!(labels.last(), Some(&"answer"));
    assert!(
        !labels.contains(&"“an earlier seeded message”"),
        "{labels:?}"
    );
}
