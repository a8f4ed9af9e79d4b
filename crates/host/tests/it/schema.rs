//! The small JSON Schema checker and the tool form built on it. Runs natively and in
//! headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::model::{CallToolResult, Tool};
use mcpg_host::form::{self, FieldError, FieldErrorKind, FieldKind, Values};
use mcpg_host::schema::{check_structured, validate};
use serde_json::{Value, json};

fn messages(schema: Value, v: Value) -> Vec<String> {
    validate(&schema, &v)
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn types_and_integers() {
    assert!(messages(json!({"type": "integer"}), json!(3)).is_empty());
    assert!(messages(json!({"type": "integer"}), json!(3.0)).is_empty());
    assert_eq!(
        messages(json!({"type": "integer"}), json!(3.5)),
        ["expected integer, got number"]
    );
    assert!(messages(json!({"type": "number"}), json!(3)).is_empty());
    assert!(messages(json!({"type": ["string", "null"]}), json!(null)).is_empty());
    assert_eq!(
        messages(json!({"type": "string"}), json!(1)),
        ["expected string, got integer"]
    );
}

#[test]
fn required_enum_bounds() {
    let s = json!({"type": "object", "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "minimum": 1, "maximum": 5},
        "unit": {"enum": ["C", "F"]}
    }, "required": ["city"]});
    assert!(messages(s.clone(), json!({"city": "Austin", "days": 3, "unit": "F"})).is_empty());
    assert_eq!(
        messages(s, json!({"days": 9, "unit": "K"})),
        [
            "\"city\" is required",
            "/days: must be at most 5",
            "/unit: must be one of \"C\", \"F\""
        ]
    );
}

#[test]
fn items_nested_and_additional_properties() {
    let s = json!({"type": "object", "additionalProperties": false, "properties": {
        "items": {"type": "array", "items": {"type": "string"}, "minItems": 1},
        "party": {"type": "object", "properties": {"adults": {"type": "integer", "minimum": 1}}, "required": ["adults"]}
    }});
    assert_eq!(
        messages(
            s.clone(),
            json!({"items": ["a", 2], "party": {"adults": 0}, "extra": true})
        ),
        [
            "/items/1: expected string, got integer",
            "/party/adults: must be at least 1",
            "\"extra\" is not an allowed property"
        ]
    );
    assert_eq!(
        messages(s, json!({"items": []})),
        ["/items: needs at least 1 item(s)"]
    );
}

#[test]
fn refs_and_combinators() {
    let s = json!({"$defs": {"pos": {"type": "number", "exclusiveMinimum": 0}},
        "anyOf": [{"$ref": "#/$defs/pos"}, {"type": "string"}]});
    assert!(messages(s.clone(), json!(2)).is_empty());
    assert!(messages(s.clone(), json!("x")).is_empty());
    assert_eq!(
        messages(s, json!(-1)),
        ["matches none of the allowed shapes (anyOf)"]
    );
    // A self-referencing schema ends instead of recursing forever.
    let looped = json!({"$ref": "#"});
    assert!(validate(&looped, &json!(1)).is_empty());
}

fn forecast() -> Tool {
    mcpg_demo::initial_tools()
        .into_iter()
        .find(|t| t.name == "get_forecast")
        .unwrap()
}

#[test]
fn structured_content_against_output_schema() {
    let tool = forecast();
    let mut good = CallToolResult::text("…");
    good.structured_content =
        Some(json!({"city": "Paris", "days": [{"day": 1, "high": 64, "low": 52, "sky": "rain"}]}));
    assert_eq!(check_structured(&tool, &good), Some(Ok(())));
    let mut bad = good.clone();
    bad.structured_content = Some(json!({"city": "Paris", "days": [{"day": "one"}]}));
    let errors = check_structured(&tool, &bad).unwrap().unwrap_err();
    assert!(errors.iter().any(|e| e.path == "/days/0/day"), "{errors:?}");
    let missing = CallToolResult::text("no structure");
    assert!(check_structured(&tool, &missing).unwrap().is_err());
    // A tool failure need not carry structured content.
    assert_eq!(
        check_structured(&tool, &CallToolResult::tool_error("x")),
        None
    );
}

fn demo_tool(name: &str) -> Tool {
    mcpg_demo::initial_tools()
        .into_iter()
        .find(|t| t.name == name)
        .unwrap()
}

#[test]
fn form_fields_follow_the_schema() {
    let book = demo_tool("book_table");
    let fields = form::fields(&book.input_schema);
    let keys: Vec<&str> = fields.iter().map(|f| f.key.as_str()).collect();
    assert_eq!(keys, ["restaurant", "date", "party"]);
    assert!(fields.iter().all(|f| f.required));
    assert_eq!(fields[1].hint.as_deref(), Some("date"));
    let FieldKind::Object(party) = &fields[2].kind else {
        panic!("{:?}", fields[2].kind)
    };
    assert_eq!(party[0].path, "party.adults");
    assert_eq!(party[0].default, Some(json!(2)));
    let list = demo_tool("make_list");
    let f = form::fields(&list.input_schema);
    assert_eq!(f[0].kind, FieldKind::List(Box::new(FieldKind::Text)));
    assert_eq!(f[1].kind, FieldKind::Boolean);
    let note = demo_tool("read_note");
    let f = form::fields(&note.input_schema);
    assert!(matches!(&f[0].kind, FieldKind::Enum(v) if v.len() == 3));
}

#[test]
fn form_input_becomes_checked_arguments() {
    let book = demo_tool("book_table");
    let fields = form::fields(&book.input_schema);
    let mut values = form::initial_values(&fields, None);
    // Defaults are filled in, the rest is empty.
    assert_eq!(values.get("party.adults").map(String::as_str), Some("2"));
    let (_, errors) = form::build(&book.input_schema, &fields, &values);
    let paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["restaurant", "date"]);
    assert!(errors.iter().all(|e| e.kind == FieldErrorKind::Required));
    values.insert("restaurant".into(), "Luigi".into());
    values.insert("date".into(), "2026-05-01".into());
    values.insert("party.adults".into(), "0".into());
    let (_, errors) = form::build(&book.input_schema, &fields, &values);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].path, "party.adults");
    assert_eq!(errors[0].message, "must be at least 1");
    assert_eq!(errors[0].kind, FieldErrorKind::Invalid);
    values.insert("party.adults".into(), "3".into());
    let (args, errors) = form::build(&book.input_schema, &fields, &values);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        Value::Object(args),
        json!({"restaurant": "Luigi", "date": "2026-05-01", "party": {"adults": 3, "children": 0}})
    );
}

#[test]
fn form_parses_each_kind() {
    let s = json!({"type": "object", "properties": {
        "n": {"type": "number"}, "i": {"type": "integer"}, "b": {"type": "boolean"},
        "e": {"enum": ["x", 1]}, "l": {"type": "array", "items": {"type": "integer"}},
        "j": {"type": "array", "items": {"type": "object"}}
    }, "required": ["i"]});
    let fields = form::fields(&s);
    let mut v = Values::new();
    v.insert("n".into(), "2.5".into());
    v.insert("i".into(), "x".into());
    v.insert("b".into(), "true".into());
    v.insert("e".into(), "1".into());
    v.insert("l".into(), "1\n2\n\n3".into());
    v.insert("j".into(), r#"[{"k": 1}]"#.into());
    let (_, errors) = form::build(&s, &fields, &v);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].path, "i");
    assert_eq!(errors[0].kind, FieldErrorKind::Invalid);
    for (raw, message) in [
        ("[1]", "the arguments must be a JSON object"),
        (
            "{oops",
            "not valid JSON: key must be a string at line 1 column 2",
        ),
    ] {
        let e = FieldError::from(form::parse_arguments(raw).unwrap_err());
        assert_eq!(e.kind, FieldErrorKind::Unreadable);
        assert_eq!(e.message, message);
    }
    v.insert("i".into(), "7".into());
    let (args, errors) = form::build(&s, &fields, &v);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        Value::Object(args),
        json!({"n": 2.5, "i": 7, "b": true, "e": 1, "l": [1, 2, 3], "j": [{"k": 1}]})
    );
}

#[test]
fn form_starts_from_given_arguments() {
    let w = demo_tool("get_forecast");
    let fields = form::fields(&w.input_schema);
    let args = json!({"city": "Tokyo"});
    let values = form::initial_values(&fields, args.as_object());
    assert_eq!(values.get("city").map(String::as_str), Some("Tokyo"));
    assert_eq!(values.get("days").map(String::as_str), Some("3"));
}

#[test]
fn raw_arguments_say_why_they_cannot_be_sent() {
    use mcpg_host::form::{ArgumentsError, parse_arguments};
    assert_eq!(
        parse_arguments(r#"{"city": "Austin"}"#).unwrap(),
        *json!({"city": "Austin"}).as_object().unwrap()
    );
    let e = parse_arguments("{\"city\": ").unwrap_err();
    assert!(matches!(e, ArgumentsError::NotJson(_)), "{e:?}");
    // The wording the page showed before the error was typed.
    assert!(e.to_string().starts_with("not valid JSON: "), "{e}");
    let e = parse_arguments("[1, 2]").unwrap_err();
    assert_eq!(e, ArgumentsError::NotAnObject);
    assert_eq!(e.to_string(), "the arguments must be a JSON object");
}

#[test]
fn enum_and_const_compare_numbers_by_value() {
    // JSON Schema equality: 1 and 1.0 are the same number (found against `jsonschema`).
    assert!(messages(json!({"enum": [1, "a"]}), json!(1.0)).is_empty());
    assert!(messages(json!({"const": {"n": [2.0]}}), json!({"n": [2]})).is_empty());
    assert_eq!(messages(json!({"const": 2}), json!(2.5)), ["must be 2"]);
}
