#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{Value, json};

use super::*;
use crate::{Connection, Direction, WireRecord};

fn wire(direction: Direction, v: Value) -> WireRecord {
    WireRecord {
        direction,
        at_ms: 0,
        text: Some(v.to_string()),
        hash: None,
    }
}

/// A session: the handshake, two pages of tools, two calls of `get_weather`
/// (the same one twice, answered differently), one of `add`.
fn session() -> Recording {
    let mut s = Recording::new(Connection::Embedded);
    let mut ex = |id: u64, method: &str, params: Value, result: Value| {
        s.wire.push(wire(
            Direction::Sent,
            json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}),
        ));
        s.wire.push(wire(
            Direction::Received,
            json!({"jsonrpc":"2.0","id":id,"result":result}),
        ));
    };
    ex(
        1,
        "initialize",
        json!({"protocolVersion":"2025-11-25"}),
        json!({"protocolVersion":"2025-11-25","serverInfo":{"name":"w","version":"1"},"capabilities":{"tools":{}}}),
    );
    ex(
        2,
        "tools/list",
        json!({}),
        json!({"tools":[{"name":"get_weather"}],"nextCursor":"p2"}),
    );
    ex(
        3,
        "tools/list",
        json!({"cursor":"p2"}),
        json!({"tools":[{"name":"add"}]}),
    );
    let w = |t: &str| json!({"content":[{"type":"text","text":t}]});
    ex(
        4,
        "tools/call",
        json!({"name":"get_weather","arguments":{"city":"Austin","units":"F"}}),
        w("91F"),
    );
    ex(
        5,
        "tools/call",
        json!({"name":"get_weather","arguments":{"units":"F","city":"Austin"}}),
        w("92F"),
    );
    ex(
        6,
        "tools/call",
        json!({"name":"add","arguments":{"a":1,"b":2}}),
        w("3"),
    );
    s
}

fn ask(m: &mut Mock, id: u64, method: &str, params: Value) -> Value {
    let text = json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}).to_string();
    let out = m.handle_text(&text);
    assert_eq!(out.len(), 1, "{out:?}");
    serde_json::from_str(&out[0]).unwrap()
}

#[test]
fn the_handshake_and_the_pages_are_answered_as_recorded() {
    let mut m = Mock::new(&session()).unwrap();
    let init = ask(
        &mut m,
        7,
        "initialize",
        json!({"protocolVersion":"2025-06-18"}),
    );
    assert_eq!(init["id"], 7);
    assert_eq!(init["result"]["serverInfo"]["name"], "w");
    let p1 = ask(&mut m, 8, "tools/list", json!({}));
    assert_eq!(p1["result"]["nextCursor"], "p2");
    let p2 = ask(
        &mut m,
        9,
        "tools/list",
        json!({"cursor":"p2","_meta":{"x":1}}),
    );
    assert_eq!(p2["result"]["tools"][0]["name"], "add");
    let bad = ask(&mut m, 10, "tools/list", json!({"cursor":"p3"}));
    assert_eq!(bad["error"]["code"], UNRECORDED_CALL);
}

#[test]
fn identical_calls_get_their_answers_in_order_then_the_last_repeats() {
    let mut m = Mock::new(&session()).unwrap();
    let args = json!({"name":"get_weather","arguments":{"units":"F","city":"Austin"}});
    let text = |v: &Value| v["result"]["content"][0]["text"].clone();
    assert_eq!(text(&ask(&mut m, 1, "tools/call", args.clone())), "91F");
    assert_eq!(text(&ask(&mut m, 2, "tools/call", args.clone())), "92F");
    assert_eq!(text(&ask(&mut m, 3, "tools/call", args)), "92F");
    assert_eq!(m.calls().len(), 2, "the same call counts once");
}

#[test]
fn an_unrecorded_call_names_the_nearest_recorded_one() {
    let mut m = Mock::new(&session()).unwrap();
    let r = ask(
        &mut m,
        1,
        "tools/call",
        json!({"name":"get_weather","arguments":{"city":"Paris","units":"F"}}),
    );
    assert_eq!(r["error"]["code"], UNRECORDED_CALL);
    let msg = r["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains(r#"nearest recorded: get_weather {"city":"Austin","units":"F"}"#),
        "{msg}"
    );
    // Another tool: the closest name.
    let r = ask(&mut m, 2, "tools/call", json!({"name":"ad","arguments":{}}));
    assert_eq!(r["error"]["data"]["nearest"]["name"], "add");
}

#[test]
fn unknown_methods_notifications_and_junk() {
    let mut m = Mock::new(&session()).unwrap();
    assert_eq!(
        ask(&mut m, 1, "resources/list", json!({}))["error"]["code"],
        METHOD_NOT_FOUND
    );
    assert_eq!(ask(&mut m, 2, "ping", json!({}))["result"], json!({}));
    assert_eq!(
        ask(&mut m, 3, "logging/setLevel", json!({"level": "info"}))["result"],
        json!({})
    );
    assert!(
        m.handle_text(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
            .is_empty()
    );
    assert!(m.handle_text("").is_empty());
    let junk: Value = serde_json::from_str(&m.handle_text("{oops")[0]).unwrap();
    assert_eq!(junk["error"]["code"], PARSE_ERROR);
}

#[test]
fn an_unanswered_request_and_an_elided_session() {
    let mut s = session();
    s.wire.push(wire(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":99,"method":"prompts/list"}),
    ));
    let mut m = Mock::new(&s).unwrap();
    assert_eq!(
        ask(&mut m, 1, "prompts/list", Value::Null)["error"]["code"],
        NO_RECORDED_ANSWER
    );
    s.wire[1].text = None;
    assert_eq!(Mock::new(&s).unwrap_err(), SnapshotError::Elided(1));
}

#[test]
fn nearest_prefers_the_same_tool_and_fewest_differences() {
    let c = |n: &str, a: Value| RecordedCall {
        name: n.into(),
        arguments: a.as_object().cloned().unwrap(),
    };
    let calls = [
        c("get_weather", json!({"city":"A","u":"F"})),
        c("get_weather", json!({"city":"B"})),
    ];
    let args = json!({"city":"B","u":"C"});
    let n = nearest_call(&calls, "get_weather", args.as_object().unwrap()).unwrap();
    assert_eq!(n.call, &calls[1]);
    assert!(n.same_tool);
    assert_eq!(n.distance, 1);
    assert!(nearest_call(&[], "x", &Map::new()).is_none());
}

#[test]
fn an_input_required_round_is_answered_then_the_retry_gets_the_result() {
    // 2026-07-28: the server asks in its answer; the client retries the same call
    // with `inputResponses` and `requestState`, which do not change the key.
    let mut s = Recording::new(Connection::Embedded);
    let call = |id: u64, extra: Value| {
        let mut p = json!({"name":"book","arguments":{"day":"mon"}});
        if let (Some(o), Value::Object(e)) = (p.as_object_mut(), extra) {
            o.extend(e);
        }
        wire(
            Direction::Sent,
            json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":p}),
        )
    };
    let asks = json!({"resultType":"input_required","inputRequests":{"q":{"method":"elicitation/create"}},"requestState":"s1"});
    let done = json!({"content":[{"type":"text","text":"booked"}]});
    s.wire.push(call(1, json!({})));
    s.wire.push(wire(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":1,"result":asks}),
    ));
    s.wire.push(call(
        2,
        json!({"inputResponses":{"q":{"action":"accept"}},"requestState":"s1"}),
    ));
    s.wire.push(wire(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":2,"result":done}),
    ));
    let mut m = Mock::new(&s).unwrap();
    let first = ask(
        &mut m,
        5,
        "tools/call",
        json!({"name":"book","arguments":{"day":"mon"}}),
    );
    assert_eq!(first["result"], asks);
    let retry = ask(
        &mut m,
        6,
        "tools/call",
        json!({"name":"book","arguments":{"day":"mon"},"inputResponses":{"q":{"action":"accept"}},"requestState":"s1"}),
    );
    assert_eq!(retry["result"], done);
}

#[test]
fn the_servers_recorded_questions_are_asked_again_before_the_answer() {
    // Up to 2025-11-25: during a call the server sent two requests of its own.
    let mut s = Recording::new(Connection::Embedded);
    let q = |id: &str, method: &str| json!({"jsonrpc":"2.0","id":id,"method":method,"params":{"message":"party?"}});
    s.wire.push(wire(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reserve","arguments":{}}}),
    ));
    s.wire
        .push(wire(Direction::Received, q("s-1", "elicitation/create")));
    s.wire.push(wire(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":"s-1","result":{"action":"accept"}}),
    ));
    s.wire
        .push(wire(Direction::Received, q("s-2", "roots/list")));
    s.wire.push(wire(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":"s-2","result":{"roots":[]}}),
    ));
    s.wire.push(wire(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":1,"result":{"content":[]}}),
    ));
    let snapshot = crate::diff::Snapshot::from_recording(&s).unwrap();
    assert_eq!(snapshot.calls.len(), 1, "questions are not calls");

    let mut m = Mock::new(&s).unwrap();
    let call = json!({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"reserve"}});
    let first: Value = serde_json::from_str(&m.handle_text(&call.to_string())[0]).unwrap();
    assert_eq!(first["method"], "elicitation/create");
    assert_eq!(first["id"], "mock-1");
    // A stray answer to no question of ours changes nothing.
    assert!(
        m.handle_text(r#"{"jsonrpc":"2.0","id":"x","result":{}}"#)
            .is_empty()
    );
    let second: Value = serde_json::from_str(
        &m.handle_text(r#"{"jsonrpc":"2.0","id":"mock-1","result":{"action":"decline"}}"#)[0],
    )
    .unwrap();
    assert_eq!(second["method"], "roots/list");
    let answer: Value = serde_json::from_str(
        &m.handle_text(r#"{"jsonrpc":"2.0","id":"mock-2","result":{"roots":[]}}"#)[0],
    )
    .unwrap();
    assert_eq!(answer["id"], 9);
    assert_eq!(answer["result"], json!({"content":[]}));
}

#[test]
fn answers_held_for_unanswered_questions_are_bounded() {
    let mut s = Recording::new(Connection::Embedded);
    s.wire.push(wire(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"reserve","arguments":{}}}),
    ));
    s.wire.push(wire(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":"s-1","method":"roots/list"}),
    ));
    s.wire.push(wire(
        Direction::Sent,
        json!({"jsonrpc":"2.0","id":"s-1","result":{"roots":[]}}),
    ));
    s.wire.push(wire(
        Direction::Received,
        json!({"jsonrpc":"2.0","id":1,"result":{"content":[]}}),
    ));
    let mut m = Mock::new(&s).unwrap();
    let call = json!({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"reserve"}});
    for _ in 0..=MAX_HELD {
        m.handle(&call);
    }
    assert_eq!(m.held.len(), MAX_HELD);
    // The first question's answer was dropped; the newest still gets through.
    assert!(
        m.handle_text(r#"{"jsonrpc":"2.0","id":"mock-1","result":{"roots":[]}}"#)
            .is_empty()
    );
    let last = format!(
        r#"{{"jsonrpc":"2.0","id":"mock-{}","result":{{"roots":[]}}}}"#,
        MAX_HELD + 1
    );
    assert_eq!(m.handle_text(&last).len(), 1);
}
