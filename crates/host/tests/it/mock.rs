//! The mock model: which tool it picks and how it fills arguments, on the demo
//! server's real tool list and on server-everything-like tools. Runs natively and in
//! headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::{CallToolResult, Tool};
use mcpg_host::MockModel;
use mcpg_host::provider::{ModelTurn, ResultView, ToolCall, ToolOutput, Turn};
use serde_json::{Value, json};

fn demo() -> Vec<Tool> {
    mcpg_demo::initial_tools()
}

/// The call the mock makes for `message`, as (name, arguments).
fn pick(message: &str, tools: &[Tool]) -> Option<(String, Value)> {
    let t = MockModel.respond(&[Turn::User(message.into())], tools);
    match t.turn {
        ModelTurn::ToolCalls { calls, .. } => {
            let c = &calls[0];
            Some((c.name.clone(), Value::Object(c.arguments.clone())))
        }
        ModelTurn::Answer { .. } => None,
    }
}

#[test]
fn weather_in_austin_is_the_seed_call() {
    let (name, args) = pick("What's the weather in Austin?", &demo()).unwrap();
    assert_eq!(name, "get_weather");
    assert_eq!(args, json!({"city": "Austin"}));
}

#[test]
fn lower_case_city_after_a_preposition() {
    let (name, args) = pick("weather in paris", &demo()).unwrap();
    assert_eq!(name, "get_weather");
    assert_eq!(args, json!({"city": "Paris"}));
}

#[test]
fn numbers_go_to_number_parameters() {
    let (name, args) = pick("add 2 and 3", &demo()).unwrap();
    assert_eq!(name, "add_numbers");
    assert_eq!(args, json!({"a": 2, "b": 3}));
    let (name, args) = pick("please multiply 2.5 by 4", &demo()).unwrap();
    assert_eq!(name, "multiply_numbers");
    assert_eq!(args, json!({"a": 2.5, "b": 4}));
}

#[test]
fn a_number_next_to_a_parameter_name_belongs_to_it() {
    let (name, args) = pick("count slowly to 3", &demo()).unwrap();
    assert_eq!(name, "count_slowly");
    assert_eq!(args, json!({"to": 3, "step_ms": 500}));
    let (name, args) = pick("forecast for Tokyo for 2 days", &demo()).unwrap();
    assert_eq!(name, "get_forecast");
    assert_eq!(args, json!({"city": "Tokyo", "days": 2}));
}

#[test]
fn defaults_fill_what_the_words_do_not() {
    let (name, args) = pick("forecast for Paris", &demo()).unwrap();
    assert_eq!(name, "get_forecast");
    assert_eq!(args, json!({"city": "Paris", "days": 3}));
}

#[test]
fn enum_values_mentioned_are_used() {
    let (name, args) = pick("read the note about pagination", &demo()).unwrap();
    assert_eq!(name, "read_note");
    assert_eq!(args, json!({"topic": "pagination"}));
    let (name, args) = pick("pick a colour for a calm mood", &demo()).unwrap();
    assert_eq!(name, "pick_color");
    assert_eq!(args, json!({"mood": "calm"}));
}

#[test]
fn free_text_and_quotes() {
    let (name, args) = pick("reverse the text hello world", &demo()).unwrap();
    assert_eq!(name, "reverse_text");
    assert_eq!(args, json!({"text": "hello world"}));
    let (name, args) = pick(r#"shout "quiet please""#, &demo()).unwrap();
    assert_eq!(name, "shout");
    assert_eq!(args, json!({"text": "quiet please"}));
}

#[test]
fn arrays_and_nested_objects() {
    let (name, args) = pick("make a list: eggs, milk and bread", &demo()).unwrap();
    assert_eq!(name, "make_list");
    assert_eq!(
        args,
        json!({"items": ["eggs", "milk", "bread"], "numbered": true})
    );
    let (name, args) = pick("book a table at Luigi on 2026-05-01 for 4 adults", &demo()).unwrap();
    assert_eq!(name, "book_table");
    assert_eq!(
        args,
        json!({"restaurant": "Luigi", "date": "2026-05-01", "party": {"adults": 4, "children": 0}})
    );
}

#[test]
fn tools_without_arguments() {
    let (name, args) = pick("say hello", &demo()).unwrap();
    assert_eq!(name, "say_hello");
    assert_eq!(args, json!({}));
}

#[test]
fn no_tool_fits_means_no_call() {
    let t = MockModel.respond(&[Turn::User("tell me a joke".into())], &demo());
    assert!(matches!(t.turn, ModelTurn::Answer { .. }), "{t:?}");
    assert!(t.why.contains("No tool"), "{}", t.why);
}

#[test]
fn a_missing_required_value_is_asked_for() {
    let t = MockModel.respond(&[Turn::User("what's the weather?".into())], &demo());
    let ModelTurn::Answer { text } = t.turn else {
        panic!("{t:?}")
    };
    assert!(text.contains("city"), "{text}");
}

#[test]
fn a_named_tool_is_called_even_if_unknown() {
    let (name, args) = pick("call no_such_tool please", &demo()).unwrap();
    assert_eq!(name, "no_such_tool");
    assert_eq!(args, json!({}));
}

#[test]
fn same_choice_every_time() {
    let a = MockModel.respond(&[Turn::User("weather in Austin".into())], &demo());
    let b = MockModel.respond(&[Turn::User("weather in Austin".into())], &demo());
    assert_eq!(a, b);
}

#[test]
fn server_everything_tools() {
    let tools: Vec<Tool> = [
        json!({"name": "echo", "description": "Echoes back the input string", "inputSchema": {"type": "object", "properties": {"message": {"type": "string", "description": "Message to echo"}}, "required": ["message"], "$schema": "http://json-schema.org/draft-07/schema#"}}),
        json!({"name": "get-sum", "description": "Returns the sum of two numbers", "inputSchema": {"type": "object", "properties": {"a": {"type": "number", "description": "First number"}, "b": {"type": "number", "description": "Second number"}}, "required": ["a", "b"]}}),
        json!({"name": "get-tiny-image", "description": "Returns a tiny MCP logo image.", "inputSchema": {"type": "object", "properties": {}}}),
    ]
    .into_iter()
    .map(|v| serde_json::from_value(v).unwrap())
    .collect();
    assert_eq!(
        pick("get the sum of 7 and 35", &tools),
        Some(("get-sum".into(), json!({"a": 7, "b": 35})))
    );
    assert_eq!(
        pick("show me the tiny image", &tools),
        Some(("get-tiny-image".into(), json!({})))
    );
    assert_eq!(
        pick("echo: hello there", &tools),
        Some(("echo".into(), json!({"message": "hello there"})))
    );
}

fn answer_after(result: ResultView) -> String {
    let call = ToolCall {
        id: "call_1".into(),
        name: "get_weather".into(),
        arguments: json!({"city": "Austin"}).as_object().cloned().unwrap(),
    };
    let turns = [
        Turn::User("weather in Austin".into()),
        Turn::Model(ModelTurn::ToolCalls {
            text: None,
            calls: vec![call.clone()],
        }),
        Turn::Results(vec![ToolOutput { call, result }]),
    ];
    match MockModel.respond(&turns, &demo()).turn {
        ModelTurn::Answer { text } => text,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_answer_comes_from_the_result_text() {
    let a = answer_after(ResultView::Result(CallToolResult::text(
        "Austin: 91F, sunny",
    )));
    assert_eq!(a, "get_weather says: Austin: 91F, sunny");
}

#[test]
fn after_is_error_it_says_the_tool_failed() {
    let a = answer_after(ResultView::Result(CallToolResult::tool_error(
        "city not found: Atlantis",
    )));
    assert!(a.contains("failed: city not found: Atlantis"), "{a}");
    assert!(!a.contains("°") && !a.contains("sunny"), "{a}");
}

#[test]
fn after_a_protocol_error_it_says_the_call_was_refused() {
    let a = answer_after(ResultView::ProtocolError {
        code: -32602,
        message: "Unknown tool: x".into(),
    });
    assert!(a.contains("refused") && a.contains("-32602"), "{a}");
}

/// Every call the mock makes for `message`, as (id, name, arguments).
fn calls(message: &str) -> Vec<(String, String, Value)> {
    match MockModel
        .respond(&[Turn::User(message.into())], &demo())
        .turn
    {
        ModelTurn::ToolCalls { calls, .. } => calls
            .into_iter()
            .map(|c| (c.id, c.name, Value::Object(c.arguments)))
            .collect(),
        ModelTurn::Answer { .. } => Vec::new(),
    }
}

#[test]
fn two_things_joined_by_and_make_two_calls() {
    assert_eq!(
        calls("What's the weather in Paris and Austin?"),
        [
            (
                "call_1".into(),
                "get_weather".into(),
                json!({"city": "Paris"})
            ),
            (
                "call_1_2".into(),
                "get_weather".into(),
                json!({"city": "Austin"})
            ),
        ]
    );
    let two = calls("weather in Paris and the time zone of Tokyo");
    let names: Vec<&str> = two.iter().map(|c| c.1.as_str()).collect();
    assert_eq!(names, ["get_weather", "city_time_zone"]);
    assert_eq!(two[1].2, json!({"city": "Tokyo"}));
}

#[test]
fn and_inside_one_request_stays_one_call() {
    // Both numbers belong to one call.
    assert_eq!(calls("add 2 and 3").len(), 1);
    // A list is one argument.
    assert_eq!(calls("make a list: eggs, milk and bread").len(), 1);
    // The second part gives no city: one call, for the city that was named.
    let one = calls("weather in Paris and tell me a joke");
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].2, json!({"city": "Paris"}));
}

#[test]
fn the_name_order_settles_a_tie() {
    assert_eq!(
        pick("convert 68 fahrenheit to celsius", &demo()).unwrap().0,
        "fahrenheit_to_celsius"
    );
    assert_eq!(
        pick("convert 20 celsius to fahrenheit", &demo()).unwrap().0,
        "celsius_to_fahrenheit"
    );
}
