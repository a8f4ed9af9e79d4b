//! The 2026-07-28 `input_required` fixtures, round by round: the three-round
//! fixture carries its first answer in the sealed state, the capability fixture
//! asks only what the request declares, a missing answer is asked again, and
//! a state without the server's key is refused (no state is sent unsealed).

use mcpg_core::server::StateKey;
use mcpg_demo_conformance::ConformanceServer;
use mcpg_demo_sse::Engine;
use serde_json::{Value, json};

use crate::{answer, request};

fn keyed() -> ConformanceServer {
    let mut s = ConformanceServer::new();
    Engine::set_state_key(&mut s, StateKey::new([9; 32]));
    s
}

/// A 2026-07-28 `tools/call` of `name` declaring `caps`, with `extra` params;
/// the answer (result or error).
fn call(s: &mut ConformanceServer, name: &str, caps: Value, extra: Value) -> Value {
    let mut params = json!({
        "name": name,
        "arguments": {},
        "_meta": {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": caps,
        },
    });
    params
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    answer(&request(s, 0, "tools/call", params)).clone()
}

fn all() -> Value {
    json!({"elicitation": {}, "sampling": {}, "roots": {}})
}

fn accept(field: &str, value: &str) -> Value {
    json!({"action": "accept", "content": {field: value}})
}

#[test]
fn three_rounds_carry_the_first_answer_in_the_sealed_state() {
    let mut s = keyed();
    let tool = "test_input_required_result_multi_round";
    let r1 = &call(&mut s, tool, all(), json!({}))["result"];
    assert_eq!(r1["resultType"], "input_required");
    assert!(r1["inputRequests"]["step1"].is_object(), "{r1}");
    let s1 = r1["requestState"].clone();

    let retry = json!({"inputResponses": {"step1": accept("name", "Ada")}, "requestState": s1});
    let r2 = &call(&mut s, tool, all(), retry)["result"];
    assert!(r2["inputRequests"]["step2"].is_object(), "{r2}");
    let s2 = r2["requestState"].as_str().unwrap();
    assert!(s2.ends_with("multi-round:2:Ada"), "{s2}");
    assert_ne!(r2["requestState"], s1);

    // The name cannot be edited on the way: the state no longer opens.
    let forged = s2.replace("Ada", "Eve");
    let retry =
        json!({"inputResponses": {"step2": accept("color", "blue")}, "requestState": forged});
    assert_eq!(call(&mut s, tool, all(), retry)["error"]["code"], -32602);

    let retry = json!({"inputResponses": {"step2": accept("color", "blue")}, "requestState": s2});
    let r3 = &call(&mut s, tool, all(), retry)["result"];
    assert_eq!(r3["resultType"], "complete");
    assert_eq!(r3["content"][0]["text"], "Ada's favorite color is blue.");
}

#[test]
fn the_capability_fixture_asks_only_what_is_declared() {
    let mut s = keyed();
    let tool = "test_input_required_result_capabilities";
    let r = &call(&mut s, tool, json!({"sampling": {}}), json!({}))["result"];
    let asked: Vec<&str> = r["inputRequests"]
        .as_object()
        .unwrap()
        .values()
        .map(|q| q["method"].as_str().unwrap())
        .collect();
    assert_eq!(asked, ["sampling/createMessage"]);
    let r = &call(&mut s, tool, json!({}), json!({}))["result"];
    assert_eq!(r["resultType"], "complete", "nothing to ask with: {r}");
}

#[test]
fn a_missing_or_malformed_answer() {
    let mut s = keyed();
    let tool = "test_input_required_result_elicitation";
    let wrong = json!({"inputResponses": {"wrong_key": accept("name", "x")}});
    let r = &call(&mut s, tool, all(), wrong)["result"];
    assert_eq!(r["resultType"], "input_required", "asked again: {r}");
    assert!(r["inputRequests"]["user_name"].is_object());
    let bad = json!({"inputResponses": {"user_name": {"action": "maybe"}}});
    assert_eq!(call(&mut s, tool, all(), bad)["error"]["code"], -32602);
    let good = json!({"inputResponses": {"user_name": accept("name", "Alice"), "extra": {}}});
    let r = &call(&mut s, tool, all(), good)["result"];
    assert_eq!(r["content"][0]["text"], "Hello, Alice!");
}

#[test]
fn without_a_key_no_state_is_sent() {
    let mut s = ConformanceServer::new();
    let tool = "test_input_required_result_tampered_state";
    let r = &call(&mut s, tool, all(), json!({}))["result"];
    assert_eq!(r["isError"], true, "{r}");
    assert!(r.get("requestState").is_none());
}

#[test]
fn the_prompt_asks_then_fills_in() {
    let mut s = keyed();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": all(),
    });
    let get = |extra: Value| {
        let mut p = json!({"name": "test_input_required_result_prompt", "_meta": meta});
        p.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        p
    };
    let sent = request(&mut s, 0, "prompts/get", get(json!({})));
    let r = &answer(&sent)["result"];
    assert!(r["inputRequests"]["user_context"].is_object(), "{r}");
    let retry = get(json!({"inputResponses": {"user_context": accept("context", "tests")}}));
    let sent = request(&mut s, 0, "prompts/get", retry);
    let r = &answer(&sent)["result"];
    assert_eq!(
        r["messages"][0]["content"]["text"],
        "Use this context: tests"
    );
}
