//! The whole loop for every demo tool in every provider's format, against the real
//! demo server: with the mock model (its turns rendered in each provider's exact
//! reply shape), and as a real model's HTTP replies are read (the same replies
//! serialised and parsed back, as the page does with a provider's body). Plus the
//! failures a real model brings: an HTTP error, a malformed arguments string, an
//! unknown tool, an unreachable server. Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::provider::{self, Provider, endpoint, mask_key, shown_request};
use mcpg_host::tool_loop::{Action, MAX_ROUNDS, StepStatus};
use serde_json::json;
use support::{Driver, Model};

/// A message for every demo tool, and what the answer must say.
const CASES: [(&str, &str, &str); 20] = [
    (
        "get_weather",
        "What's the weather in Austin?",
        "Austin: 91F",
    ),
    ("get_forecast", "Forecast for Paris for 3 days", "Paris"),
    (
        "get_weather_icon",
        "Show the weather icon for Tokyo",
        "image",
    ),
    ("say_hello", "Say hello", "audio"),
    ("read_note", "Read the note about errors", "isError"),
    ("count_slowly", "Count slowly to 3", "Counted to 3"),
    (
        "toggle_bonus_tool",
        "Toggle the bonus tool",
        "secret_recipe",
    ),
    ("add_numbers", "add 2 and 3", "5"),
    ("multiply_numbers", "multiply 6 by 7", "42"),
    ("math.square", "square 12", "144"),
    ("reverse_text", "reverse the text: hello", "olleh"),
    (
        "count_words",
        "count the words: apples pears plums figs",
        "4",
    ),
    ("shout", "shout: hello there", "HELLO THERE"),
    (
        "celsius_to_fahrenheit",
        "convert 20 celsius to fahrenheit",
        "68",
    ),
    (
        "fahrenheit_to_celsius",
        "convert 68 fahrenheit to celsius",
        "20",
    ),
    ("km_to_miles", "convert 10 km to miles", "6.2"),
    (
        "city_time_zone",
        "What is the time zone of Tokyo?",
        "Asia/Tokyo",
    ),
    ("pick_color", "pick a colour for a happy mood", "yellow"),
    ("make_list", "make a list: eggs, milk and bread", "milk"),
    (
        "book_table",
        "book a table at Luigi on 2026-05-01 for 3 adults",
        "Luigi",
    ),
];

#[test]
fn every_demo_tool_in_every_format_with_the_mock_and_as_http_replies() {
    for model in [Model::Mock, Model::Http] {
        for p in Provider::ALL {
            for (tool, message, says) in CASES {
                let ctx = format!("{tool} / {} / http={}", p.id(), model == Model::Http);
                let mut d = Driver::new(message, p, model);
                d.finish();
                assert_eq!(d.called(), [tool], "{ctx}");
                assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 6], "{ctx}");
                assert!(
                    d.run.steps().iter().all(|s| s.status == StepStatus::Done),
                    "{ctx}: {:?}",
                    d.run.steps()
                );
                let answer = d.run.answer().unwrap();
                assert!(
                    answer.starts_with(&format!("{tool} says:")),
                    "{ctx}: {answer}"
                );
                assert!(answer.contains(says), "{ctx}: {answer}");
                // Step 3 says where the host found the call in this format's reply.
                assert!(
                    d.step_n(3).explanation.contains(provider::where_calls(p)),
                    "{ctx}: {}",
                    d.step_n(3).explanation
                );
                // Step 6 shows the exact message appended, then the model's reply.
                let s6 = d.step_n(6);
                assert!(s6.blocks.len() >= 2, "{ctx}");
                assert!(s6.blocks[0].label.contains("appended"), "{ctx}");
            }
        }
    }
}

#[test]
fn is_error_and_no_tool_fits_in_every_format() {
    for model in [Model::Mock, Model::Http] {
        for p in Provider::ALL {
            let mut d = Driver::new("What's the weather in Atlantis?", p, model);
            d.finish();
            assert_eq!(d.step_n(5).status, StepStatus::Failed, "{}", p.id());
            let answer = d.run.answer().unwrap();
            assert!(answer.contains("failed: city not found"), "{answer}");
            assert!(answer.contains("won't guess"), "{answer}");

            let mut d = Driver::new("Tell me a joke", p, model);
            d.finish();
            assert_eq!(d.numbers(), [1, 2, 3], "{}", p.id());
            assert!(d.called().is_empty());
            assert!(
                d.run
                    .answer()
                    .unwrap()
                    .contains("None of the 24 tools fits")
            );
        }
    }
}

#[test]
fn several_calls_in_one_turn_are_run_in_order_and_fed_back_together() {
    for model in [Model::Mock, Model::Http] {
        for p in Provider::ALL {
            let mut d = Driver::new("What's the weather in Paris and Austin?", p, model);
            d.finish();
            assert_eq!(d.called(), ["get_weather", "get_weather"], "{}", p.id());
            assert_eq!(d.numbers(), [1, 2, 3, 4, 5, 4, 5, 6], "{}", p.id());
            let answer = d.run.answer().unwrap();
            let (paris, austin) = (
                answer.find("Paris").unwrap(),
                answer.find("Austin").unwrap(),
            );
            assert!(paris < austin, "fed back in the model's order: {answer}");
            // One results turn with both outputs, in call order.
            let fed = d
                .run
                .turns()
                .iter()
                .find_map(|t| match t {
                    provider::Turn::Results(o) => Some(o.clone()),
                    _ => None,
                })
                .unwrap();
            assert_eq!(fed.len(), 2);
            assert_ne!(fed[0].call.id, fed[1].call.id);
            assert_eq!(fed[0].call.arguments["city"], "Paris");
        }
    }
    // Two different tools in one turn.
    let mut d = Driver::new(
        "What's the weather in Paris and the time zone of Tokyo?",
        Provider::Anthropic,
        Model::Mock,
    );
    d.finish();
    assert_eq!(d.called(), ["get_weather", "city_time_zone"]);
}

/// Drives a loop to step 3 (the model's turn), with the mock's tools listed.
fn at_step_3(p: Provider) -> Driver {
    let mut d = Driver::new("What's the weather in Austin?", p, Model::Http);
    while d.run.next() != Action::ModelTurn {
        assert!(d.step());
    }
    d
}

#[test]
fn an_http_error_is_a_failed_step_3_and_the_loop_can_ask_again() {
    let mut d = at_step_3(Provider::Anthropic);
    let head = d.head();
    let body = json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
    d.run.model_http_reply(401, &body.to_string(), &head);
    let s3 = d.step_n(3);
    assert_eq!(s3.status, StepStatus::Failed);
    assert!(
        s3.explanation
            .contains("HTTP 401: the provider returned an error: invalid x-api-key"),
        "{}",
        s3.explanation
    );
    assert!(s3.explanation.contains("check the API key"));
    assert!(
        s3.blocks
            .iter()
            .any(|b| b.json.contains("authentication_error"))
    );
    // Nothing lost: the model is asked again and the loop completes.
    assert_eq!(d.run.next(), Action::ModelTurn);
    d.finish();
    assert_eq!(d.numbers(), [1, 2, 3, 3, 4, 5, 6]);
    assert!(d.run.answer().unwrap().contains("Austin: 91F"));

    // A rate limit, and a body that is not JSON at all.
    let mut d = at_step_3(Provider::OpenAiChat);
    let head = d.head();
    d.run
        .model_http_reply(429, r#"{"error":{"message":"Rate limit reached"}}"#, &head);
    assert!(d.step_n(3).explanation.contains("rate limit"));
    d.run
        .model_http_reply(502, "<html>Bad gateway</html>", &head);
    assert!(d.step_n(3).explanation.contains("<html>Bad gateway</html>"));
    d.run.model_http_reply(200, "not json", &head);
    assert!(d.step_n(3).explanation.contains("the body is not JSON"));
    assert_eq!(d.run.next(), Action::ModelTurn);
}

#[test]
fn a_malformed_arguments_string_and_an_unknown_tool_are_host_errors() {
    for p in [Provider::OpenAiChat, Provider::OpenAiResponses] {
        let mut d = at_step_3(p);
        let head = d.head();
        let body = if p == Provider::OpenAiChat {
            json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                "tool_calls": [{"id": "call_x", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Austin\""}}]},
                "finish_reason": "tool_calls"}]})
        } else {
            json!({"output": [{"type": "function_call", "call_id": "call_x", "name": "get_weather", "arguments": "{\"city\": \"Austin\""}]})
        };
        d.run.model_http_reply(200, &body.to_string(), &head);
        let s3 = d.step_n(3);
        assert_eq!(s3.status, StepStatus::Failed);
        assert!(
            s3.explanation.contains("are not valid JSON"),
            "{}",
            s3.explanation
        );
        assert!(s3.explanation.contains("no tools/call was sent"));
        assert_eq!(d.run.next(), Action::ModelTurn, "{}", p.id());
    }
    let mut d = at_step_3(Provider::Anthropic);
    let head = d.head();
    let body = json!({"content": [{"type": "tool_use", "id": "t1", "name": "launch_rockets", "input": {}}], "stop_reason": "tool_use"});
    d.run.model_http_reply(200, &body.to_string(), &head);
    assert!(
        d.step_n(3)
            .explanation
            .contains("\"launch_rockets\", which is not one of the tools")
    );
}

#[test]
fn an_unreachable_server_says_cors_or_down_and_ollama_origins() {
    let mut d = at_step_3(Provider::Ollama);
    let head = d.head();
    d.run
        .model_unreachable("TypeError: Failed to fetch", &head, "http://127.0.0.1:8080");
    let s3 = d.step_n(3);
    assert_eq!(s3.status, StepStatus::Failed);
    assert!(s3.explanation.contains("CORS"));
    assert!(
        s3.explanation
            .contains("OLLAMA_ORIGINS=http://127.0.0.1:8080 ollama serve")
    );
    assert_eq!(d.run.next(), Action::ModelTurn);
}

#[test]
fn a_real_reply_says_where_the_host_found_the_call() {
    let mut d = at_step_3(Provider::OpenAiChat);
    let (body, head) = (d.http_body(), d.head());
    d.run.model_http_reply(200, &body, &head);
    let s3 = d.step_n(3);
    assert!(
        s3.explanation.contains("choices[0].message.tool_calls[]"),
        "{}",
        s3.explanation
    );
    assert!(s3.explanation.contains("get_weather {\"city\":\"Austin\"}"));
    assert_eq!(s3.blocks[0].label, "→ HTTP request (key masked)");
    assert_eq!(MAX_ROUNDS, 5);
    assert_eq!(d.run.rounds(), 1);
}

#[test]
fn endpoints_headers_and_masking() {
    let e = endpoint(Provider::Anthropic, "https://api.anthropic.com/", "claude");
    assert_eq!(e.url, "https://api.anthropic.com/v1/messages");
    assert!(
        e.headers
            .contains(&("anthropic-version", "2023-06-01".into()))
    );
    assert!(
        e.headers
            .contains(&("anthropic-dangerous-direct-browser-access", "true".into()))
    );
    assert_eq!(
        endpoint(Provider::OpenAiChat, "http://localhost:1234/v1", "m").url,
        "http://localhost:1234/v1/chat/completions"
    );
    assert_eq!(
        endpoint(Provider::OpenAiResponses, "https://api.openai.com", "m").url,
        "https://api.openai.com/v1/responses"
    );
    assert_eq!(
        endpoint(Provider::Gemini, "http://h/gemini", "gemini-2.5-flash").url,
        "http://h/gemini/v1beta/models/gemini-2.5-flash:generateContent"
    );
    assert_eq!(
        endpoint(Provider::Gemini, "http://h", "a/b c").url,
        "http://h/v1beta/models/a%2Fb%20c:generateContent"
    );
    assert_eq!(
        endpoint(Provider::Ollama, "http://localhost:11434", "llama3.2").url,
        "http://localhost:11434/api/chat"
    );
    let key = "sk-test-0123456789abcd";
    assert_eq!(
        provider::key_header(Provider::OpenAiChat, key),
        Some(("authorization", format!("Bearer {key}")))
    );
    assert_eq!(
        provider::key_header(Provider::Gemini, key).unwrap().0,
        "x-goog-api-key"
    );
    assert_eq!(provider::key_header(Provider::Anthropic, "  "), None);
    assert_eq!(provider::key_header(Provider::Ollama, key), None);
    assert_eq!(mask_key(key), "••••abcd");
    assert_eq!(mask_key("short"), "••••");
    for p in Provider::ALL {
        let shown = shown_request(p, &endpoint(p, "http://h", "m"), key).to_string();
        assert!(!shown.contains(key), "{shown}");
        assert!(!shown.contains("0123456789"), "{shown}");
    }
}
