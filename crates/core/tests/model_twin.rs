//! Differential tests: the model's hand-written JSON readers and writers against a
//! serde-derived twin of the same types (`twin/`), over generated messages. Reading
//! through ours and through the twin must give the same value (or both fail), and
//! writing must give the same JSON text, member order included.

#![cfg(not(target_arch = "wasm32"))]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod twin;

use std::fmt::Debug;

use mcpg_core::model::{
    CallToolResult, ContentBlock, DiscoverResult, InitializeResult, ListToolsResult, Tool,
};
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

type Field = Option<(String, Value)>;

/// Short strings, with a non-ASCII letter now and then.
fn s() -> BoxedStrategy<Value> {
    "[a-zA-Z0-9 é_/:.-]{0,10}".prop_map(Value::from).boxed()
}

fn boolean() -> BoxedStrategy<Value> {
    any::<bool>().prop_map(Value::from).boxed()
}

/// Any JSON, two levels deep.
fn any_json() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        (-1e6..1e6f64).prop_map(Value::from),
        "[a-z]{0,6}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 12, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,4}", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
    .boxed()
}

fn object() -> BoxedStrategy<Value> {
    prop::collection::btree_map("[a-z]{1,5}", any_json(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

fn strings() -> BoxedStrategy<Value> {
    prop::collection::vec("[a-z]{1,6}", 0..3)
        .prop_map(Value::from)
        .boxed()
}

/// An optional member: absent, `null`, good, or of the wrong type.
fn opt(key: &'static str, good: BoxedStrategy<Value>, bad: Value) -> BoxedStrategy<Field> {
    prop_oneof![
        6 => Just(None),
        2 => Just(Some((key.to_owned(), Value::Null))),
        11 => good.prop_map(move |v| Some((key.to_owned(), v))),
        1 => Just(Some((key.to_owned(), bad))),
    ]
    .boxed()
}

/// A member with a default when absent (never `null`: ours reads `null` as absent
/// where serde's `default` refuses it, a leniency kept on purpose).
fn def(key: &'static str, good: BoxedStrategy<Value>, bad: Value) -> BoxedStrategy<Field> {
    prop_oneof![
        6 => Just(None),
        13 => good.prop_map(move |v| Some((key.to_owned(), v))),
        1 => Just(Some((key.to_owned(), bad))),
    ]
    .boxed()
}

/// A required member: mostly good, sometimes missing or of the wrong type.
fn req(key: &'static str, good: BoxedStrategy<Value>, bad: Value) -> BoxedStrategy<Field> {
    prop_oneof![
        18 => good.prop_map(move |v| Some((key.to_owned(), v))),
        1 => Just(None),
        1 => Just(Some((key.to_owned(), bad))),
    ]
    .boxed()
}

fn fixed(key: &'static str, v: Value) -> BoxedStrategy<Field> {
    Just(Some((key.to_owned(), v))).boxed()
}

/// The members in a random order, unknown ones (which must survive) among them.
fn obj(fields: Vec<BoxedStrategy<Field>>) -> BoxedStrategy<Value> {
    let extra = prop::collection::btree_map("x[a-z]{1,4}", any_json(), 0..3);
    (fields, extra)
        .prop_flat_map(|(fields, extra)| {
            let all: Vec<(String, Value)> = fields.into_iter().flatten().chain(extra).collect();
            Just(all).prop_shuffle()
        })
        .prop_map(|all| Value::Object(all.into_iter().collect::<Map<_, _>>()))
        .boxed()
}

fn meta() -> BoxedStrategy<Field> {
    opt("_meta", object(), json!([1]))
}

fn annotations() -> BoxedStrategy<Value> {
    let priority = prop_oneof![
        (0..=1i64).prop_map(Value::from),
        (0.0..=1.0f64).prop_map(Value::from)
    ];
    obj(vec![
        opt("audience", strings(), json!(["user", 1])),
        opt("priority", priority.boxed(), json!("high")),
    ])
}

fn resource_contents() -> BoxedStrategy<Value> {
    let common = || {
        vec![
            req("uri", s(), json!(5)),
            opt("mimeType", s(), json!(5)),
            meta(),
        ]
    };
    let mut text = common();
    text.push(req("text", s(), json!(5)));
    let mut blob = common();
    blob.push(req("blob", s(), json!(5)));
    prop_oneof![obj(text), obj(blob), obj(common())].boxed()
}

/// Every kind of content block, odd ones included.
fn block() -> BoxedStrategy<Value> {
    let tail = |mut v: Vec<BoxedStrategy<Field>>| {
        v.push(opt("annotations", annotations(), json!("a")));
        v.push(meta());
        obj(v)
    };
    let image = |tag: &'static str| {
        tail(vec![
            fixed("type", json!(tag)),
            req("data", s(), json!(5)),
            req("mimeType", s(), json!(5)),
        ])
    };
    prop_oneof![
        tail(vec![
            fixed("type", json!("text")),
            req("text", s(), json!(5))
        ]),
        image("image"),
        image("audio"),
        tail(vec![
            fixed("type", json!("resource_link")),
            req("uri", s(), json!(5)),
            def("name", s(), json!(5)),
            opt("title", s(), json!(5)),
            opt("description", s(), json!(5)),
            opt("mimeType", s(), json!(5)),
            opt(
                "size",
                any::<u32>().prop_map(Value::from).boxed(),
                json!(-3)
            ),
        ]),
        tail(vec![
            fixed("type", json!("resource")),
            req("resource", resource_contents(), json!(5)),
        ]),
        obj(vec![fixed("type", json!("hologram"))]),
        any_json(),
    ]
    .boxed()
}

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

/// Reads `v` through ours and through the twin; both succeed with equal values or
/// both fail. Then both write, and the texts must be equal.
fn agree<O, T>(
    v: &Value,
    ours: impl Fn(&Value) -> Result<O, String>,
    to_twin: impl Fn(&O) -> T,
    write: impl Fn(&O) -> Value,
) -> Result<(), TestCaseError>
where
    O: Debug,
    T: Debug + PartialEq + Serialize + DeserializeOwned,
{
    let a = ours(v);
    let b = serde_json::from_value::<T>(v.clone());
    match (&a, &b) {
        (Ok(a), Ok(b)) => {
            prop_assert_eq!(&to_twin(a), b, "read differently: {}", v);
            let ours_text = serde_json::to_string(&write(a)).unwrap();
            let twin_text = serde_json::to_string(b).unwrap();
            prop_assert_eq!(ours_text, twin_text, "written differently");
        }
        (Err(_), Err(_)) => {}
        _ => prop_assert!(false, "ours {:?}, twin {:?} on {}", a.is_ok(), b.is_ok(), v),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn content_blocks_agree(v in block()) {
        // Ours never fails on a block (odd ones become Unknown); the twin neither.
        agree(&v, |v| Ok(ContentBlock::from_value(v.clone())), twin::block, ContentBlock::to_json)?;
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
