//! JSON-RPC messages: decoding keeps the exact text, building round-trips.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The same suite runs natively and, through wasm-bindgen-test, in headless Chromium.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::jsonrpc::*;
use serde_json::Value;

#[test]
fn keeps_raw_text_and_unknown_members() {
    let text = r#"{"jsonrpc":"2.0","id":"a","result":{"x":1},"extra":true}"#;
    let m = Message::decode(text).unwrap();
    assert_eq!(m.raw(), text);
    assert_eq!(m.to_value()["extra"], Value::Bool(true));
    assert_eq!(m.result(), Some(&serde_json::json!({"x": 1})));
    assert_eq!(m.id(), Some(&RequestId::String("a".into())));
}

#[test]
fn classifies_all_shapes() {
    let req = Message::decode(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#).unwrap();
    assert!(matches!(
        req.body(),
        Body::Request {
            id: RequestId::Number(7),
            ..
        }
    ));
    let note = Message::decode(r#"{"jsonrpc":"2.0","method":"x/y","params":{}}"#).unwrap();
    assert!(matches!(note.body(), Body::Notification { .. }));
    let err =
        Message::decode(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"p"}}"#)
            .unwrap();
    assert!(matches!(err.body(), Body::Error { id: None, .. }));
}

#[test]
fn rejects_non_jsonrpc() {
    for t in [
        "junk",
        "[]",
        "42",
        r#"{"id":1,"method":"x"}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":""}}"#,
        r#"{"jsonrpc":"2.0","id":1,"error":{"message":"no code"}}"#,
        r#"{"jsonrpc":"2.0","method":"x","params":3}"#,
    ] {
        assert!(Message::decode(t).is_err(), "{t}");
    }
}

#[test]
fn batch_frames_split() {
    let f = decode_frame(r#"[{"jsonrpc":"2.0","method":"a"},{"nope":1}]"#);
    assert!(f.batch);
    assert_eq!(f.items.len(), 2);
    assert!(f.items[0].is_ok());
    assert!(f.items[1].is_err());
}

#[test]
fn built_messages_round_trip() {
    let m = Message::request(
        RequestId::Number(1),
        "tools/list",
        Some(serde_json::json!({})),
    );
    let back = Message::decode(m.raw()).unwrap();
    assert_eq!(back.body(), m.body());
    // The text written member by member is what `Value` would print.
    let cases = [
        m,
        Message::notification("n/x", None),
        Message::response(
            RequestId::String("é\"q".into()),
            serde_json::json!([1, {"a": null}]),
        ),
        Message::error(None, RpcError::new(-1, "no")),
        Message::error(Some(RequestId::Number(-3)), RpcError::new(-1, "no")),
    ];
    for m in cases {
        assert_eq!(m.raw(), m.to_value().to_string());
        assert_eq!(Message::decode(m.raw()).unwrap(), m);
    }
}
