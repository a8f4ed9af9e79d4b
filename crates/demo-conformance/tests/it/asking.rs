//! The fixtures that ask the client: the question, and the call's answer once
//! the client's comes back (or why the server could not ask).

use mcpg_core::Timestamp;
use serde_json::{Value, json};

use crate::{answer, call, drain, request, session};

/// Calls `name`; the question it sent the client.
fn question(s: &mut mcpg_demo_conformance::ConformanceServer, name: &str, args: Value) -> Value {
    let sent = request(s, 0, "tools/call", json!({"name":name,"arguments":args}));
    assert_eq!(sent.len(), 1, "{sent:?}");
    sent[0].clone()
}

fn reply(s: &mut mcpg_demo_conformance::ConformanceServer, q: &Value, result: Value) -> Value {
    let r = json!({"jsonrpc":"2.0","id":q["id"],"result":result});
    s.handle_text(Timestamp(5), &r.to_string());
    answer(&drain(s))["result"]["content"][0]["text"].clone()
}

#[test]
fn sampling_reports_what_the_model_said() {
    let mut s = session(json!({"sampling":{}}));
    let q = question(&mut s, "test_sampling", json!({"prompt":"hi"}));
    assert_eq!(q["method"], "sampling/createMessage");
    assert_eq!(q["params"]["messages"][0]["content"]["text"], "hi");
    let said = json!({"role":"assistant","content":{"type":"text","text":"hello"},"model":"m"});
    assert_eq!(reply(&mut s, &q, said), "LLM response: hello");
}

#[test]
fn elicitations_report_the_action_and_content() {
    let mut s = session(json!({"elicitation":{}}));
    let q = question(&mut s, "test_elicitation", json!({"message":"name?"}));
    assert_eq!(q["params"]["message"], "name?");
    let text = reply(
        &mut s,
        &q,
        json!({"action":"accept","content":{"response":"Ada"}}),
    );
    assert_eq!(
        text,
        r#"User response: action=accept, content={"response":"Ada"}"#
    );
    let q = question(&mut s, "test_elicitation_sep1034_defaults", json!({}));
    let props = &q["params"]["requestedSchema"]["properties"];
    assert_eq!(
        (
            props["name"]["default"].as_str(),
            props["age"]["default"].as_i64()
        ),
        (Some("John Doe"), Some(30))
    );
    assert_eq!(props["score"]["default"], 95.5);
    assert_eq!(props["verified"]["default"], true);
    let text = reply(&mut s, &q, json!({"action":"decline"}));
    assert_eq!(text, "Elicitation completed: action=decline, content={}");
    let q = question(&mut s, "test_elicitation_sep1330_enums", json!({}));
    let props = &q["params"]["requestedSchema"]["properties"];
    assert_eq!(
        props["titledSingle"]["oneOf"][1],
        json!({"const":"value2","title":"Second Option"})
    );
    assert_eq!(props["legacyEnum"]["enumNames"][0], "Option One");
    assert_eq!(
        props["titledMulti"]["items"]["anyOf"][2]["title"],
        "Third Choice"
    );
}

#[test]
fn without_the_capability_the_call_says_so() {
    let mut s = session(json!({}));
    let r = call(&mut s, "test_sampling", json!({"prompt":"hi"}));
    let text = r["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("Sampling not supported or error"),
        "{text}"
    );
}

#[test]
fn an_error_from_the_client_ends_the_call() {
    let mut s = session(json!({"sampling":{}}));
    let q = question(&mut s, "test_sampling", json!({"prompt":"hi"}));
    let e = json!({"jsonrpc":"2.0","id":q["id"],"error":{"code":-1,"message":"user said no"}});
    s.handle_text(Timestamp(5), &e.to_string());
    let text = answer(&drain(&mut s))["result"]["content"][0]["text"].clone();
    assert_eq!(text, "Sampling failed: user said no");
}
