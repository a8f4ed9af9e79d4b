//! Golden tests for the provider formats, both directions, built from the providers'
//! documented shapes: tools out, calls in, results out; name mapping with collisions;
//! schema adaptation. Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::{CallToolResult, ContentBlock, Tool};
use mcpg_host::provider::{
    HostError, ModelTurn, NameMap, NameRules, Provider, RequestOptions, ResultView, ToolCall,
    ToolOutput, Turn, adapt_schema, build_request, parse_reply, reply_for, result_messages,
    shape_tools,
};
use serde_json::{Value, json};

fn weather() -> Tool {
    serde_json::from_value(json!({
        "name": "get_weather",
        "description": "Current weather for a city",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    }))
    .unwrap()
}

fn tool(name: &str, schema: Value) -> Tool {
    serde_json::from_value(json!({"name": name, "description": "d", "inputSchema": schema}))
        .unwrap()
}

fn call(id: &str, name: &str, args: Value) -> ToolCall {
    ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: args.as_object().cloned().unwrap(),
    }
}

fn opts(model: &str) -> RequestOptions {
    RequestOptions {
        model: model.into(),
        system: Some("Be brief.".into()),
        ..Default::default()
    }
}

#[test]
fn tools_out_in_every_shape() {
    let tools = [weather()];
    let schema =
        json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]});
    let expect = [
        (
            Provider::Anthropic,
            json!([{"name": "get_weather", "description": "Current weather for a city", "input_schema": schema}]),
        ),
        (
            Provider::OpenAiChat,
            json!([{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": schema}}]),
        ),
        (
            Provider::OpenAiResponses,
            json!([{"type": "function", "name": "get_weather", "description": "Current weather for a city", "parameters": schema, "strict": false}]),
        ),
        (
            Provider::Gemini,
            json!([{"functionDeclarations": [{"name": "get_weather", "description": "Current weather for a city", "parameters": schema}]}]),
        ),
        (
            Provider::Ollama,
            json!([{"type": "function", "function": {"name": "get_weather", "description": "Current weather for a city", "parameters": schema}}]),
        ),
    ];
    for (p, want) in expect {
        let shaped = shape_tools(p, &tools, false);
        assert_eq!(shaped.tools, want, "{p:?}");
        assert!(
            shaped.schema_changes.is_empty() && shaped.names.changes().is_empty(),
            "{p:?}"
        );
    }
}

#[test]
fn full_requests_carry_the_conversation() {
    let tools = [weather()];
    let turns = vec![
        Turn::User("What's the weather in Austin?".into()),
        Turn::Model(ModelTurn::ToolCalls {
            text: None,
            calls: vec![call("c1", "get_weather", json!({"city": "Austin"}))],
        }),
        Turn::Results(vec![ToolOutput {
            call: call("c1", "get_weather", json!({"city": "Austin"})),
            result: ResultView::Result(CallToolResult::text("Austin: 91F, sunny")),
        }]),
    ];
    let a = build_request(
        Provider::Anthropic,
        &opts("claude-x"),
        &turns,
        &shape_tools(Provider::Anthropic, &tools, false),
    );
    assert_eq!(a["system"], "Be brief.");
    assert_eq!(a["max_tokens"], 1024);
    assert_eq!(
        a["messages"],
        json!([
            {"role": "user", "content": "What's the weather in Austin?"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "get_weather", "input": {"city": "Austin"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "Austin: 91F, sunny"}]}]}
        ])
    );
    let o = build_request(
        Provider::OpenAiChat,
        &opts("gpt-x"),
        &turns,
        &shape_tools(Provider::OpenAiChat, &tools, false),
    );
    assert_eq!(
        o["messages"],
        json!([
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "What's the weather in Austin?"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Austin\"}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": "Austin: 91F, sunny"}
        ])
    );
    let r = build_request(
        Provider::OpenAiResponses,
        &opts("gpt-x"),
        &turns,
        &shape_tools(Provider::OpenAiResponses, &tools, false),
    );
    assert_eq!(r["instructions"], "Be brief.");
    assert_eq!(
        r["input"],
        json!([
            {"role": "user", "content": "What's the weather in Austin?"},
            {"type": "function_call", "call_id": "c1", "name": "get_weather", "arguments": "{\"city\":\"Austin\"}"},
            {"type": "function_call_output", "call_id": "c1", "output": "Austin: 91F, sunny"}
        ])
    );
    let g = build_request(
        Provider::Gemini,
        &opts("gemini-x"),
        &turns,
        &shape_tools(Provider::Gemini, &tools, false),
    );
    assert_eq!(
        g["systemInstruction"],
        json!({"parts": [{"text": "Be brief."}]})
    );
    assert_eq!(
        g["contents"],
        json!([
            {"role": "user", "parts": [{"text": "What's the weather in Austin?"}]},
            {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "get_weather", "args": {"city": "Austin"}}}]},
            {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "get_weather", "response": {"output": "Austin: 91F, sunny"}}}]}
        ])
    );
    let l = build_request(
        Provider::Ollama,
        &opts("llama3.2"),
        &turns,
        &shape_tools(Provider::Ollama, &tools, false),
    );
    assert_eq!(l["stream"], false);
    assert_eq!(
        l["messages"],
        json!([
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "What's the weather in Austin?"},
            {"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "get_weather", "arguments": {"city": "Austin"}}}]},
            {"role": "tool", "tool_name": "get_weather", "content": "Austin: 91F, sunny"}
        ])
    );
}

/// Documented reply shapes with two parallel calls.
fn parallel_replies() -> Vec<(Provider, Value)> {
    vec![
        (
            Provider::Anthropic,
            json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "stop_reason": "tool_use",
            "content": [{"type": "text", "text": "Checking both."},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Austin"}},
                {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Paris"}}]}),
        ),
        (
            Provider::OpenAiChat,
            json!({"id": "chatcmpl-1", "object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
            "message": {"role": "assistant", "content": "Checking both.", "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Austin\"}"}},
                {"id": "call_2", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]}}]}),
        ),
        (
            Provider::OpenAiResponses,
            json!({"id": "resp_1", "object": "response", "status": "completed", "output": [
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking both."}]},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather", "arguments": "{\"city\":\"Austin\"}"},
            {"type": "function_call", "id": "fc_2", "call_id": "call_2", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}]}),
        ),
        (
            Provider::Gemini,
            json!({"candidates": [{"finishReason": "STOP", "content": {"role": "model", "parts": [
            {"text": "Checking both."},
            {"functionCall": {"id": "g1", "name": "get_weather", "args": {"city": "Austin"}}},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]}}]}),
        ),
        (
            Provider::Ollama,
            json!({"model": "llama3.2", "done": true, "message": {"role": "assistant", "content": "Checking both.", "tool_calls": [
            {"function": {"name": "get_weather", "arguments": {"city": "Austin"}}},
            {"function": {"name": "get_weather", "arguments": {"city": "Paris"}}}]}}),
        ),
    ]
}

#[test]
fn calls_in_from_every_shape_including_parallel() {
    for (p, reply) in parallel_replies() {
        let shaped = shape_tools(p, &[weather()], false);
        let turn = parse_reply(p, &reply, &shaped.names).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let ModelTurn::ToolCalls { text, calls } = turn else {
            panic!("{p:?}: no calls")
        };
        assert_eq!(text.as_deref(), Some("Checking both."), "{p:?}");
        let got: Vec<(&str, &Value)> = calls
            .iter()
            .map(|c| (c.name.as_str(), &c.arguments["city"]))
            .collect();
        assert_eq!(
            got,
            vec![
                ("get_weather", &json!("Austin")),
                ("get_weather", &json!("Paris"))
            ],
            "{p:?}"
        );
        assert!(
            calls.iter().all(|c| !c.id.is_empty()),
            "{p:?}: every call gets an id"
        );
        assert_ne!(calls[0].id, calls[1].id, "{p:?}");
    }
}

#[test]
fn malformed_replies_are_host_errors() {
    let names = shape_tools(Provider::OpenAiChat, &[weather()], false).names;
    let bad_args = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "call_9", "type": "function", "function": {"name": "get_weather", "arguments": "{city: Austin"}}]}}]});
    let e = parse_reply(Provider::OpenAiChat, &bad_args, &names).unwrap_err();
    assert!(
        matches!(&e, HostError::BadArguments { call_id, raw, .. } if call_id == "call_9" && raw == "{city: Austin"),
        "{e}"
    );
    assert!(e.to_string().contains("not valid JSON"));
    let unknown = json!({"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "rm_rf", "arguments": "{}"}}]}}]});
    assert_eq!(
        parse_reply(Provider::OpenAiChat, &unknown, &names).unwrap_err(),
        HostError::UnknownTool("rm_rf".into())
    );
    for p in Provider::ALL {
        let names = shape_tools(p, &[weather()], false).names;
        assert!(
            matches!(
                parse_reply(p, &json!({"nothing": true}), &names),
                Err(HostError::Shape { .. })
            ),
            "{p:?}"
        );
    }
    let oai = json!({"error": {"message": "Incorrect API key provided", "type": "invalid_request_error"}});
    for p in [
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
    ] {
        let names = shape_tools(p, &[weather()], false).names;
        assert_eq!(
            parse_reply(p, &oai, &names).unwrap_err(),
            HostError::ProviderError("Incorrect API key provided".into()),
            "{p:?}"
        );
    }
    let err = json!({"type": "error", "error": {"type": "authentication_error", "message": "invalid x-api-key"}});
    assert_eq!(
        parse_reply(Provider::Anthropic, &err, &names).unwrap_err(),
        HostError::ProviderError("invalid x-api-key".into())
    );
}

fn outputs() -> Vec<ToolOutput> {
    let mut img = CallToolResult::text("Icon:");
    img.content.push(ContentBlock::from_value(
        json!({"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}),
    ));
    vec![
        ToolOutput {
            call: call("c1", "get_weather_icon", json!({"city": "Tokyo"})),
            result: ResultView::Result(img),
        },
        ToolOutput {
            call: call("c2", "get_weather", json!({"city": "Atlantis"})),
            result: ResultView::Result(CallToolResult::tool_error("city not found: Atlantis")),
        },
        ToolOutput {
            call: call("c3", "nope", json!({})),
            result: ResultView::ProtocolError {
                code: -32602,
                message: "Unknown tool: nope".into(),
            },
        },
    ]
}

#[test]
fn results_out_in_every_shape() {
    let tools = [
        tool("get_weather_icon", json!({"type": "object"})),
        weather(),
        tool("nope", json!({"type": "object"})),
    ];
    let names = |p: Provider| shape_tools(p, &tools, false).names;
    assert_eq!(
        result_messages(Provider::Anthropic, &outputs(), &names(Provider::Anthropic)),
        vec![json!({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "Icon:"}, {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]},
            {"type": "tool_result", "tool_use_id": "c2", "content": [{"type": "text", "text": "city not found: Atlantis"}], "is_error": true},
            {"type": "tool_result", "tool_use_id": "c3", "content": [{"type": "text", "text": "Error: the server rejected the call (JSON-RPC error -32602: Unknown tool: nope)"}], "is_error": true}
        ]})]
    );
    assert_eq!(
        result_messages(
            Provider::OpenAiChat,
            &outputs(),
            &names(Provider::OpenAiChat)
        ),
        vec![
            json!({"role": "tool", "tool_call_id": "c1", "content": "Icon:\n[image image/png, 8 bytes]"}),
            json!({"role": "tool", "tool_call_id": "c2", "content": "Error: city not found: Atlantis"}),
            json!({"role": "tool", "tool_call_id": "c3", "content": "Error: the server rejected the call (JSON-RPC error -32602: Unknown tool: nope)"}),
        ]
    );
    let r = result_messages(
        Provider::OpenAiResponses,
        &outputs(),
        &names(Provider::OpenAiResponses),
    );
    assert_eq!(
        r[0],
        json!({"type": "function_call_output", "call_id": "c1", "output": [{"type": "input_text", "text": "Icon:"}, {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}]})
    );
    assert_eq!(
        r[1],
        json!({"type": "function_call_output", "call_id": "c2", "output": "Error: city not found: Atlantis"})
    );
    assert_eq!(
        result_messages(Provider::Gemini, &outputs(), &names(Provider::Gemini)),
        vec![json!({"role": "user", "parts": [
            {"functionResponse": {"id": "c1", "name": "get_weather_icon", "response": {"output": "Icon:\n[image image/png, 8 bytes]"}}},
            {"functionResponse": {"id": "c2", "name": "get_weather", "response": {"error": "city not found: Atlantis"}}},
            {"functionResponse": {"id": "c3", "name": "nope", "response": {"error": "Error: the server rejected the call (JSON-RPC error -32602: Unknown tool: nope)"}}}
        ]})]
    );
    assert_eq!(
        result_messages(Provider::Ollama, &outputs(), &names(Provider::Ollama))[1],
        json!({"role": "tool", "tool_name": "get_weather", "content": "Error: city not found: Atlantis"})
    );
}

#[test]
fn structured_only_results_are_mirrored_as_text() {
    let r = CallToolResult {
        structured_content: Some(json!({"temp": 91})),
        ..Default::default()
    };
    let out = vec![ToolOutput {
        call: call("c", "t", json!({})),
        result: ResultView::Result(r),
    }];
    let names = NameMap::build(["t"], NameRules::OPENAI_ANTHROPIC);
    assert_eq!(
        result_messages(Provider::OpenAiChat, &out, &names)[0]["content"],
        "{\"temp\":91}"
    );
}

#[test]
fn names_are_mapped_reversibly_with_collisions() {
    let names = [
        "weather.get",
        "weather_get",
        "weather:get",
        &"x".repeat(70),
        "2fa_check",
    ];
    let m = NameMap::build(names, NameRules::OPENAI_ANTHROPIC);
    assert_eq!(
        m.to_provider("weather_get"),
        Some("weather_get"),
        "valid names keep priority"
    );
    assert_eq!(m.to_provider("weather.get"), Some("weather_get_2"));
    assert_eq!(m.to_provider("weather:get"), Some("weather_get_3"));
    let long = m.to_provider(&"x".repeat(70)).unwrap();
    assert_eq!(long.len(), 64);
    assert_eq!(m.to_provider("2fa_check"), Some("2fa_check"));
    for n in names {
        let p = m.to_provider(n).unwrap();
        assert!(NameRules::OPENAI_ANTHROPIC.accepts(p), "{p}");
        assert_eq!(m.to_mcp(p), Some(n), "reversible");
    }
    assert_eq!(m.changes().len(), 3);
    assert!(
        m.changes()[1].reason.contains("collision"),
        "{:?}",
        m.changes()
    );

    let g = NameMap::build(names, NameRules::GEMINI);
    assert_eq!(
        g.to_provider("weather.get"),
        Some("weather.get"),
        "Gemini allows dots"
    );
    assert_eq!(g.to_provider("weather:get"), Some("weather:get"));
    assert_eq!(
        g.to_provider("2fa_check"),
        Some("_2fa_check"),
        "Gemini needs a letter or _ first"
    );
    // The Gemini API's limit is 64: a longer name is shortened, and maps back.
    let long = "look_up_the_current_weather_for_a_city_and_return_it_in_celsius_now";
    let g = NameMap::build([long], NameRules::GEMINI);
    let sent = g.to_provider(long).unwrap();
    assert!(
        sent.len() <= 64 && NameRules::GEMINI.accepts(sent),
        "{sent}"
    );
    assert_eq!(g.to_mcp(sent), Some(long));
}

#[test]
fn strict_mode_schema_adaptation() {
    let schema = json!({"type": "object", "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "default": 3},
        "party": {"type": "object", "properties": {"adults": {"type": "integer"}}, "required": ["adults"]}
    }, "required": ["city"], "allOf": [{"required": ["city"]}]});
    let (out, changes) = adapt_schema(&schema, Provider::OpenAiChat, true);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {
            "city": {"type": "string"},
            "days": {"type": ["integer", "null"], "default": 3},
            "party": {"type": ["object", "null"], "properties": {"adults": {"type": "integer"}}, "required": ["adults"], "additionalProperties": false}
        }, "required": ["city", "days", "party"], "additionalProperties": false})
    );
    let whats: Vec<&str> = changes.iter().map(|c| c.what.as_str()).collect();
    assert!(whats.iter().any(|w| w.contains("allOf")), "{whats:?}");
    assert!(whats.iter().any(|w| w.contains("days, party")), "{whats:?}");
    assert!(
        changes.iter().any(|c| c.path == "/properties/party"),
        "{changes:?}"
    );
    let (same, none) = adapt_schema(&schema, Provider::OpenAiChat, false);
    assert_eq!(
        (same, none.len()),
        (schema.clone(), 0),
        "non-strict leaves the schema alone"
    );
}

#[test]
fn gemini_schema_adaptation() {
    let schema = json!({"type": "object", "additionalProperties": false, "$schema": "https://json-schema.org/draft/2020-12/schema", "properties": {
        "unit": {"const": "F"},
        "note": {"type": ["string", "null"]},
        "level": {"type": "integer", "enum": [1, 2, 3]},
        "mode": {"oneOf": [{"type": "string"}, {"type": "number"}]}
    }});
    let (out, changes) = adapt_schema(&schema, Provider::Gemini, false);
    assert_eq!(
        out,
        json!({"type": "object", "properties": {
            "unit": {"enum": ["F"]},
            "note": {"type": "string", "nullable": true},
            "level": {"type": "integer"},
            "mode": {"anyOf": [{"type": "string"}, {"type": "number"}]}
        }})
    );
    assert_eq!(changes.len(), 5, "{changes:#?}");
    let shaped = shape_tools(Provider::Gemini, &[tool("t", schema)], false);
    assert!(shaped.schema_changes.iter().all(|c| c.tool == "t"));
}

#[test]
fn mock_replies_read_back_to_the_same_turn() {
    let tools = [weather(), tool("weather.alerts", json!({"type": "object"}))];
    let turns = [
        ModelTurn::Answer {
            text: "Austin is 91F and sunny.".into(),
        },
        ModelTurn::ToolCalls {
            text: None,
            calls: vec![
                call("call_1", "get_weather", json!({"city": "Austin"})),
                call("call_2", "weather.alerts", json!({})),
            ],
        },
    ];
    for p in Provider::ALL {
        let shaped = shape_tools(p, &tools, false);
        for t in &turns {
            let reply = reply_for(p, &opts("m"), t, &shaped.names);
            let back = parse_reply(p, &reply, &shaped.names).unwrap();
            // Ollama's calls carry no ids: the host numbers them, so compare the rest.
            let strip = |t: &ModelTurn| match t {
                ModelTurn::ToolCalls { text, calls } if p == Provider::Ollama => {
                    ModelTurn::ToolCalls {
                        text: text.clone(),
                        calls: calls
                            .iter()
                            .map(|c| ToolCall {
                                id: String::new(),
                                ..c.clone()
                            })
                            .collect(),
                    }
                }
                other => other.clone(),
            };
            assert_eq!(strip(&back), strip(t), "{p:?}: {reply}");
        }
    }
}
