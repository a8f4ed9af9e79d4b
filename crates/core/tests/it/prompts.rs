//! `prompts/get` and `completion/complete` in both generations, against scripted
//! servers: arguments, context, odd answers, capabilities, MRTR.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{Answer, ClientConfig, Event, OpError};
use mcpg_core::diag::Rule;
use mcpg_core::model::{CompletionReference, ContentBlock, JsonObject, Role};
use serde_json::{Value, json};
use support::{Scripted, answered, result, rules};

const VERSIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

fn object(v: Value) -> JsonObject {
    v.as_object().cloned().unwrap()
}

fn connected(version: &str, caps: Value) -> Scripted {
    let mut s = Scripted::new(ClientConfig::default());
    s.connect_with(version, caps);
    s
}

#[test]
fn a_prompt_is_got_with_its_arguments_in_both_generations() {
    for version in VERSIONS {
        let mut s = connected(version, json!({"prompts": {}}));
        let op = s
            .client
            .get_prompt(s.now, "review", object(json!({"language": "rust"})));
        s.drain();
        let (_, params) = s.last_request("prompts/get");
        let params = params.unwrap();
        assert_eq!(
            (&params["name"], &params["arguments"]),
            (&json!("review"), &json!({"language": "rust"}))
        );
        s.reply("prompts/get", result(version, json!({"description": "d", "messages": [
            {"role": "user", "content": {"type": "text", "text": "Review this"}},
            {"role": "assistant", "content": {"type": "resource", "resource": {"uri": "note://a", "text": "x"}}}
        ]})));
        let ev = s.take();
        assert_eq!(rules(&ev), [], "{ev:#?}");
        let Ok(Answer::Prompt(p)) = answered(&ev, op) else {
            panic!("{ev:#?}")
        };
        assert_eq!(p.messages[0].role, Role::User);
        assert!(matches!(&p.messages[0].content, ContentBlock::Text(t) if t.text == "Review this"));
        assert_eq!(p.messages[1].role, Role::Assistant);
        // No arguments: the member is left out.
        s.client.get_prompt(s.now, "plain", JsonObject::new());
        s.drain();
        assert!(
            s.last_request("prompts/get")
                .1
                .unwrap()
                .get("arguments")
                .is_none()
        );
    }
}

#[test]
fn odd_prompt_messages_are_diagnosed_and_an_unreadable_result_fails() {
    let mut s = connected("2025-03-26", json!({"prompts": {}}));
    let op = s.client.get_prompt(s.now, "p", JsonObject::new());
    s.drain();
    s.reply("prompts/get", json!({"messages": [
        {"role": "system", "content": {"type": "text", "text": "x"}},
        {"role": "user", "content": {"type": "hologram"}},
        {"role": "user", "content": {"type": "resource_link", "uri": "a://b", "name": "b"}},
        {"role": "user", "content": {"type": "resource", "resource": {"uri": "a://c", "blob": "%%"}}}
    ]}));
    let ev = s.take();
    assert_eq!(
        rules(&ev),
        [
            Rule::PromptShape,
            Rule::ContentShape,
            Rule::FieldNotInVersion,
            Rule::BlobNotBase64
        ]
    );
    assert!(matches!(answered(&ev, op), Ok(Answer::Prompt(p)) if p.messages.len() == 4));
    let op = s.client.get_prompt(s.now, "p", JsonObject::new());
    s.drain();
    s.reply(
        "prompts/get",
        json!({"messages": [{"content": {"type": "text", "text": "x"}}]}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::PromptShape]);
    assert!(matches!(answered(&ev, op), Err(OpError::Failed(_))));
}

#[test]
fn completions_carry_the_reference_the_argument_and_the_context() {
    for version in VERSIONS {
        let mut s = connected(version, json!({"prompts": {}, "completions": {}}));
        let reference = CompletionReference::Resource {
            uri: "weather://{city}/{day}".into(),
        };
        let op = s.client.complete(
            s.now,
            reference,
            ("day", "mo"),
            object(json!({"city": "Paris"})),
        );
        s.drain();
        let params = s.last_request("completion/complete").1.unwrap();
        assert_eq!(
            params["ref"],
            json!({"type": "ref/resource", "uri": "weather://{city}/{day}"})
        );
        assert_eq!(params["argument"], json!({"name": "day", "value": "mo"}));
        assert_eq!(params["context"], json!({"arguments": {"city": "Paris"}}));
        s.reply(
            "completion/complete",
            result(
                version,
                json!({"completion": {"values": ["monday"], "total": 1, "hasMore": false}}),
            ),
        );
        let ev = s.take();
        assert_eq!(rules(&ev), [], "{ev:#?}");
        assert!(
            matches!(answered(&ev, op), Ok(Answer::Completion(c)) if c.values == ["monday"] && c.has_more == Some(false))
        );
    }
}

#[test]
fn completion_rules_by_revision() {
    // 2024-11-05: no `completions` capability to declare, and no context to send.
    let mut s = connected("2024-11-05", json!({"prompts": {}}));
    let reference = CompletionReference::Prompt { name: "p".into() };
    s.client.complete(
        s.now,
        reference.clone(),
        ("a", ""),
        object(json!({"b": "1"})),
    );
    s.drain();
    assert_eq!(rules(&s.take()), [Rule::FieldNotInVersion]);
    assert!(
        s.last_request("completion/complete")
            .1
            .unwrap()
            .get("context")
            .is_none()
    );
    // 2025-03-26 on: the server must declare `completions`.
    let mut s = connected("2025-03-26", json!({"prompts": {}}));
    let op = s
        .client
        .complete(s.now, reference, ("a", ""), JsonObject::new());
    s.drain();
    assert_eq!(rules(&s.take()), [Rule::CapabilityNotDeclared]);
    let values: Vec<String> = (0..101).map(|i| format!("v{i}")).collect();
    s.reply(
        "completion/complete",
        json!({"completion": {"values": values, "total": 3}}),
    );
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::Completion, Rule::Completion]);
    assert!(matches!(answered(&ev, op), Ok(Answer::Completion(c)) if c.values.len() == 101));
    let op = s.client.complete(
        s.now,
        CompletionReference::Prompt { name: "p".into() },
        ("a", ""),
        JsonObject::new(),
    );
    s.drain();
    s.reply("completion/complete", json!({"values": []}));
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::CapabilityNotDeclared, Rule::Completion]);
    assert!(matches!(answered(&ev, op), Err(OpError::Failed(_))));
}

#[test]
fn undeclared_capabilities_are_named_when_the_client_uses_them() {
    let mut s = connected("2025-11-25", json!({"tools": {}}));
    s.client.list_resources(s.now);
    s.client.list_prompts(s.now);
    s.client.read_resource(s.now, "a://b");
    s.client.subscribe_resource(s.now, "a://b");
    s.client
        .set_log_level(s.now, mcpg_core::model::LoggingLevel::Info);
    s.drain();
    let ev = s.take();
    assert_eq!(rules(&ev), [Rule::CapabilityNotDeclared; 5]);
    let text: Vec<String> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Diagnostic(d) => Some(d.message.clone()),
            _ => None,
        })
        .collect();
    assert!(text[3].contains("\"resources.subscribe\""), "{text:?}");
    assert!(text[4].contains("\"logging\""), "{text:?}");
}

#[test]
fn an_input_required_prompt_is_continued_under_the_same_operation() {
    let mut s = Scripted::new(ClientConfig {
        capabilities: object(json!({"elicitation": {}})),
        ..Default::default()
    });
    s.connect_with("2026-07-28", json!({"prompts": {}}));
    let op = s.client.get_prompt(s.now, "p", JsonObject::new());
    s.drain();
    s.reply("prompts/get", json!({"resultType": "input_required", "inputRequests": {
        "who": {"method": "elicitation/create", "params": {"message": "Who?", "requestedSchema": {"type": "object", "properties": {}}}}
    }, "requestState": "s1"}));
    let ev = s.take();
    assert!(
        matches!(answered(&ev, op), Ok(Answer::InputRequired(_))),
        "{ev:#?}"
    );
    assert!(s.client.continue_call(
        s.now,
        op,
        object(json!({"who": {"action": "accept", "content": {}}}))
    ));
    s.drain();
    let params = s.last_request("prompts/get").1.unwrap();
    assert_eq!(params["requestState"], "s1");
    assert!(params["inputResponses"]["who"].is_object());
    s.reply(
        "prompts/get",
        json!({"resultType": "complete", "messages": []}),
    );
    assert!(matches!(answered(&s.take(), op), Ok(Answer::Prompt(_))));
}
