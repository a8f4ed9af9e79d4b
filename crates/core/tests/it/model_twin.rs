//! Differential tests: the model's hand-written JSON readers and writers against a
//! serde-derived twin of the same types (`twin/`), over generated messages. Reading
//! through ours and through the twin must give the same value (or both fail), and
//! writing must give the same JSON text, member order included.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::twin;

use mcpg_core::model::{
    CallToolResult, ContentBlock, DiscoverResult, InitializeResult, ListToolsResult, Tool,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use twin::strategies::*;

fn tool() -> BoxedStrategy<Value> {
    let tool_annotations = obj(vec![
        opt("title", s(), json!(5)),
        opt("readOnlyHint", boolean(), json!("yes")),
        opt("destructiveHint", boolean(), json!("yes")),
        opt("idempotentHint", boolean(), json!("yes")),
        opt("openWorldHint", boolean(), json!("yes")),
    ]);
    obj(vec![
        req("name", s(), json!(5)),
        opt("title", s(), json!(5)),
        opt("description", s(), json!(5)),
        def("inputSchema", object(), Value::Null),
        opt("outputSchema", object(), Value::Null),
        opt("annotations", tool_annotations, json!("a")),
        opt("icons", any_json(), Value::Null),
        opt("execution", any_json(), Value::Null),
        meta(),
    ])
}

fn list_tools() -> BoxedStrategy<Value> {
    obj(vec![
        def(
            "tools",
            prop::collection::vec(tool(), 0..4)
                .prop_map(Value::from)
                .boxed(),
            json!({}),
        ),
        opt("nextCursor", s(), json!(5)),
        meta(),
    ])
}

fn call_result() -> BoxedStrategy<Value> {
    obj(vec![
        def(
            "content",
            prop::collection::vec(block(), 0..5)
                .prop_map(Value::from)
                .boxed(),
            json!("hi"),
        ),
        opt("structuredContent", any_json(), Value::Null),
        opt("isError", boolean(), json!("no")),
        meta(),
    ])
}

fn implementation() -> BoxedStrategy<Value> {
    obj(vec![
        def("name", s(), json!(5)),
        def("version", s(), json!(5)),
        opt("title", s(), json!(5)),
    ])
}

fn initialize() -> BoxedStrategy<Value> {
    obj(vec![
        def("protocolVersion", s(), json!(5)),
        def("capabilities", object(), json!([1])),
        def("serverInfo", implementation(), json!("x")),
        opt("instructions", s(), json!(5)),
        meta(),
    ])
}

fn discover() -> BoxedStrategy<Value> {
    obj(vec![
        def("supportedVersions", strings(), json!("2026-07-28")),
        def("capabilities", object(), json!([1])),
        opt("instructions", s(), json!(5)),
        opt("ttlMs", any_json(), Value::Null),
        opt("cacheScope", s(), json!(5)),
        opt("resultType", s(), json!(5)),
        meta(),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn content_blocks_agree(v in block()) {
        // Ours never fails on a block (odd ones become Unknown); the twin neither.
        agree(&v, |v| Ok::<_, ()>(ContentBlock::from_value(v.clone())), twin::block, ContentBlock::to_json)?;
    }

    #[test]
    fn tools_agree(v in tool()) {
        agree(&v, Tool::from_json, twin::tool, Tool::to_json)?;
    }

    #[test]
    fn tool_pages_agree(v in list_tools()) {
        agree(&v, ListToolsResult::from_json, twin::list_tools, ListToolsResult::to_json)?;
    }

    #[test]
    fn call_results_agree(v in call_result()) {
        agree(&v, CallToolResult::from_json, twin::call_result, CallToolResult::to_json)?;
    }

    #[test]
    fn initialize_results_agree(v in initialize()) {
        agree(&v, InitializeResult::from_json, twin::initialize, InitializeResult::to_json)?;
    }

    #[test]
    fn discover_results_agree(v in discover()) {
        agree(&v, DiscoverResult::from_json, twin::discover, DiscoverResult::to_json)?;
    }
}
