//! The small JSON Schema checker against the `jsonschema` crate (draft 2020-12, the
//! MCP default), over generated schema/instance pairs in the subset the checker
//! claims (see `mcpg_host::schema`): both must say "fits" or "does not fit" alike.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_host::schema::validate;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// Instances from a small domain, so that schemas and instances often meet: whole
/// numbers written both ways (1 and 1.0), strings with non-ASCII characters,
/// objects over three keys.
fn instance() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..4).prop_map(Value::from),
        (-3i64..4).prop_map(|k| Value::from(k as f64)),
        (-6i64..7).prop_map(|k| Value::from(k as f64 / 2.0)),
        prop::sample::select(vec!["", "a", "ab", "é", "😀x", "abc"]).prop_map(Value::from),
    ];
    let nested = leaf.clone().prop_recursive(3, 16, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(key(), inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    });
    // Scalars half the time, so `enum`, `const` and the bounds often meet them.
    prop_oneof![leaf, nested].boxed()
}

fn key() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c"]).prop_map(str::to_owned)
}

fn type_name() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "null", "boolean", "integer", "number", "string", "array", "object",
    ])
}

fn bound() -> BoxedStrategy<Value> {
    prop_oneof![
        (-3i64..4).prop_map(Value::from),
        (-6i64..7).prop_map(|k| Value::from(k as f64 / 2.0)),
    ]
    .boxed()
}

/// One keyword that needs no sub-schema.
fn simple_keyword() -> BoxedStrategy<(String, Value)> {
    let count = || (0u64..4).prop_map(Value::from);
    let kw = |k: &'static str| move |v: Value| (k.to_owned(), v);
    prop_oneof![
        type_name().prop_map(|t| ("type".to_owned(), Value::from(t))),
        prop::collection::vec(type_name(), 1..3)
            .prop_map(|ts| ("type".to_owned(), Value::from(ts))),
        prop::collection::vec(instance(), 1..4).prop_map(|v| ("enum".to_owned(), Value::Array(v))),
        instance().prop_map(kw("const")),
        bound().prop_map(kw("minimum")),
        bound().prop_map(kw("maximum")),
        bound().prop_map(kw("exclusiveMinimum")),
        bound().prop_map(kw("exclusiveMaximum")),
        count().prop_map(kw("minLength")),
        count().prop_map(kw("maxLength")),
        count().prop_map(kw("minItems")),
        count().prop_map(kw("maxItems")),
        prop::collection::vec(key(), 0..3).prop_map(|k| ("required".to_owned(), Value::from(k))),
        Just(("$ref".to_owned(), json!("#/$defs/d"))),
        Just(("description".to_owned(), json!("ignored"))),
    ]
    .boxed()
}

fn object_of(members: Vec<(String, Value)>) -> Value {
    Value::Object(members.into_iter().collect::<Map<_, _>>())
}

/// Schemas from the claimed subset, nested.
fn schema() -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        1 => any::<bool>().prop_map(Value::from),
        6 => prop::collection::vec(simple_keyword(), 0..3).prop_map(object_of),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        let kw = prop_oneof![
            inner.clone().prop_map(|s| ("items".to_owned(), s)),
            prop::collection::btree_map(key(), inner.clone(), 1..3).prop_map(|m| (
                "properties".to_owned(),
                Value::Object(m.into_iter().collect())
            )),
            inner
                .clone()
                .prop_map(|s| ("additionalProperties".to_owned(), s)),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|v| ("allOf".to_owned(), Value::Array(v))),
            prop::collection::vec(inner.clone(), 1..3)
                .prop_map(|v| ("anyOf".to_owned(), Value::Array(v))),
            prop::collection::vec(inner, 1..3).prop_map(|v| ("oneOf".to_owned(), Value::Array(v))),
            simple_keyword(),
        ];
        prop::collection::vec(kw, 1..4).prop_map(object_of)
    })
    .boxed()
}

/// A root schema with `$defs/d` for the `$ref`s inside (itself free of `$ref`).
fn root() -> BoxedStrategy<Value> {
    let def = prop::collection::vec(simple_keyword(), 0..3)
        .prop_map(|kws| object_of(kws.into_iter().filter(|(k, _)| k != "$ref").collect()));
    (schema(), def)
        .prop_map(|(s, d)| match s {
            Value::Object(mut m) => {
                m.insert("$defs".into(), json!({ "d": d }));
                Value::Object(m)
            }
            other => other,
        })
        .boxed()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn the_checker_agrees_with_jsonschema(schema in root(), v in instance()) {
        let reference = jsonschema::draft202012::new(&schema)
            .map_err(|e| TestCaseError::reject(format!("not a schema: {e}")))?;
        let ours = validate(&schema, &v);
        prop_assert_eq!(
            ours.is_empty(),
            reference.is_valid(&v),
            "schema {} instance {}: ours {:?}",
            schema,
            v,
            ours
        );
    }
}

/// Corner cases, each once: the reference and ours on the same pairs.
#[test]
fn corner_cases_agree() {
    let cases = [
        (json!({"enum": [1]}), json!(1.0)),
        (json!({"const": 2.0}), json!(2)),
        (json!({"enum": [[1, {"a": 1}]]}), json!([1.0, {"a": 1.0}])),
        (json!({"type": "integer"}), json!(1.0)),
        (json!({"maxLength": 1}), json!("😀")),
        (json!({"minLength": 2}), json!("é")),
        (json!({"exclusiveMinimum": 1}), json!(1)),
        (json!({"items": false}), json!([])),
        (
            json!({"additionalProperties": false, "properties": {"a": true}}),
            json!({"a": 1}),
        ),
        (json!({"required": ["a"]}), json!([1])),
        (json!({"minimum": 1}), json!("0")),
    ];
    let mut differ = Vec::new();
    for (schema, v) in cases {
        let reference = jsonschema::draft202012::new(&schema).unwrap();
        if validate(&schema, &v).is_empty() != reference.is_valid(&v) {
            differ.push(format!("{schema} / {v}"));
        }
    }
    assert!(
        differ.is_empty(),
        "ours and jsonschema differ on: {differ:#?}"
    );
}
