//! `HttpDemo`'s stateless generation (2026-07-28): the `_meta` and headers a
//! request with no session must carry, and JSON-RPC errors as HTTP statuses.

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest};
use serde_json::{Value, json};

const HOST: &str = "127.0.0.1:8123";

fn demo() -> HttpDemo {
    HttpDemo::new(vec![HOST.into()], Vec::new(), "s-".into())
}

fn request(method: &str, params: Value) -> String {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    });
    json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params}).to_string()
}

fn send(d: &mut HttpDemo, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut all = vec![
        ("Host", HOST),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    all.extend_from_slice(headers);
    d.answer(
        Timestamp(1_000),
        &HttpRequest {
            method: "POST",
            path: "/mcp",
            headers: &all,
            body: body.as_bytes(),
        },
    )
}

fn code(a: &Answer) -> Option<i64> {
    serde_json::from_str::<Value>(&a.body).ok()?["error"]["code"].as_i64()
}

const V: (&str, &str) = ("MCP-Protocol-Version", "2026-07-28");

#[test]
fn a_call_with_its_headers_is_answered() {
    let mut d = demo();
    let body = request(
        "tools/call",
        json!({"name": "add_numbers", "arguments": {"a": 2, "b": 40}}),
    );
    let a = send(
        &mut d,
        &[V, ("Mcp-Method", "tools/call"), ("Mcp-Name", "add_numbers")],
        &body,
    );
    assert_eq!((a.status, code(&a)), (200, None), "{a:?}");
    assert!(a.body.contains("42"), "{a:?}");
    // A name that is not visible ASCII travels base64-encoded.
    let body = request("tools/call", json!({"name": "été"}));
    let a = send(
        &mut d,
        &[
            V,
            ("Mcp-Method", "tools/call"),
            ("Mcp-Name", "=?base64?w6l0w6k=?="),
        ],
        &body,
    );
    assert_ne!(code(&a), Some(-32020), "{a:?}");
}

#[test]
fn missing_meta_is_invalid_params_with_400() {
    let mut d = demo();
    let bare = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let a = send(&mut d, &[V, ("Mcp-Method", "tools/list")], bare);
    assert_eq!((a.status, code(&a)), (400, Some(-32602)), "{a:?}");
    let no_caps = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let a = send(&mut d, &[V, ("Mcp-Method", "tools/list")], no_caps);
    assert_eq!((a.status, code(&a)), (400, Some(-32602)), "{a:?}");
}

#[test]
fn headers_that_do_not_repeat_the_body_are_a_mismatch() {
    let mut d = demo();
    let list = request("tools/list", json!({}));
    let call = request(
        "tools/call",
        json!({"name": "add_numbers", "arguments": {"a": 1, "b": 1}}),
    );
    let cases: [(&[(&str, &str)], &str); 5] = [
        (&[("Mcp-Method", "tools/list")], &list),
        (
            &[
                ("MCP-Protocol-Version", "2025-11-25"),
                ("Mcp-Method", "tools/list"),
            ],
            &list,
        ),
        (&[V], &list),
        (&[V, ("Mcp-Method", "TOOLS/LIST")], &list),
        (
            &[V, ("Mcp-Method", "tools/call"), ("Mcp-Name", "shout")],
            &call,
        ),
    ];
    for (headers, body) in cases {
        let a = send(&mut d, headers, body);
        assert_eq!(
            (a.status, code(&a)),
            (400, Some(-32020)),
            "{headers:?}: {a:?}"
        );
    }
    let a = send(&mut d, &[V, ("Mcp-Method", "tools/call")], &call);
    assert_eq!(
        (a.status, code(&a)),
        (400, Some(-32020)),
        "no Mcp-Name: {a:?}"
    );
}

#[test]
fn removed_methods_are_404_with_ids() {
    let mut d = demo();
    for method in ["ping", "initialize"] {
        let a = send(
            &mut d,
            &[V, ("Mcp-Method", method)],
            &request(method, json!({})),
        );
        assert_eq!((a.status, code(&a)), (404, Some(-32601)), "{method}: {a:?}");
        assert!(a.body.contains(r#""id":7"#), "{a:?}");
    }
    assert_eq!(d.open_sessions(), 0);
    let a = send(&mut d, &[V], &request("tools/list", json!({})));
    assert!(
        a.body.contains(r#""id":7"#),
        "the refusal answers the request: {a:?}"
    );
}

#[test]
fn an_unknown_method_is_404_and_a_session_keeps_200() {
    let mut d = demo();
    let a = send(
        &mut d,
        &[V, ("Mcp-Method", "no/such")],
        &request("no/such", json!({})),
    );
    assert_eq!((a.status, code(&a)), (404, Some(-32601)), "{a:?}");
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let a = send(&mut d, &[], init);
    let id = a
        .headers
        .iter()
        .find(|(n, _)| n == "mcp-session-id")
        .unwrap()
        .1
        .clone();
    let a = send(
        &mut d,
        &[("Mcp-Session-Id", &id)],
        r#"{"jsonrpc":"2.0","id":2,"method":"no/such"}"#,
    );
    assert_eq!((a.status, code(&a)), (200, Some(-32601)), "{a:?}");
}

#[test]
fn a_listen_stream_carries_the_list_changes() {
    let mut d = demo();
    let listen = request(
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true}}),
    );
    let a = send(
        &mut d,
        &[V, ("Mcp-Method", "subscriptions/listen")],
        &listen,
    );
    assert_eq!(a.status, 200, "{a:?}");
    let stream = a.stream.expect("the stream stays open");
    assert!(
        a.body.contains("notifications/subscriptions/acknowledged"),
        "{a:?}"
    );
    assert!(a.body.contains("toolsListChanged"), "{a:?}");
    let toggle = request(
        "tools/call",
        json!({"name": "toggle_bonus_tool", "arguments": {}}),
    )
    .replace(r#""id":7"#, r#""id":8"#);
    let h = [
        V,
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "toggle_bonus_tool"),
    ];
    let a = send(&mut d, &h, &toggle);
    assert_eq!(a.status, 200, "{a:?}");
    assert!(
        !a.body.contains("list_changed"),
        "not in the call's response: {a:?}"
    );
    match d.poll_push() {
        Some(mcpg_demo_sse::Push::Chunk { stream: s, text }) => {
            assert_eq!(s, stream);
            assert!(text.contains("notifications/tools/list_changed"), "{text}");
            assert!(
                text.contains(r#""io.modelcontextprotocol/subscriptionId":7"#),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(d.poll_push(), None);
    // Once the client hangs up, the changes go nowhere (not into responses).
    d.handle_closed(stream);
    let a = send(&mut d, &h, &toggle);
    assert!(!a.body.contains("list_changed"), "{a:?}");
    assert_eq!(d.poll_push(), None);
}
