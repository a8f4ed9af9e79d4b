//! `sampling/createMessage` read, answered by the mock, rejected (code -1), and sent
//! through a real model's request and reply in all five provider formats.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[cfg(not(target_arch = "wasm32"))]
use super::spec;

use mcpg_host::asks::{self, Ask, AskError, MOCK_MODEL, Reply, SamplingAsk};
use mcpg_host::provider::Provider;
use serde_json::{Value, json};

fn ask(params: Value) -> SamplingAsk {
    match asks::parse("sampling/createMessage", Some(&params)).unwrap() {
        Ask::Sampling(s) => s,
        other => panic!("{other:?}"),
    }
}

fn simple() -> Value {
    json!({
        "messages": [{"role": "user", "content": {"type": "text", "text": "Summarise: the cat sat."}}],
        "systemPrompt": "Be brief.",
        "modelPreferences": {"hints": [{"name": "claude"}], "speedPriority": 0.5},
        "maxTokens": 100,
        "temperature": 0.2,
        "stopSequences": ["END"],
        "includeContext": "none"
    })
}

/// 2025-11-25: tools and toolChoice, and a conversation with a tool use and result.
fn with_tools() -> Value {
    json!({
        "messages": [
            {"role": "user", "content": {"type": "text", "text": "Weather in Paris?"}},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "tu1", "name": "get_weather", "input": {"city": "Paris"}}]},
            {"role": "user", "content": [{"type": "tool_result", "toolUseId": "tu1", "content": [{"type": "text", "text": "18 C"}]}]}
        ],
        "maxTokens": 50,
        "tools": [{"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}],
        "toolChoice": {"mode": "required"}
    })
}

#[test]
fn reads_every_field() {
    let a = ask(simple());
    assert_eq!(a.messages.len(), 1);
    assert_eq!(a.messages[0].role, "user");
    assert_eq!(a.last_user_text(), "Summarise: the cat sat.");
    assert_eq!(a.system_prompt.as_deref(), Some("Be brief."));
    assert_eq!(a.max_tokens, 100);
    assert_eq!(a.temperature, Some(0.2));
    assert_eq!(a.stop_sequences, ["END"]);
    assert_eq!(a.include_context.as_deref(), Some("none"));
    assert!(a.model_preferences.unwrap()["hints"].is_array());
    assert_eq!(a.raw, simple());
    let t = ask(with_tools());
    assert_eq!(t.tools.len(), 1);
    assert_eq!(t.tools[0].name, "get_weather");
    assert_eq!(t.tool_choice, Some(json!({"mode": "required"})));
    assert_eq!(t.messages[1].content[0]["type"], "tool_use");
}

#[test]
fn bad_requests_name_the_field() {
    let p = |v: Value| asks::parse("sampling/createMessage", Some(&v)).unwrap_err();
    assert_eq!(
        p(json!({"messages": []})),
        AskError::Missing("params.maxTokens".into())
    );
    assert_eq!(
        p(json!({"maxTokens": 5})),
        AskError::Missing("params.messages".into())
    );
    assert!(matches!(
        p(json!({"maxTokens": 5, "messages": [{"role": 3, "content": {}}]})),
        AskError::Invalid { field, .. } if field == "params.messages[0].role"
    ));
    assert!(matches!(
        p(json!({"maxTokens": -1, "messages": []})),
        AskError::Invalid { field, .. } if field == "params.maxTokens"
    ));
    assert_eq!(
        asks::parse("sampling/createMessage", None).unwrap_err(),
        AskError::Missing("params".into())
    );
    assert_eq!(
        asks::parse("tools/call", None).unwrap_err(),
        AskError::UnknownMethod("tools/call".into())
    );
    assert_eq!(p(json!({"maxTokens": 5})).to_rpc_error().code, -32602);
}

#[test]
fn the_mock_is_deterministic_and_says_so() {
    let a = ask(simple());
    let one = asks::mock_sample(&a);
    assert_eq!(one, asks::mock_sample(&a));
    assert_eq!(one.model, MOCK_MODEL);
    assert_eq!(one.role, "assistant");
    let text = one.content["text"].as_str().unwrap();
    assert!(text.contains("mock"), "{text}");
    assert!(text.contains("Summarise: the cat sat."), "{text}");
    assert_eq!(one.stop_reason.as_deref(), Some("endTurn"));
    // A smaller budget is respected and said.
    let mut tight = simple();
    tight["maxTokens"] = json!(3);
    let short = asks::mock_sample(&ask(tight));
    assert_eq!(
        short.content["text"].as_str().unwrap().split(' ').count(),
        3
    );
    assert_eq!(short.stop_reason.as_deref(), Some("maxTokens"));
}

#[test]
fn replies_are_the_exact_results() {
    let s = asks::mock_sample(&ask(simple()));
    let r = Reply::Sampled(s.clone()).to_result().unwrap();
    assert_eq!(r["role"], "assistant");
    assert_eq!(r["model"], MOCK_MODEL);
    assert_eq!(r["content"], s.content);
    assert_eq!(r["stopReason"], "endTurn");
    let e = Reply::SamplingRejected.to_result().unwrap_err();
    assert_eq!(
        (e.code, e.message.as_str()),
        (-1, "User rejected sampling request")
    );
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn requests_and_results_fit_every_revision() {
    for rev in spec::REVISIONS {
        let Some(schema) = spec::schema(rev) else {
            return;
        };
        // The request the tests read is one the revision allows…
        let req = |p: Value| json!({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": p});
        let def = if rev == "2026-07-28" {
            "CreateMessageRequestParams"
        } else {
            "CreateMessageRequest"
        };
        let wrap = |p: Value| if rev == "2026-07-28" { p } else { req(p) };
        spec::check(&schema, def, &wrap(simple()));
        if rev >= "2025-11-25" {
            spec::check(&schema, def, &wrap(with_tools()));
        }
        // …and the answer is the revision's result.
        let result = Reply::Sampled(asks::mock_sample(&ask(simple())))
            .to_result()
            .unwrap();
        spec::check(&schema, "CreateMessageResult", &result);
    }
}

/// A reply in each provider's shape, with the text "Paris." and the model name.
fn text_reply(p: Provider) -> Value {
    match p {
        Provider::Anthropic => {
            json!({"model": "claude-x", "content": [{"type": "text", "text": "Paris."}], "stop_reason": "end_turn"})
        }
        Provider::OpenAiChat => {
            json!({"model": "gpt-x", "choices": [{"message": {"role": "assistant", "content": "Paris."}, "finish_reason": "stop"}]})
        }
        Provider::OpenAiResponses => {
            json!({"model": "gpt-x", "output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Paris."}]}]})
        }
        Provider::Gemini => {
            json!({"modelVersion": "gemini-x", "candidates": [{"content": {"role": "model", "parts": [{"text": "Paris."}]}}]})
        }
        Provider::Ollama => {
            json!({"model": "llama-x", "message": {"role": "assistant", "content": "Paris."}, "done": true})
        }
    }
}

#[test]
fn real_model_request_and_reply_in_every_provider_format() {
    let a = ask(simple());
    for p in Provider::ALL {
        let body = asks::sampling_request(p, &a, "the-model");
        let text = body.to_string();
        assert!(text.contains("Summarise: the cat sat."), "{p:?}: {text}");
        assert!(text.contains("Be brief."), "{p:?}: {text}");
        assert!(
            text.contains("100"),
            "{p:?} carries the token budget: {text}"
        );
        assert!(
            text.contains("0.2"),
            "{p:?} carries the temperature: {text}"
        );
        assert!(
            body.get("tools").is_none(),
            "{p:?}: no tools offered, none sent"
        );
        if p != Provider::Gemini {
            assert_eq!(body["model"], "the-model", "{p:?}");
        }
        let s = asks::sampled_from_reply(p, &a, &text_reply(p)).unwrap();
        assert_eq!(
            s.content,
            json!({"type": "text", "text": "Paris."}),
            "{p:?}"
        );
        assert!(s.model.ends_with("-x"), "{p:?}: {}", s.model);
        assert_eq!(s.stop_reason.as_deref(), Some("endTurn"));
        let err = asks::sampled_from_reply(p, &a, &json!({"error": {"message": "bad key"}}));
        assert!(err.is_err(), "{p:?}");
    }
}

#[test]
fn tools_in_sampling_reach_the_model_and_come_back_as_tool_use() {
    let a = ask(with_tools());
    for p in Provider::ALL {
        let body = asks::sampling_request(p, &a, "m");
        let text = body.to_string();
        assert!(text.contains("get_weather"), "{p:?}: {text}");
        assert!(
            text.contains("18 C"),
            "{p:?} carries the tool result: {text}"
        );
        assert!(body.get("tools").is_some(), "{p:?}");
    }
    let body = asks::sampling_request(Provider::Anthropic, &a, "m");
    assert_eq!(body["tool_choice"], json!({"type": "any"}));
    let body = asks::sampling_request(Provider::OpenAiChat, &a, "m");
    assert_eq!(body["tool_choice"], "required");
    let body = asks::sampling_request(Provider::Gemini, &a, "m");
    assert_eq!(body["toolConfig"]["functionCallingConfig"]["mode"], "ANY");
    let reply = json!({"model": "claude-x", "stop_reason": "tool_use", "content": [
        {"type": "tool_use", "id": "tu2", "name": "get_weather", "input": {"city": "Lyon"}}]});
    let s = asks::sampled_from_reply(Provider::Anthropic, &a, &reply).unwrap();
    assert_eq!(
        s.content,
        json!({"type": "tool_use", "id": "tu2", "name": "get_weather", "input": {"city": "Lyon"}})
    );
    assert_eq!(s.stop_reason.as_deref(), Some("toolUse"));
}

#[test]
fn the_key_is_never_part_of_the_request() {
    // The body is built from the ask and the model name only; the key travels in
    // its own header, added at send time, and is masked wherever it is shown.
    use mcpg_host::provider::{default_base, endpoint, key_header, shown_request};
    let secret = "sk-SECRET-0123456789abcdef";
    let a = ask(simple());
    for p in Provider::ALL {
        let body = asks::sampling_request(p, &a, "m").to_string();
        let ep = endpoint(p, default_base(p), "m");
        assert!(!body.contains(secret) && !ep.url.contains(secret), "{p:?}");
        assert!(ep.headers.iter().all(|(_, v)| !v.contains(secret)), "{p:?}");
        assert!(
            !shown_request(p, &ep, secret).to_string().contains(secret),
            "{p:?}"
        );
        if let Some((_, v)) = key_header(p, secret) {
            assert!(v.contains(secret), "{p:?}: the key goes in its header only");
        }
    }
}

#[test]
fn a_reply_at_the_token_limit_says_max_tokens() {
    let a = ask(simple());
    let r = json!({"model": "gpt-x", "choices": [{"message": {"content": "Par"}, "finish_reason": "length"}]});
    let s = asks::sampled_from_reply(Provider::OpenAiChat, &a, &r).unwrap();
    assert_eq!(s.stop_reason.as_deref(), Some("maxTokens"));
}
