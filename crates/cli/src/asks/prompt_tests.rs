//! The terminal dialogue, driven by scripted lines.

#![allow(clippy::unwrap_used)]

use mcpg_host::asks;
use serde_json::json;

use super::*;

fn schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "party_size": {"type": "integer", "default": 2, "minimum": 1, "maximum": 12},
            "time": {"type": "string", "description": "When, as HH:MM"},
            "seat": {"type": "string", "oneOf": [{"const": "inside", "title": "Inside"}, {"const": "terrace", "title": "On the terrace"}]},
            "extras": {"type": "array", "items": {"type": "string", "enum": ["bread", "wine", "cake"]}},
            "vegan": {"type": "boolean"}
        },
        "required": ["time"]
    })
}

/// Runs the form dialogue on `script`, returning the choice and what was shown.
fn run_form(script: &str) -> (Choice, String) {
    let schema = schema();
    let fields = asks::elicit_fields(&schema);
    let values = form::initial_values(&fields, Some(&asks::elicit_defaults(&schema)));
    let mut out = Vec::new();
    let choice = Prompter::new(script.as_bytes(), &mut out)
        .form("Book a table\u{1b}[2J", &fields, values, |v| {
            asks::elicit_content(&schema, &fields, v)
        })
        .unwrap();
    (choice, String::from_utf8(out).unwrap())
}

#[test]
fn fields_one_by_one_with_defaults_and_choices() {
    // Enter keeps the default 2; the seat is picked by number.
    let (choice, shown) = run_form("a\n\n19:30\n2\n1, wine\n1\n");
    let Choice::Accept(content) = choice else {
        panic!("{choice:?}")
    };
    assert_eq!(
        Value::Object(content),
        json!({"party_size": 2, "time": "19:30", "seat": "terrace", "extras": ["bread", "wine"], "vegan": true})
    );
    assert!(
        shown.contains("party_size (whole number, 1 to 12)"),
        "{shown}"
    );
    assert!(
        shown.contains("time (text, required): When, as HH:MM"),
        "{shown}"
    );
    assert!(shown.contains("2) On the terrace (terrace)"), "{shown}");
    assert!(
        shown.contains("extras (pick any: numbers, comma-separated)"),
        "{shown}"
    );
    assert!(shown.contains("3) cake"), "{shown}");
    // The server's escape sequence is shown, not obeyed.
    assert!(shown.contains("Book a table\\u{1b}[2J"), "{shown}");
}

#[test]
fn refused_answers_are_named_and_asked_again() {
    // First round: no time (required) and 40 people (above the maximum).
    let (choice, shown) = run_form("\n40\n\n\n\n\n5\n12:00\n\n\n\n");
    let Choice::Accept(content) = choice else {
        panic!("{choice:?}")
    };
    assert_eq!(content.get("party_size"), Some(&json!(5)));
    assert_eq!(content.get("time"), Some(&json!("12:00")));
    assert!(shown.contains("  time: required"), "{shown}");
    assert!(shown.contains("Please answer again."), "{shown}");
}

#[test]
fn decline_cancel_and_end_of_input() {
    assert_eq!(run_form("d\n").0, Choice::Decline);
    assert_eq!(run_form("cancel\n").0, Choice::Cancel);
    assert_eq!(run_form("").0, Choice::Cancel);
    // The input ends in the middle of the form: nothing half-filled is sent.
    assert_eq!(run_form("a\n3\n").0, Choice::Cancel);
    let (choice, shown) = run_form("x\nd\n");
    assert_eq!(choice, Choice::Decline);
    assert!(shown.contains("type a, d or c"), "{shown}");
}

#[test]
fn a_url_is_shown_with_its_domain_and_never_opened() {
    let mut out = Vec::new();
    let choice = Prompter::new("\n".as_bytes(), &mut out)
        .url(
            "Sign in",
            "https://auth.example.com/start?x=1",
            "auth.example.com",
        )
        .unwrap();
    assert_eq!(choice, Choice::Accept(JsonObject::new()));
    let shown = String::from_utf8(out).unwrap();
    assert!(shown.contains("URL:    https://auth.example.com/start?x=1"));
    assert!(shown.contains("domain: auth.example.com"));
    assert!(shown.contains("mcpg does not open it"));
    let mut out = Vec::new();
    let choice = Prompter::new("d\n".as_bytes(), &mut out)
        .url("Sign in", "https://a.example/", "a.example")
        .unwrap();
    assert_eq!(choice, Choice::Decline);
}
