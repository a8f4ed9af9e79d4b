//! MRTR (`inputRequests` -> `inputResponses`), roots, and the automatic [`Policy`]
//! the CLI and the conformance client answer through.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

#[cfg(not(target_arch = "wasm32"))]
use super::spec;

use mcpg_host::asks::{
    self, Ask, AskError, ElicitAction, ElicitPolicy, MOCK_MODEL, Policy, Reply, Root, SamplePolicy,
};
use serde_json::{Value, json};

fn input_required() -> Value {
    json!({
        "resultType": "input_required",
        "requestState": "opaque-1",
        "inputRequests": {
            "b_login": {"method": "elicitation/create", "params": {"mode": "form", "message": "Your login?",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "default": "octocat"}}, "required": ["name"]}}},
            "a_capital": {"method": "sampling/createMessage", "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Capital of France?"}}], "maxTokens": 100}},
            "c_roots": {"method": "roots/list"},
            "d_odd": {"method": "tools/list"},
            "e_nomethod": {"params": {}}
        }
    })
}

fn policy() -> Policy {
    Policy {
        elicit: ElicitPolicy::Answers(Default::default()),
        sample: SamplePolicy::Mock,
        roots: vec![Root {
            uri: "file:///work".into(),
            name: Some("work".into()),
        }],
    }
}

#[test]
fn input_requests_are_read_one_by_one_in_key_order() {
    let reqs = asks::input_requests(&input_required());
    let keys: Vec<&str> = reqs.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["a_capital", "b_login", "c_roots", "d_odd", "e_nomethod"]
    );
    assert!(matches!(reqs[0].1, Ok(Ask::Sampling(_))));
    assert!(matches!(reqs[1].1, Ok(Ask::Elicit(_))));
    assert!(matches!(reqs[2].1, Ok(Ask::Roots)));
    assert_eq!(reqs[3].1, Err(AskError::UnknownMethod("tools/list".into())));
    assert_eq!(
        reqs[4].1,
        Err(AskError::Missing("inputRequests.e_nomethod.method".into()))
    );
    assert!(
        asks::input_requests(&json!({"resultType": "input_required", "requestState": "s"}))
            .is_empty()
    );
}

#[test]
fn input_responses_answer_each_key() {
    let p = policy();
    let replies: Vec<(String, Reply)> = asks::input_requests(&input_required())
        .into_iter()
        .filter_map(|(k, a)| a.ok().map(|a| (k, p.answer(&a))))
        .collect();
    let out = Value::Object(asks::input_responses(&replies));
    assert_eq!(
        out["b_login"],
        json!({"action": "accept", "content": {"name": "octocat"}})
    );
    assert_eq!(out["a_capital"]["model"], MOCK_MODEL);
    assert_eq!(
        out["c_roots"],
        json!({"roots": [{"uri": "file:///work", "name": "work"}]})
    );
    // A rejected sampling request has no InputResponse form: it is left out.
    let out = asks::input_responses(&[
        ("a".into(), Reply::SamplingRejected),
        ("r".into(), Reply::Roots(vec![])),
    ]);
    assert_eq!(Value::Object(out), json!({"r": {"roots": []}}));
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn input_responses_fit_the_2026_schema() {
    let Some(schema) = spec::schema("2026-07-28") else {
        return;
    };
    spec::check(&schema, "InputRequiredResult", &{
        let mut r = input_required();
        let reqs = r["inputRequests"].as_object_mut().unwrap();
        reqs.remove("d_odd");
        reqs.remove("e_nomethod");
        r
    });
    let p = policy();
    let replies: Vec<(String, Reply)> = asks::input_requests(&input_required())
        .into_iter()
        .filter_map(|(k, a)| a.ok().map(|a| (k, p.answer(&a))))
        .collect();
    spec::check(
        &schema,
        "InputResponses",
        &Value::Object(asks::input_responses(&replies)),
    );
    for rev in ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"] {
        let Some(s) = spec::schema(rev) else { return };
        spec::check(
            &s,
            "ListRootsResult",
            &Reply::Roots(policy().roots).to_result().unwrap(),
        );
        let caps = Value::Object(policy().capabilities());
        if rev >= "2025-11-25" {
            spec::check(&s, "ClientCapabilities", &caps);
        }
    }
}

#[test]
fn the_policy_answers_every_ask() {
    let elicit = |schema: Value| {
        asks::parse(
            "elicitation/create",
            Some(&json!({"message": "m", "requestedSchema": schema})),
        )
        .unwrap()
    };
    let schema = json!({"type": "object", "properties": {
        "name": {"type": "string", "default": "Ada"}, "n": {"type": "integer", "default": 1}, "other": {"type": "string"}}});
    // Defaults accepted (SEP-1034), answers merged over them, unknown keys left out.
    let answers = json!({"n": 5, "stray": true}).as_object().cloned().unwrap();
    let p = Policy {
        elicit: ElicitPolicy::Answers(answers),
        ..policy()
    };
    assert_eq!(
        p.answer(&elicit(schema.clone())),
        Reply::Elicited(ElicitAction::Accept(
            json!({"name": "Ada", "n": 5}).as_object().cloned().unwrap()
        ))
    );
    let decline = Policy {
        elicit: ElicitPolicy::Decline,
        ..policy()
    };
    assert_eq!(
        decline.answer(&elicit(schema)),
        Reply::Elicited(ElicitAction::Decline)
    );
    // A URL is never opened without a person: declined even with answers.
    let url = asks::parse("elicitation/create", Some(&json!({"mode": "url", "message": "m", "url": "https://x.example", "elicitationId": "1"}))).unwrap();
    assert_eq!(
        policy().answer(&url),
        Reply::Elicited(ElicitAction::Decline)
    );
    // Sampling: mock, text, rejection.
    let s = asks::parse("sampling/createMessage", Some(&json!({"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 10}))).unwrap();
    let Ask::Sampling(sa) = &s else { panic!() };
    assert_eq!(policy().answer(&s), Reply::Sampled(asks::mock_sample(sa)));
    let text = Policy {
        sample: SamplePolicy::Text("fixed".into()),
        ..policy()
    };
    let Reply::Sampled(t) = text.answer(&s) else {
        panic!()
    };
    assert_eq!(t.content, json!({"type": "text", "text": "fixed"}));
    let no = Policy {
        sample: SamplePolicy::Decline,
        ..policy()
    };
    assert_eq!(no.answer(&s), Reply::SamplingRejected);
    assert_eq!(policy().answer(&Ask::Roots), Reply::Roots(policy().roots));
}

#[test]
fn capabilities_declare_what_the_policy_answers() {
    assert_eq!(
        Value::Object(policy().capabilities()),
        json!({"sampling": {}, "elicitation": {"form": {}, "url": {}}, "roots": {"listChanged": true}})
    );
}

/// The specification's own 2026-07-28 examples read as asks: every sampling,
/// elicitation and MRTR example parses, and the sampling ones render for a model.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn the_specifications_examples_parse() {
    let mut seen = 0;
    for (def, method) in [
        ("CreateMessageRequestParams", "sampling/createMessage"),
        ("ElicitRequestFormParams", "elicitation/create"),
        ("ElicitRequestURLParams", "elicitation/create"),
    ] {
        for (name, params) in spec::examples(def) {
            let ask = asks::parse(method, Some(&params));
            assert!(ask.is_ok(), "{def}/{name}: {ask:?}");
            if let Ok(Ask::Sampling(s)) = &ask {
                let body = asks::sampling_request(mcpg_host::provider::Provider::Anthropic, s, "m");
                assert!(
                    body["messages"].as_array().is_some_and(|m| !m.is_empty()),
                    "{name}"
                );
            }
            seen += 1;
        }
    }
    for (name, result) in spec::examples("InputRequiredResult") {
        for (key, ask) in asks::input_requests(&result) {
            assert!(ask.is_ok(), "{name}/{key}: {ask:?}");
            seen += 1;
        }
    }
    if spec::dir().is_some() {
        assert!(seen >= 8, "only {seen} examples read");
    }
}
