//! Generators of model JSON for the differential tests (members in random order,
//! unknown ones among them, some missing, `null` or of the wrong type), and the
//! check that ours and the twin agree. Shared by `model_twin.rs` and
//! `model_twin_catalog.rs`.

use std::fmt::Debug;

use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

pub type Field = Option<(String, Value)>;

/// Short strings, with a non-ASCII letter now and then.
pub fn s() -> BoxedStrategy<Value> {
    "[a-zA-Z0-9 é_/:.-]{0,10}".prop_map(Value::from).boxed()
}

pub fn boolean() -> BoxedStrategy<Value> {
    any::<bool>().prop_map(Value::from).boxed()
}

/// Any JSON, two levels deep.
pub fn any_json() -> BoxedStrategy<Value> {
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

pub fn object() -> BoxedStrategy<Value> {
    prop::collection::btree_map("[a-z]{1,5}", any_json(), 0..3)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
        .boxed()
}

pub fn strings() -> BoxedStrategy<Value> {
    prop::collection::vec("[a-z]{1,6}", 0..3)
        .prop_map(Value::from)
        .boxed()
}

/// An optional member: absent, `null`, good, or of the wrong type.
pub fn opt(key: &'static str, good: BoxedStrategy<Value>, bad: Value) -> BoxedStrategy<Field> {
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
pub fn def(key: &'static str, good: BoxedStrategy<Value>, bad: Value) -> BoxedStrategy<Field> {
    prop_oneof![
        6 => Just(None),
        13 => good.prop_map(move |v| Some((key.to_owned(), v))),
        1 => Just(Some((key.to_owned(), bad))),
    ]
    .boxed()
}

/// A required member: mostly good, sometimes missing or of the wrong type.
pub fn req(key: &'static str, good: BoxedStrategy<Value>, bad: Value) -> BoxedStrategy<Field> {
    prop_oneof![
        18 => good.prop_map(move |v| Some((key.to_owned(), v))),
        1 => Just(None),
        1 => Just(Some((key.to_owned(), bad))),
    ]
    .boxed()
}

pub fn fixed(key: &'static str, v: Value) -> BoxedStrategy<Field> {
    Just(Some((key.to_owned(), v))).boxed()
}

/// The members in a random order, unknown ones (which must survive) among them.
pub fn obj(fields: Vec<BoxedStrategy<Field>>) -> BoxedStrategy<Value> {
    let extra = prop::collection::btree_map("x[a-z]{1,4}", any_json(), 0..3);
    (fields, extra)
        .prop_flat_map(|(fields, extra)| {
            let all: Vec<(String, Value)> = fields.into_iter().flatten().chain(extra).collect();
            Just(all).prop_shuffle()
        })
        .prop_map(|all| Value::Object(all.into_iter().collect::<Map<_, _>>()))
        .boxed()
}

pub fn meta() -> BoxedStrategy<Field> {
    opt("_meta", object(), json!([1]))
}

pub fn annotations() -> BoxedStrategy<Value> {
    let priority = prop_oneof![
        (0..=1i64).prop_map(Value::from),
        (0.0..=1.0f64).prop_map(Value::from)
    ];
    obj(vec![
        opt("audience", strings(), json!(["user", 1])),
        opt("priority", priority.boxed(), json!("high")),
    ])
}

pub fn resource_contents() -> BoxedStrategy<Value> {
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
pub fn block() -> BoxedStrategy<Value> {
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

/// Reads `v` through ours and through the twin; both succeed with equal values or
/// both fail. Then both write, and the texts must be equal.
pub fn agree<O, T, E>(
    v: &Value,
    ours: impl Fn(&Value) -> Result<O, E>,
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
