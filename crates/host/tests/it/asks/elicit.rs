//! `elicitation/create` in form and URL mode: the form from `requestedSchema`
//! (formats, titled enums, multi-select, defaults), content checked against the
//! schema, the three actions, and URLs offered only with their real domain.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[cfg(not(target_arch = "wasm32"))]
use super::spec;

use mcpg_host::asks::{self, Ask, AskError, ElicitAction, ElicitAsk, ElicitMode, Reply};
use mcpg_host::form::{FieldKind, Values, initial_values};
use serde_json::{Value, json};

fn booking_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Name", "minLength": 1},
            "email": {"type": "string", "format": "email"},
            "day": {"type": "string", "format": "date"},
            "at": {"type": "string", "format": "date-time"},
            "site": {"type": "string", "format": "uri"},
            "party": {"type": "integer", "minimum": 1, "maximum": 8, "default": 2},
            "vip": {"type": "boolean", "default": false},
            "room": {"type": "string", "oneOf": [{"const": "a", "title": "Garden"}, {"const": "b", "title": "Terrace"}], "default": "a"},
            "legacy": {"type": "string", "enum": ["x", "y"], "enumNames": ["Ex", "Why"]},
            "plain": {"type": "string", "enum": ["p", "q"]},
            "extras": {"type": "array", "items": {"anyOf": [{"const": "cake", "title": "Cake"}, {"const": "wine", "title": "Wine"}]}, "default": ["cake"]},
            "tags": {"type": "array", "items": {"type": "string", "enum": ["quiet", "window"]}, "maxItems": 1}
        },
        "required": ["name", "party"]
    })
}

fn form_ask(schema: Value) -> ElicitAsk {
    let params = json!({"mode": "form", "message": "Book a table", "requestedSchema": schema});
    match asks::parse("elicitation/create", Some(&params)).unwrap() {
        Ask::Elicit(e) => e,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_form_has_formats_titled_enums_multi_select_and_defaults() {
    let fields = asks::elicit_fields(&booking_schema());
    let f = |k: &str| fields.iter().find(|f| f.key == k).unwrap();
    assert_eq!(f("email").kind, FieldKind::Text);
    assert_eq!(f("email").hint.as_deref(), Some("email"));
    assert_eq!(f("day").hint.as_deref(), Some("date"));
    assert_eq!(f("party").kind, FieldKind::Integer);
    assert!(f("party").required && f("name").required && !f("email").required);
    assert_eq!(
        f("room").kind,
        FieldKind::Enum(vec![json!("a"), json!("b")])
    );
    assert_eq!(f("room").titles, ["Garden", "Terrace"]);
    assert_eq!(f("legacy").titles, ["Ex", "Why"]);
    assert!(f("plain").titles.is_empty());
    assert_eq!(
        f("extras").kind,
        FieldKind::List(Box::new(FieldKind::Enum(vec![
            json!("cake"),
            json!("wine")
        ])))
    );
    assert_eq!(f("extras").titles, ["Cake", "Wine"]);
    assert_eq!(
        f("tags").kind,
        FieldKind::List(Box::new(FieldKind::Enum(vec![
            json!("quiet"),
            json!("window")
        ])))
    );
    let defaults = asks::elicit_defaults(&booking_schema());
    assert_eq!(
        Value::Object(defaults),
        json!({"party": 2, "vip": false, "room": "a", "extras": ["cake"]})
    );
}

fn values(pairs: &[(&str, &str)]) -> Values {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect()
}

#[test]
fn content_is_built_and_checked() {
    let schema = booking_schema();
    let fields = asks::elicit_fields(&schema);
    // The defaults, as the form shows them, plus a name: accepted as they are.
    let mut v = initial_values(&fields, None);
    v.insert("name".into(), "Ada".into());
    let (content, errors) = asks::elicit_content(&schema, &fields, &v);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        Value::Object(content),
        json!({"name": "Ada", "party": 2, "vip": false, "room": "a", "extras": ["cake"]})
    );
    // Bare choices are read as the options they name; multi-select one per line.
    let v = values(&[
        ("name", "Ada"),
        ("party", "3"),
        ("room", "b"),
        ("extras", "cake\nwine"),
        ("legacy", "y"),
    ]);
    let (content, errors) = asks::elicit_content(&schema, &fields, &v);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(content["room"], "b");
    assert_eq!(content["extras"], json!(["cake", "wine"]));
    // Every kind of mistake is named at its field, all at once.
    let v = values(&[
        ("name", "Ada"),
        ("party", "9"),
        ("email", "not-an-address"),
        ("day", "2026-02-30"),
        ("at", "2026-01-01 10:00"),
        ("site", "no scheme"),
        ("room", "c"),
        ("tags", "quiet\nwindow"),
    ]);
    let (_, errors) = asks::elicit_content(&schema, &fields, &v);
    let mut paths: Vec<&str> = errors.iter().map(|e| e.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(
        paths,
        ["at", "day", "email", "party", "room", "site", "tags"],
        "{errors:?}"
    );
    // check_content alone: the content a policy or a file gives, with bad formats.
    let bad = json!({"name": "A", "party": 2, "email": "x", "day": "2026-02-30", "at": "2026-01-01 10:00", "site": "no scheme"});
    let mut paths: Vec<String> = asks::check_content(&schema, bad.as_object().unwrap())
        .into_iter()
        .map(|e| e.path)
        .collect();
    paths.sort_unstable();
    assert_eq!(paths, ["at", "day", "email", "site"]);
    // Good values of each format pass.
    let good = json!({"name": "A", "party": 1, "email": "a@b.example", "day": "2024-02-29", "at": "2026-01-01T10:00:00.5+02:00", "site": "https://example.com/x"});
    assert!(asks::check_content(&schema, good.as_object().unwrap()).is_empty());
    // A required field left empty.
    let (_, errors) = asks::elicit_content(&schema, &fields, &values(&[("party", "2")]));
    assert_eq!(errors[0].path, "name");
    // Nested objects are not elicitation answers.
    let nested = json!({"name": "A", "party": 1, "vip": {"x": 1}});
    assert!(
        !asks::check_content(&json!({"type": "object"}), nested.as_object().unwrap()).is_empty()
    );
}

#[test]
fn the_three_actions() {
    let content = json!({"name": "Ada"}).as_object().cloned().unwrap();
    assert_eq!(
        Reply::Elicited(ElicitAction::Accept(content))
            .to_result()
            .unwrap(),
        json!({"action": "accept", "content": {"name": "Ada"}})
    );
    assert_eq!(
        Reply::Elicited(ElicitAction::Decline).to_result().unwrap(),
        json!({"action": "decline"})
    );
    assert_eq!(
        Reply::Elicited(ElicitAction::Cancel).to_result().unwrap(),
        json!({"action": "cancel"})
    );
    // A URL elicitation is accepted without content.
    assert_eq!(
        Reply::Elicited(ElicitAction::Accept(Default::default()))
            .to_result()
            .unwrap(),
        json!({"action": "accept"})
    );
}

fn url_ask(url: &str) -> Result<Ask, AskError> {
    let params = json!({"mode": "url", "message": "Sign in", "url": url, "elicitationId": "e-1"});
    asks::parse("elicitation/create", Some(&params))
}

#[test]
fn a_url_is_offered_with_its_real_domain() {
    let Ask::Elicit(ElicitAsk {
        mode:
            ElicitMode::Url {
                url,
                domain,
                domain_unicode,
                elicitation_id,
            },
        message,
        ..
    }) = url_ask("https://Login.Example.com:8443/auth?x=1").unwrap()
    else {
        panic!()
    };
    assert_eq!(url, "https://Login.Example.com:8443/auth?x=1");
    assert_eq!(domain, "login.example.com");
    assert_eq!(domain_unicode, "login.example.com");
    assert_eq!(elicitation_id.as_deref(), Some("e-1"));
    assert_eq!(message, "Sign in");
    // User info is what phishing hides behind: such a URL is not offered at all.
    assert_eq!(
        asks::url_domain("https://bank.example@evil.example/x"),
        Err(mcpg_safe_url::Refusal::UserInfo)
    );
    // The domain is where the browser goes: a backslash ends the host there.
    assert_eq!(
        asks::url_domain("https://bank.example\\@evil.example/x")
            .unwrap()
            .ascii,
        "bank.example"
    );
    assert_eq!(
        asks::url_domain("http://[::1]:8080/").unwrap().ascii,
        "[::1]"
    );
    // An international name: punycode beside Unicode, so a look-alike shows.
    let d = asks::url_domain("https://b\u{fc}cher.example/").unwrap();
    assert_eq!(
        (d.ascii.as_str(), d.unicode.as_str()),
        ("xn--bcher-kva.example", "b\u{fc}cher.example")
    );
    let Ask::Elicit(ElicitAsk {
        mode:
            ElicitMode::Url {
                domain,
                domain_unicode,
                ..
            },
        ..
    }) = url_ask("https://\u{430}\u{440}\u{440}l\u{435}.com/login").unwrap()
    else {
        panic!()
    };
    assert!(domain.starts_with("xn--"), "{domain}");
    assert_eq!(domain_unicode, "\u{430}\u{440}\u{440}l\u{435}.com");
}

#[test]
fn dangerous_or_hostless_urls_are_parse_errors() {
    for bad in [
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "file:///etc/passwd",
        "https://",
        "http:example.com",
        "https://user@/x",
        "https://exa mple.com/",
        "not a url",
        // The one URL rule: plain http only to a loopback host, no user info.
        "http://evil.example/login",
        "http://localhost.evil.example/",
        "https://bank.example@evil.example/",
        "https://bank.example:pw@evil.example/",
        "vscode://extension/x",
    ] {
        match url_ask(bad) {
            Err(e @ AskError::BadUrl { .. }) => {
                let AskError::BadUrl { url, reason } = &e else {
                    unreachable!()
                };
                assert_eq!(url, bad);
                // The message names the rule it broke.
                assert!(e.to_string().contains(reason.rule()), "{e}");
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    // Loopback http stays (local servers, the project's own tests).
    assert!(url_ask("http://localhost:3000/cb").is_ok());
    assert!(url_ask("http://127.0.0.1:8080/x").is_ok());
}

#[test]
fn form_is_the_default_mode_and_bad_shapes_are_named() {
    // 2025-06-18 sends no mode.
    let params = json!({"message": "Name?", "requestedSchema": {"type": "object", "properties": {"n": {"type": "string"}}}});
    assert!(matches!(
        asks::parse("elicitation/create", Some(&params)).unwrap(),
        Ask::Elicit(ElicitAsk {
            mode: ElicitMode::Form { .. },
            ..
        })
    ));
    let p = |v: Value| asks::parse("elicitation/create", Some(&v)).unwrap_err();
    assert_eq!(
        p(json!({"requestedSchema": {}})),
        AskError::Missing("params.message".into())
    );
    assert_eq!(
        p(json!({"message": "m"})),
        AskError::Missing("params.requestedSchema".into())
    );
    assert_eq!(
        p(json!({"message": "m", "mode": "url"})),
        AskError::Missing("params.url".into())
    );
    assert!(
        matches!(p(json!({"message": "m", "mode": "tty"})), AskError::Invalid { field, .. } if field == "params.mode")
    );
    let _ = form_ask(booking_schema());
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn requests_and_results_fit_their_revisions() {
    for rev in ["2025-06-18", "2025-11-25", "2026-07-28"] {
        let Some(schema) = spec::schema(rev) else {
            return;
        };
        for action in [
            ElicitAction::Accept(
                json!({"name": "Ada", "party": 2, "extras": ["cake"]})
                    .as_object()
                    .cloned()
                    .unwrap(),
            ),
            ElicitAction::Decline,
            ElicitAction::Cancel,
        ] {
            if rev == "2025-06-18" && matches!(&action, ElicitAction::Accept(_)) {
                // 2025-06-18 content allows no arrays: a scalar-only answer.
                let only = json!({"name": "Ada"}).as_object().cloned().unwrap();
                spec::check(
                    &schema,
                    "ElicitResult",
                    &Reply::Elicited(ElicitAction::Accept(only))
                        .to_result()
                        .unwrap(),
                );
                continue;
            }
            spec::check(
                &schema,
                "ElicitResult",
                &Reply::Elicited(action).to_result().unwrap(),
            );
        }
        if rev >= "2025-11-25" {
            let form =
                json!({"mode": "form", "message": "Book", "requestedSchema": booking_schema()});
            spec::check(&schema, "ElicitRequestFormParams", &form);
        }
    }
}

#[test]
fn a_url_elicitation_required_error_is_read_as_url_asks() {
    use mcpg_core::jsonrpc::RpcError;
    let err = RpcError {
        code: -32042,
        message: "This request requires more information.".into(),
        data: Some(json!({"elicitations": [
            {"mode": "url", "elicitationId": "e-7", "url": "https://auth.example/connect?x=1", "message": "Authorize"},
            {"mode": "url", "elicitationId": "e-8", "url": "javascript:alert(1)", "message": "Evil"}
        ]})),
    };
    let asks = asks::url_elicitations(&err);
    assert_eq!(asks.len(), 2);
    let Ok(ElicitAsk {
        mode:
            ElicitMode::Url {
                domain,
                elicitation_id,
                ..
            },
        ..
    }) = &asks[0]
    else {
        panic!("{asks:?}")
    };
    assert_eq!(
        (domain.as_str(), elicitation_id.as_deref()),
        ("auth.example", Some("e-7"))
    );
    assert!(matches!(asks[1], Err(AskError::BadUrl { .. })));
    assert!(asks::url_elicitations(&RpcError::new(-32602, "x")).is_empty());
    let bare = RpcError::new(-32042, "no data");
    assert_eq!(
        asks::url_elicitations(&bare),
        [Err(AskError::Missing("error.data.elicitations".into()))]
    );
}
