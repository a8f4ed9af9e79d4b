//! A session's call whose server asks the client first (`show_roots` asks
//! `roots/list`): its response stream stays open with the question as its last
//! event; the client's answer, POSTed on its own, is accepted with 202 and the
//! call's answer follows on the held stream, which then ends.

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest, Push, StreamId};
use serde_json::{Value, json};

const T: Timestamp = Timestamp(1_000);
const HOST: &str = "127.0.0.1:8123";
const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
const CALL: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"show_roots","arguments":{}}}"#;

fn post(d: &mut HttpDemo, session: Option<&str>, body: &str) -> Answer {
    let mut headers = vec![
        ("Host", HOST),
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
    ];
    if let Some(s) = session {
        headers.push(("Mcp-Session-Id", s));
    }
    d.answer(
        T,
        &HttpRequest {
            method: "POST",
            path: "/mcp",
            headers: &headers,
            body: body.as_bytes(),
        },
    )
}

/// The JSON-RPC messages of an SSE body.
fn events(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .collect()
}

/// A session whose call 2 (`show_roots`) waits on the client's `roots/list`:
/// the session id, the held stream, the question's id.
fn asked() -> (HttpDemo, String, StreamId, Value) {
    let mut d = HttpDemo::new(vec![HOST.into()], Vec::new(), "s-".into());
    let a = post(&mut d, None, INIT);
    let (_, id) = a
        .headers
        .iter()
        .find(|(n, _)| n == "mcp-session-id")
        .unwrap();
    let id = id.clone();
    assert_eq!(post(&mut d, Some(&id), INITIALIZED).status, 202);
    let a = post(&mut d, Some(&id), CALL);
    assert_eq!(a.status, 200, "{a:?}");
    let stream = a.stream.expect("the call's stream stays open");
    let sent = events(&a.body);
    let question = sent.last().unwrap();
    assert_eq!(question["method"], "roots/list", "{sent:?}");
    (d, id, stream, question["id"].clone())
}

fn pushes(d: &mut HttpDemo) -> Vec<Push> {
    std::iter::from_fn(|| d.poll_push()).collect()
}

#[test]
fn the_answer_follows_on_the_held_stream_once_the_client_answered() {
    let (mut d, id, stream, ask) = asked();
    let reply =
        json!({"jsonrpc":"2.0","id":ask,"result":{"roots":[{"uri":"file:///work","name":"work"}]}});
    assert_eq!(post(&mut d, Some(&id), &reply.to_string()).status, 202);
    let p = pushes(&mut d);
    let [Push::Chunk { stream: s, text }, Push::End(end)] = p.as_slice() else {
        panic!("the answer, then the end: {p:?}");
    };
    assert_eq!((*s, *end), (stream, stream));
    let answer = events(text);
    assert_eq!(answer[0]["id"], 2, "{text}");
    assert!(
        answer[0]["result"].to_string().contains("file:///work"),
        "{text}"
    );
}

#[test]
fn a_closed_held_stream_gets_nothing_more() {
    let (mut d, id, stream, ask) = asked();
    d.handle_closed(stream);
    let reply = json!({"jsonrpc":"2.0","id":ask,"result":{"roots":[]}});
    assert_eq!(post(&mut d, Some(&id), &reply.to_string()).status, 202);
    assert!(pushes(&mut d).is_empty());
}

#[test]
fn ending_the_session_ends_its_held_stream() {
    let (mut d, id, stream, _) = asked();
    let a = d.answer(
        T,
        &HttpRequest {
            method: "DELETE",
            path: "/mcp",
            headers: &[("Host", HOST), ("Mcp-Session-Id", &id)],
            body: b"",
        },
    );
    assert_eq!(a.status, 200);
    assert_eq!(pushes(&mut d), vec![Push::End(stream)]);
}

#[test]
fn another_call_in_the_session_is_answered_in_its_own_response() {
    let (mut d, id, _, _) = asked();
    let list = r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#;
    let a = post(&mut d, Some(&id), list);
    assert_eq!((a.status, a.stream), (200, None), "{a:?}");
    assert!(a.body.contains("\"tools\""));
    assert!(pushes(&mut d).is_empty());
}
