//! The same fixtures at 2026-07-28 (every request carries `_meta`), and the
//! `server-stateless` scenario's diagnostic tools.

use mcpg_demo_conformance::ConformanceServer;
use serde_json::{Value, json};

use crate::{answer, request};

/// A 2026-07-28 `tools/call` of `name` with client capabilities `caps` and
/// extra `_meta`; everything sent.
fn call(s: &mut ConformanceServer, name: &str, caps: Value, meta: Value) -> Vec<Value> {
    let mut m = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": caps,
    });
    m.as_object_mut()
        .unwrap()
        .extend(meta.as_object().unwrap().clone());
    request(
        s,
        0,
        "tools/call",
        json!({"name":name,"arguments":{},"_meta":m}),
    )
}

#[test]
fn fixtures_answer_without_a_session() {
    let mut s = ConformanceServer::new();
    let sent = call(&mut s, "test_simple_text", json!({}), json!({}));
    assert_eq!(
        answer(&sent)["result"]["content"][0]["text"],
        "This is a simple text response for testing."
    );
}

#[test]
fn the_capability_probe_needs_sampling_declared() {
    let mut s = ConformanceServer::new();
    let sent = call(&mut s, "test_missing_capability", json!({}), json!({}));
    let e = &answer(&sent)["error"];
    assert_eq!(e["code"], -32021, "{e}");
    assert_eq!(e["data"]["requiredCapabilities"], json!({"sampling": {}}));
    let sent = call(
        &mut s,
        "test_missing_capability",
        json!({"sampling":{}}),
        json!({}),
    );
    assert_eq!(answer(&sent)["result"]["content"][0]["text"], "Success");
}

#[test]
fn the_logging_probe_logs_only_at_the_requests_level() {
    let mut s = ConformanceServer::new();
    let sent = call(&mut s, "test_logging_tool", json!({}), json!({}));
    assert_eq!(sent.len(), 1, "no log without a level: {sent:?}");
    let level = json!({"io.modelcontextprotocol/logLevel": "debug"});
    let sent = call(&mut s, "test_logging_tool", json!({}), level);
    assert_eq!(sent[0]["method"], "notifications/message", "{sent:?}");
    assert_eq!(
        answer(&sent)["result"]["content"][0]["text"],
        "Logging evaluated"
    );
}

#[test]
fn the_streaming_probe_sends_no_request_of_its_own() {
    let mut s = ConformanceServer::new();
    let sent = call(
        &mut s,
        "test_streaming_elicitation",
        json!({"elicitation":{}}),
        json!({"progressToken":"t"}),
    );
    assert!(
        sent.iter().all(|m| m
            .get("method")
            .is_none_or(|m| m.as_str().unwrap().starts_with("notifications/"))),
        "{sent:?}"
    );
    assert_eq!(
        answer(&sent)["result"]["content"][0]["text"],
        "Streaming complete"
    );
}

#[test]
fn asking_fixtures_cannot_ask_without_a_session() {
    let mut s = ConformanceServer::new();
    let sent = call(&mut s, "test_sampling", json!({"sampling":{}}), json!({}));
    let text = answer(&sent)["result"]["content"][0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        text.starts_with("Sampling not supported or error"),
        "{text}"
    );
}

#[test]
fn a_missing_resource_is_invalid_params_at_2026_07_28() {
    let mut s = ConformanceServer::new();
    let meta = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    for uri in ["test://nothing-here", "test://template/x/other"] {
        let sent = request(&mut s, 0, "resources/read", json!({"uri":uri,"_meta":meta}));
        let e = &answer(&sent)["error"];
        assert_eq!(e["code"], -32602, "SEP-2164: {e}");
        assert_eq!(e["data"]["uri"], uri);
    }
}
