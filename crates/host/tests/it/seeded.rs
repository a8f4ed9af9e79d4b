//! A loop started from a conversation (a prompt's messages, as `prompts/get` returns
//! them) instead of one user message: steps 2 and 3 show those messages in each
//! provider's format, and the loop runs to its answer. Natively and in Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::ToolLoop;
use mcpg_host::provider::{ModelTurn, Provider, ToolCall, Turn};
use mcpg_host::tool_loop::SeedError;
use support::{Driver, Model, opts};

fn seed() -> Vec<Turn> {
    vec![
        Turn::User("You are planning a trip.".into()),
        Turn::Model(ModelTurn::Answer {
            text: "Happy to help: which city?".into(),
        }),
        Turn::User("What's the weather in Austin?".into()),
    ]
}

fn seeded(provider: Provider) -> Driver {
    let mut d = Driver::new("unused", provider, Model::Mock);
    d.run = ToolLoop::from_turns(seed(), provider, opts()).unwrap();
    d
}

#[test]
fn a_seeded_loop_shows_the_messages_in_every_provider_format() {
    // Where each format puts the assistant's earlier words.
    let assistant = [
        (Provider::Anthropic, "\"role\": \"assistant\""),
        (Provider::OpenAiChat, "\"role\": \"assistant\""),
        (Provider::OpenAiResponses, "Happy to help"),
        (Provider::Gemini, "\"role\": \"model\""),
        (Provider::Ollama, "\"role\": \"assistant\""),
    ];
    for (provider, marker) in assistant {
        let mut d = seeded(provider);
        assert!(d.run.is_seeded());
        d.run_all();
        assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6], "{provider:?}");
        let s2 = d.step_n(2);
        let shown = &s2.blocks.last().unwrap().json;
        assert!(s2.blocks.len() == 2, "{provider:?}: {:?}", s2.blocks);
        for text in [
            "You are planning a trip.",
            "Happy to help",
            "weather in Austin",
        ] {
            assert!(
                shown.contains(text),
                "{provider:?} step 2 lacks {text}: {shown}"
            );
        }
        assert!(shown.contains(marker), "{provider:?}: {shown}");
        assert!(
            !shown.contains("get_weather"),
            "{provider:?}: no tools here: {shown}"
        );
        let s3 = d.step_n(3);
        assert!(
            s3.blocks
                .iter()
                .any(|b| b.json.contains("You are planning a trip.")),
            "{provider:?}"
        );
        assert_eq!(d.run.answer(), Some("get_weather says: Austin: 91F, sunny"));
    }
}

#[test]
fn a_one_message_loop_does_not_show_the_extra_block() {
    let mut d = Driver::new(
        "What's the weather in Austin?",
        Provider::Anthropic,
        Model::Mock,
    );
    d.run_all();
    assert!(!d.run.is_seeded());
    assert_eq!(d.step_n(2).blocks.len(), 1);
}

#[test]
fn only_messages_can_seed_a_loop() {
    let p = Provider::Anthropic;
    assert_eq!(
        ToolLoop::from_turns(Vec::new(), p, opts()).err(),
        Some(SeedError::Empty)
    );
    let call = Turn::Model(ModelTurn::ToolCalls {
        text: None,
        calls: vec![ToolCall {
            id: "c".into(),
            name: "get_weather".into(),
            arguments: Default::default(),
        }],
    });
    let turns = vec![Turn::User("hi".into()), call];
    assert_eq!(
        ToolLoop::from_turns(turns, p, opts()).err(),
        Some(SeedError::NotAMessage(1))
    );
}
