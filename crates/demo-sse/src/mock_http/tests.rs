#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_recording::{Connection, Direction, Recording, WireRecord};
use serde_json::{Value, json};

use super::*;

fn wire(direction: Direction, v: Value) -> WireRecord {
    WireRecord {
        direction,
        at_ms: 0,
        text: Some(v.to_string()),
        hash: None,
    }
}

/// The handshake, one call answered plainly, and one during which the server
/// asked the client two questions.
fn server() -> HttpMock {
    let mut s = Recording::new(Connection::Embedded);
    let mut push = |d, v| s.wire.push(wire(d, v));
    push(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}),
    );
    push(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"w","version":"1"}}}),
    );
    push(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}),
    );
    push(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3"}]}}),
    );
    push(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"reserve","arguments":{}}}),
    );
    push(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":"s-1","method":"elicitation/create","params":{"message":"party?"}}),
    );
    push(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":"s-1","result":{"action":"accept"}}),
    );
    push(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":"s-2","method":"roots/list"}),
    );
    push(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":"s-2","result":{"roots":[]}}),
    );
    push(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":3,"result":{"content":[]}}),
    );
    let mock = Mock::new(&s).unwrap();
    HttpMock::new(
        mock,
        vec!["127.0.0.1:9".into()],
        vec!["http://127.0.0.1:9".into()],
        "t-".into(),
    )
}

const BOTH: &str = "application/json, text/event-stream";

fn post(m: &mut HttpMock, extra: &[(&str, &str)], body: &str) -> Answer {
    let mut headers = vec![
        ("Host", "127.0.0.1:9"),
        ("Content-Type", "application/json"),
        ("Accept", BOTH),
    ];
    for (n, v) in extra {
        headers.retain(|(h, _)| !h.eq_ignore_ascii_case(n));
        headers.push((n, v));
    }
    m.answer(&HttpRequest {
        method: "POST",
        path: PATH,
        headers: &headers,
        body: body.as_bytes(),
    })
}

fn session(m: &mut HttpMock) -> String {
    let a = post(
        m,
        &[],
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#,
    );
    assert_eq!(a.status, 200, "{a:?}");
    let v: Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["result"]["serverInfo"]["name"], "w");
    a.headers
        .iter()
        .find(|(n, _)| n == "mcp-session-id")
        .map(|(_, v)| v.clone())
        .unwrap()
}

fn data(text: &str) -> Value {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap_or_else(|| panic!("no data in {text:?}"));
    serde_json::from_str(line).unwrap()
}

#[test]
fn a_session_answers_its_calls_as_json() {
    let mut m = server();
    let id = session(&mut m);
    let a = post(
        &mut m,
        &[("Mcp-Session-Id", &id)],
        r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"b":2,"a":1}}}"#,
    );
    assert_eq!(a.status, 200);
    let v: Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["id"], 7);
    assert_eq!(v["result"]["content"][0]["text"], "3");
    let n = post(
        &mut m,
        &[("Mcp-Session-Id", &id)],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    assert_eq!(n.status, 202);
    let gone = post(
        &mut m,
        &[("Mcp-Session-Id", "nope")],
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    );
    assert_eq!(gone.status, 404);
}

#[test]
fn questions_go_out_on_the_calls_stream_and_the_answer_follows() {
    let mut m = server();
    let id = session(&mut m);
    let s = [("Mcp-Session-Id", id.as_str())];
    let a = post(
        &mut m,
        &s,
        r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"reserve","arguments":{}}}"#,
    );
    let stream = a.stream.unwrap();
    assert_eq!(data(&a.body)["method"], "elicitation/create");
    assert_eq!(data(&a.body)["id"], "mock-1");
    assert!(m.poll_push().is_none());
    let r = post(
        &mut m,
        &s,
        r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"accept"}}"#,
    );
    assert_eq!(r.status, 202);
    let Some(Push::Chunk { stream: st, text }) = m.poll_push() else {
        panic!("no second question");
    };
    assert_eq!(st, stream);
    assert_eq!(data(&text)["method"], "roots/list");
    post(
        &mut m,
        &s,
        r#"{"jsonrpc":"2.0","id":"mock-2","result":{"roots":[]}}"#,
    );
    let Some(Push::Chunk { text, .. }) = m.poll_push() else {
        panic!("no answer");
    };
    assert_eq!(data(&text)["id"], 8);
    assert_eq!(m.poll_push(), Some(Push::End(stream)));
}

#[test]
fn refusals_come_first_and_the_server_answers_on() {
    let mut m = server();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
    assert_eq!(
        post(&mut m, &[("Host", "evil.example:9")], init).status,
        421
    );
    assert_eq!(
        post(&mut m, &[("Origin", "http://evil.example")], init).status,
        403
    );
    assert_eq!(
        post(&mut m, &[("Content-Type", "text/plain")], init).status,
        415
    );
    assert_eq!(
        post(&mut m, &[("Accept", "application/json")], init).status,
        406
    );
    let junk = post(&mut m, &[], "{not json");
    assert_eq!(junk.status, 400);
    assert_eq!(post(&mut m, &[], "[1, 2]").status, 400);
    let get = m.answer(&HttpRequest {
        method: "GET",
        path: PATH,
        headers: &[("Host", "127.0.0.1:9")],
        body: b"",
    });
    assert_eq!(get.status, 405);
    session(&mut m);
    assert_eq!(m.open_sessions(), 1);
}

#[test]
fn questions_never_answered_do_not_pile_up() {
    let mut m = server();
    let call = r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"reserve","arguments":{}}}"#;
    let first = post(&mut m, &[], call).stream.unwrap();
    for _ in 0..MAX_WAITING {
        assert!(post(&mut m, &[], call).stream.is_some());
    }
    assert_eq!(m.waiting.len(), MAX_WAITING);
    assert_eq!(m.poll_push(), Some(Push::End(first)));
}
