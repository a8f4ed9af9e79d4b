//! The faces on their own, request by request.

use mcpg_core::Timestamp;
use mcpg_demo_sse::{
    Answer, MCP_URL, ORIGIN, Push, Request, SSE_URL, SseDemo, StreamId, is_in_page,
};
use serde_json::Value;

const T: Timestamp = Timestamp(1_000);

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn req<'a>(method: &'a str, url: &'a str, body: Option<&'a str>) -> Request<'a> {
    Request { method, url, body }
}

fn header<'a>(a: &'a Answer, name: &str) -> Option<&'a str> {
    a.headers
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

/// Opens a session: its stream and its POST URL (from the `endpoint` event).
fn open(demo: &mut SseDemo) -> (StreamId, String) {
    let a = demo.answer(T, &req("GET", SSE_URL, None));
    assert_eq!(a.status, 200);
    assert_eq!(header(&a, "content-type"), Some("text/event-stream"));
    let stream = a.stream.expect("the stream stays open");
    let path = a
        .body
        .strip_prefix("event: endpoint\r\ndata: ")
        .and_then(|r| r.strip_suffix("\r\n\r\n"))
        .unwrap_or_else(|| panic!("not an endpoint event: {:?}", a.body));
    (stream, format!("{ORIGIN}{path}"))
}

/// Every push waiting, in order.
fn pushes(demo: &mut SseDemo) -> Vec<Push> {
    std::iter::from_fn(|| demo.poll_push()).collect()
}

/// The JSON-RPC messages of the `message` events pushed on `stream`.
fn messages(pushed: &[Push], stream: StreamId) -> Vec<Value> {
    pushed
        .iter()
        .filter_map(|p| match p {
            Push::Chunk { stream: s, text } if *s == stream => Some(text),
            _ => None,
        })
        .map(|text| {
            let data = text
                .strip_prefix("event: message\r\ndata: ")
                .and_then(|r| r.strip_suffix("\r\n\r\n"))
                .unwrap_or_else(|| panic!("not a message event: {text:?}"));
            serde_json::from_str(data).unwrap()
        })
        .collect()
}

#[test]
fn the_origin_is_matched_exactly() {
    assert!(is_in_page(SSE_URL) && is_in_page(MCP_URL) && is_in_page(ORIGIN));
    assert!(is_in_page(
        "https://mcp.demo-sse.invalid/messages/?session_id=ab"
    ));
    for other in [
        "https://mcp.demo-sse.invalid.example.com/sse",
        "https://mcp.demo-sse.invalid:8443/sse",
        "http://mcp.demo-sse.invalid/sse",
        "https://mcp.demo-oauth.invalid/mcp",
    ] {
        assert!(!is_in_page(other), "{other}");
    }
    let mut demo = SseDemo::new();
    let a = demo.answer(T, &req("GET", "https://elsewhere.invalid/sse", None));
    assert_eq!(a.status, 404);
    assert_eq!(demo.open_sessions(), 0);
}

#[test]
fn a_post_to_the_stream_endpoint_is_405_as_with_the_sdk() {
    let mut demo = SseDemo::new();
    let a = demo.answer(T, &req("POST", SSE_URL, Some(INIT)));
    assert_eq!(a.status, 405);
    assert_eq!(header(&a, "allow"), Some("GET"));
    assert_eq!(a.stream, None);
    assert_eq!(demo.open_sessions(), 0, "a refused POST opens nothing");
}

#[test]
fn the_stream_names_a_session_endpoint_and_answers_arrive_on_it() {
    let mut demo = SseDemo::new();
    let (stream, post) = open(&mut demo);
    let id = post
        .strip_prefix("https://mcp.demo-sse.invalid/messages/?session_id=")
        .unwrap();
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    assert!(pushes(&mut demo).is_empty(), "nothing before a message");

    let a = demo.answer(T, &req("POST", &post, Some(INIT)));
    assert_eq!(
        (a.status, a.body.as_str(), a.stream),
        (202, "Accepted", None)
    );
    let got = messages(&pushes(&mut demo), stream);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0]["id"], 1);
    assert_eq!(
        got[0]["result"]["protocolVersion"], "2024-11-05",
        "the old transport's server speaks its revision, whatever was asked"
    );

    let a = demo.answer(T, &req("POST", &post, Some(INITIALIZED)));
    assert_eq!(a.status, 202);
    assert!(pushes(&mut demo).is_empty(), "a notification has no answer");

    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Paris"}}}"#;
    let a = demo.answer(T, &req("POST", &post, Some(call)));
    assert_eq!(a.status, 202);
    assert!(
        a.body == "Accepted",
        "the POST's own body carries no answer"
    );
    let got = messages(&pushes(&mut demo), stream);
    assert_eq!(got[0]["id"], 2);
    let text = got[0]["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("Paris"), "{text}");
}

#[test]
fn a_slow_call_sends_its_progress_then_its_answer_on_the_stream() {
    let mut demo = SseDemo::new();
    let (stream, post) = open(&mut demo);
    demo.answer(T, &req("POST", &post, Some(INIT)));
    demo.answer(T, &req("POST", &post, Some(INITIALIZED)));
    pushes(&mut demo);
    let call = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"count_slowly","arguments":{"to":3,"step_ms":100},"_meta":{"progressToken":"p"}}}"#;
    assert_eq!(demo.answer(T, &req("POST", &post, Some(call))).status, 202);
    let got = messages(&pushes(&mut demo), stream);
    let progress = got
        .iter()
        .filter(|m| m["method"] == "notifications/progress")
        .count();
    assert!(progress >= 2, "{got:?}");
    assert_eq!(
        got.last().unwrap()["id"],
        3,
        "the answer comes last: {got:?}"
    );
}

#[test]
fn sessions_are_apart_and_refusals_say_why() {
    let mut demo = SseDemo::new();
    let (s1, p1) = open(&mut demo);
    let (s2, p2) = open(&mut demo);
    assert_ne!(s1, s2);
    assert_ne!(p1, p2);
    assert_eq!(demo.open_sessions(), 2);
    demo.answer(T, &req("POST", &p2, Some(INIT)));
    let pushed = pushes(&mut demo);
    assert!(messages(&pushed, s1).is_empty());
    assert_eq!(messages(&pushed, s2).len(), 1);

    let base = "https://mcp.demo-sse.invalid/messages/";
    let cases = [
        (base.to_owned(), 400, "session_id is required"),
        (
            format!("{base}?session_id=nothex"),
            400,
            "Invalid session ID",
        ),
        (
            format!("{base}?session_id={}", "0".repeat(32)),
            404,
            "Could not find session",
        ),
    ];
    for (url, status, body) in cases {
        let a = demo.answer(T, &req("POST", &url, Some(INIT)));
        assert_eq!((a.status, a.body.as_str()), (status, body), "{url}");
    }
    let a = demo.answer(T, &req("POST", &p1, Some("{not json")));
    assert_eq!(
        (a.status, a.body.as_str()),
        (400, "Could not parse message")
    );
    let a = demo.answer(T, &req("GET", &p1, None));
    assert_eq!(a.status, 405);
    assert!(pushes(&mut demo).is_empty(), "no refusal reaches a stream");
}

#[test]
fn a_closed_stream_ends_its_session_and_what_it_had_not_sent() {
    let mut demo = SseDemo::new();
    let (stream, post) = open(&mut demo);
    demo.answer(T, &req("POST", &post, Some(INIT)));
    // The answer waits to go out; the client drops the stream first.
    demo.handle_closed(stream);
    assert!(
        pushes(&mut demo).is_empty(),
        "the answer is lost with the stream"
    );
    assert_eq!(demo.open_sessions(), 0);
    let a = demo.answer(T, &req("POST", &post, Some(INITIALIZED)));
    assert_eq!(a.status, 404, "the session is gone");
}

#[test]
fn a_stream_the_server_cuts_ends_with_a_push_and_loses_its_answers() {
    let mut demo = SseDemo::new();
    let (stream, post) = open(&mut demo);
    let (other, _) = open(&mut demo);
    demo.answer(T, &req("POST", &post, Some(INIT)));
    demo.cut(stream);
    assert_eq!(pushes(&mut demo), vec![Push::End(stream)]);
    assert_eq!(demo.answer(T, &req("POST", &post, Some(INIT))).status, 404);
    demo.cut(stream);
    assert!(pushes(&mut demo).is_empty(), "cut once");
    assert_eq!(demo.open_sessions(), 1, "{other:?} stays");
}

#[test]
fn sessions_are_bounded_the_oldest_stream_ends() {
    let mut demo = SseDemo::new();
    let (first, _) = open(&mut demo);
    for _ in 0..8 {
        open(&mut demo);
    }
    assert_eq!(demo.open_sessions(), 8);
    assert_eq!(pushes(&mut demo), vec![Push::End(first)]);
}

#[test]
fn the_streamable_face_answers_each_post_itself() {
    let mut demo = SseDemo::new();
    let a = demo.answer(T, &req("POST", MCP_URL, Some(INIT)));
    assert_eq!(a.status, 200);
    assert_eq!(a.stream, None);
    assert_eq!(header(&a, "content-type"), Some("application/json"));
    let v: Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["id"], 1);
    assert_eq!(v["result"]["protocolVersion"], "2025-11-25");
    assert_eq!(
        demo.answer(T, &req("POST", MCP_URL, Some(INITIALIZED)))
            .status,
        202
    );
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather","arguments":{"city":"Tokyo"}}}"#;
    let a = demo.answer(T, &req("POST", MCP_URL, Some(call)));
    let v: Value = serde_json::from_str(&a.body).unwrap();
    assert!(
        v["result"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Tokyo")
    );
    assert!(pushes(&mut demo).is_empty(), "nothing goes elsewhere");
    assert_eq!(demo.answer(T, &req("GET", MCP_URL, None)).status, 405);
    assert_eq!(
        demo.answer(T, &req("POST", MCP_URL, Some("[]"))).status,
        400
    );
}

#[test]
fn the_streamable_face_cannot_carry_a_question_of_the_server() {
    let mut demo = SseDemo::new();
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}"#;
    demo.answer(T, &req("POST", MCP_URL, Some(init)));
    demo.answer(T, &req("POST", MCP_URL, Some(INITIALIZED)));
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"show_roots","arguments":{}}}"#;
    let a = demo.answer(T, &req("POST", MCP_URL, Some(call)));
    let v: Value = serde_json::from_str(&a.body).unwrap();
    assert_eq!(v["id"], 2);
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .contains("embedded demo")
    );
}
