//! Differential tests of the resource, prompt, completion and logging types: ours
//! against the serde-derived twin (`twin/catalog.rs`), over generated JSON, as
//! `model_twin.rs` does for tools and results.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::twin;

use mcpg_core::model::{
    CompleteResult, GetPromptResult, LogMessage, Prompt, ReadResourceResult, Resource,
    ResourceTemplate,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use twin::strategies::*;

fn size() -> BoxedStrategy<Value> {
    any::<u32>().prop_map(Value::from).boxed()
}

fn resource() -> BoxedStrategy<Value> {
    obj(vec![
        req("uri", s(), json!(5)),
        def("name", s(), json!(5)),
        opt("title", s(), json!(5)),
        opt("description", s(), json!(5)),
        opt("mimeType", s(), json!(5)),
        opt("size", size(), json!(-3)),
        opt("annotations", annotations(), json!("a")),
        opt("icons", any_json(), Value::Null),
        meta(),
    ])
}

fn template() -> BoxedStrategy<Value> {
    obj(vec![
        req("uriTemplate", s(), json!(5)),
        def("name", s(), json!(5)),
        opt("title", s(), json!(5)),
        opt("description", s(), json!(5)),
        opt("mimeType", s(), json!(5)),
        opt("annotations", annotations(), json!("a")),
        opt("icons", any_json(), Value::Null),
        meta(),
    ])
}

fn list<T: Into<BoxedStrategy<Value>>>(item: T, n: usize) -> BoxedStrategy<Value> {
    prop::collection::vec(item.into(), 0..n)
        .prop_map(Value::from)
        .boxed()
}

fn read_result() -> BoxedStrategy<Value> {
    obj(vec![
        def("contents", list(resource_contents(), 4), json!({})),
        meta(),
    ])
}

fn prompt() -> BoxedStrategy<Value> {
    let argument = obj(vec![
        req("name", s(), json!(5)),
        opt("title", s(), json!(5)),
        opt("description", s(), json!(5)),
        opt("required", boolean(), json!("yes")),
    ]);
    obj(vec![
        req("name", s(), json!(5)),
        opt("title", s(), json!(5)),
        opt("description", s(), json!(5)),
        opt("arguments", list(argument, 3), json!({})),
        opt("icons", any_json(), Value::Null),
        meta(),
    ])
}

fn get_prompt() -> BoxedStrategy<Value> {
    let role = prop_oneof![Just(json!("user")), Just(json!("assistant")), s()].boxed();
    let message = obj(vec![
        req("role", role, json!(5)),
        req("content", block(), json!(5)),
    ]);
    obj(vec![
        opt("description", s(), json!(5)),
        def("messages", list(message, 3), json!("m")),
        meta(),
    ])
}

fn complete() -> BoxedStrategy<Value> {
    let completion = obj(vec![
        req("values", strings(), json!([1])),
        opt("total", size(), json!(-1)),
        opt("hasMore", boolean(), json!("no")),
    ]);
    obj(vec![req("completion", completion, json!([])), meta()])
}

fn log_message() -> BoxedStrategy<Value> {
    let level = prop_oneof![
        8 => prop::sample::select(vec!["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]).prop_map(Value::from),
        1 => Just(json!("fatal")),
    ]
    .boxed();
    obj(vec![
        req("level", level, json!(3)),
        opt("logger", s(), json!(5)),
        opt("data", any_json(), Value::Null),
        meta(),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn resources_agree(v in resource()) {
        agree(&v, Resource::from_json, twin::resource, Resource::to_json)?;
    }

    #[test]
    fn templates_agree(v in template()) {
        agree(&v, ResourceTemplate::from_json, twin::template, ResourceTemplate::to_json)?;
    }

    #[test]
    fn read_results_agree(v in read_result()) {
        agree(&v, ReadResourceResult::from_json, twin::read, ReadResourceResult::to_json)?;
    }

    #[test]
    fn prompts_agree(v in prompt()) {
        agree(&v, Prompt::from_json, twin::prompt, Prompt::to_json)?;
    }

    #[test]
    fn prompt_results_agree(v in get_prompt()) {
        agree(&v, GetPromptResult::from_json, twin::get_prompt, GetPromptResult::to_json)?;
    }

    #[test]
    fn completions_agree(v in complete()) {
        agree(&v, CompleteResult::from_json, twin::complete, CompleteResult::to_json)?;
    }

    #[test]
    fn log_messages_agree(v in log_message()) {
        agree(&v, LogMessage::from_json, twin::log, LogMessage::to_json)?;
    }
}
