//! A user message after the answer (MCP Apps' `ui/message`, a view speaking for
//! the user) takes a done loop back to step 3, and the model sees the whole
//! conversation; a loop still running refuses it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::provider::{Provider, Turn};
use mcpg_host::tool_loop::Action;
use support::{Driver, Model};

#[test]
fn a_message_after_the_answer_goes_on_from_step_3_with_the_whole_conversation() {
    let mut d = Driver::new(
        "What's the weather in Austin?",
        Provider::Anthropic,
        Model::Mock,
    );
    d.finish();
    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6]);
    let before = d.sent.len();

    // As the page words a view's message with the context it set.
    assert!(d.run.follow_up(
        "What's the 3-day forecast for Paris?\n\n(Context from the app the user sees: The card shows Austin: 91F, sunny; Austin: humidity 35%, wind 5 mph.)"
    ));
    assert!(!d.run.is_done());
    assert_eq!(
        d.run.answer(),
        None,
        "the old answer is no longer the last word"
    );
    assert_eq!(d.run.next(), Action::ModelTurn);
    assert_eq!(d.run.next_step_number(), Some(3));
    assert!(
        matches!(d.run.turns().last(), Some(Turn::User(t)) if t.contains("Paris")),
        "{:?}",
        d.run.turns()
    );
    d.finish();

    assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6, 3, 4, 5, 6]);
    assert_eq!(d.called(), ["get_weather", "get_forecast"]);
    // Step 3 of the follow-up sends the model everything said so far.
    let s3 = d.step_n(3);
    let request = &s3.blocks[0].json;
    assert!(request.contains("Austin: 91F, sunny"), "{request}");
    assert!(request.contains("3-day forecast for Paris"), "{request}");
    // No second tools/list: the tools are the ones listed in step 1.
    let relisted = d.sent[before..]
        .iter()
        .filter(|m| m.contains("\"tools/list\""))
        .count();
    assert_eq!(relisted, 0);
    assert!(d.run.answer().is_some_and(|a| a.contains("Paris")));
}

#[test]
fn a_running_loop_or_one_that_never_reached_the_model_refuses_a_message() {
    let mut d = Driver::new(
        "What's the weather in Austin?",
        Provider::OpenAiChat,
        Model::Mock,
    );
    assert!(!d.run.follow_up("too early"), "nothing was listed yet");
    d.step();
    d.step();
    assert!(!d.run.follow_up("still running"), "the loop is at step 3");
    assert_eq!(d.run.turns().len(), 1);
    d.finish();
    assert!(d.run.follow_up("now it is over"));
}
