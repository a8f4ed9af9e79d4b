//! `HttpDemo`, the demo on a real port, request by request: the checks in front
//! (Host, Origin, size, Content-Type, Accept, method) and sessions.

use mcpg_core::Timestamp;
use mcpg_demo_sse::{Answer, HttpDemo, HttpRequest, MAX_BODY, Push};
use serde_json::Value;

const T: Timestamp = Timestamp(1_000);
const HOST: &str = "127.0.0.1:8123";
const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const BOTH: &str = "application/json, text/event-stream";

fn demo() -> HttpDemo {
    HttpDemo::new(
        vec![HOST.into(), "localhost:8123".into()],
        vec!["http://127.0.0.1:8123".into()],
        "s-".into(),
    )
}

fn send(d: &mut HttpDemo, method: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    let mut all = vec![("Host", HOST)];
    all.extend_from_slice(headers);
    d.answer(
        T,
        &HttpRequest {
            method,
            path: "/mcp",
            headers: &all,
            body: body.as_bytes(),
        },
    )
}

fn post(d: &mut HttpDemo, extra: &[(&str, &str)], body: &str) -> Answer {
    let mut h = vec![("Content-Type", "application/json"), ("Accept", BOTH)];
    h.extend_from_slice(extra);
    send(d, "POST", &h, body)
}

fn header<'a>(a: &'a Answer, name: &str) -> Option<&'a str> {
    a.headers
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

fn rpc_code(a: &Answer) -> i64 {
    let v: Value = serde_json::from_str(&a.body).unwrap();
    v["error"]["code"].as_i64().unwrap()
}

#[test]
fn a_session_opens_answers_and_ends() {
    let mut d = demo();
    let a = post(&mut d, &[], INIT);
    assert_eq!(a.status, 200, "{a:?}");
    let id = header(&a, "mcp-session-id").unwrap().to_owned();
    assert_eq!(id, "s-0");
    let a = post(&mut d, &[("Mcp-Session-Id", &id)], LIST);
    assert_eq!(a.status, 200, "{a:?}");
    assert!(a.body.contains("\"tools\""), "{a:?}");
    let g = send(
        &mut d,
        "GET",
        &[("Accept", "text/event-stream"), ("mcp-session-id", &id)],
        "",
    );
    assert_eq!((g.status, g.stream.is_some()), (200, true), "{g:?}");
    assert_eq!(
        send(&mut d, "DELETE", &[("Mcp-Session-Id", &id)], "").status,
        200
    );
    assert_eq!(d.open_sessions(), 0);
    let a = post(&mut d, &[("Mcp-Session-Id", &id)], LIST);
    assert_eq!(a.status, 404, "{a:?}");
    assert_eq!(
        send(&mut d, "DELETE", &[("Mcp-Session-Id", &id)], "").status,
        404
    );
    let g = send(
        &mut d,
        "GET",
        &[("Accept", "text/event-stream"), ("mcp-session-id", &id)],
        "",
    );
    assert_eq!(g.status, 404);
}

#[test]
fn bad_input_gets_its_status_and_the_server_goes_on() {
    let mut d = demo();
    let a = post(&mut d, &[], "{not json");
    assert_eq!((a.status, rpc_code(&a)), (400, -32700), "{a:?}");
    let huge = "x".repeat(MAX_BODY + 1);
    assert_eq!(post(&mut d, &[], &huge).status, 413);
    assert_eq!(HttpDemo::too_large().status, 413);
    let a = send(
        &mut d,
        "POST",
        &[("Content-Type", "text/plain"), ("Accept", BOTH)],
        INIT,
    );
    assert_eq!(a.status, 415, "{a:?}");
    let a = send(&mut d, "POST", &[("Accept", BOTH)], INIT);
    assert_eq!(a.status, 415, "{a:?}");
    let a = send(
        &mut d,
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "text/html"),
        ],
        INIT,
    );
    assert_eq!(a.status, 406, "{a:?}");
    let a = send(
        &mut d,
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json"),
        ],
        INIT,
    );
    assert_eq!(a.status, 406, "{a:?}");
    let a = send(&mut d, "PUT", &[], INIT);
    assert_eq!(
        (a.status, header(&a, "allow")),
        (405, Some("GET, POST, DELETE"))
    );
    // A GET with no session: the stateless generation has no standalone stream.
    assert_eq!(
        send(&mut d, "GET", &[("Accept", "text/event-stream")], "").status,
        405
    );
    assert_eq!(
        send(&mut d, "GET", &[("Accept", "application/json")], "").status,
        406
    );
    assert_eq!(send(&mut d, "DELETE", &[], "").status, 400);
    // Wildcards count, and the parameters of a media type do not matter.
    let a = send(
        &mut d,
        "POST",
        &[
            ("Content-Type", "application/json; charset=utf-8"),
            ("Accept", "*/*"),
        ],
        INIT,
    );
    assert_eq!(a.status, 200, "{a:?}");
}

#[test]
fn dns_rebinding_is_refused() {
    let mut d = demo();
    let ok = [("Content-Type", "application/json"), ("Accept", BOTH)];
    let mut foreign = ok.to_vec();
    foreign.push(("Origin", "https://evil.example"));
    assert_eq!(send(&mut d, "POST", &foreign, INIT).status, 403);
    let mut own = ok.to_vec();
    own.push(("Origin", "http://127.0.0.1:8123"));
    assert_eq!(send(&mut d, "POST", &own, INIT).status, 200);
    let req = |host: &'static str| {
        [
            ("Host", host),
            ("Content-Type", "application/json"),
            ("Accept", BOTH),
        ]
    };
    for host in ["evil.example:8123", "127.0.0.1:9999", "evil.example"] {
        let h = req(host);
        let a = d.answer(
            T,
            &HttpRequest {
                method: "POST",
                path: "/mcp",
                headers: &h,
                body: INIT.as_bytes(),
            },
        );
        assert_eq!(a.status, 421, "{host}");
    }
    let h = req("LOCALHOST:8123");
    let a = d.answer(
        T,
        &HttpRequest {
            method: "POST",
            path: "/mcp",
            headers: &h,
            body: INIT.as_bytes(),
        },
    );
    assert_eq!(a.status, 200);
    let a = d.answer(
        T,
        &HttpRequest {
            method: "POST",
            path: "/other",
            headers: &h,
            body: INIT.as_bytes(),
        },
    );
    assert_eq!(a.status, 404);
}

#[test]
fn requests_without_a_session_are_the_stateless_generation() {
    let mut d = demo();
    let stamped = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let h = [
        ("MCP-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/list"),
    ];
    let a = post(&mut d, &h, stamped);
    assert_eq!(a.status, 200, "{a:?}");
    assert!(a.body.contains("\"tools\""), "{a:?}");
    assert_eq!(header(&a, "mcp-session-id"), None);
    assert_eq!(d.open_sessions(), 0);
}

#[test]
fn a_sessions_get_stream_carries_the_news_and_ends_with_the_session() {
    let mut d = demo();
    let id = header(&post(&mut d, &[], INIT), "mcp-session-id")
        .unwrap()
        .to_owned();
    let g = send(
        &mut d,
        "GET",
        &[("Accept", "text/event-stream"), ("Mcp-Session-Id", &id)],
        "",
    );
    let stream = g.stream.unwrap();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(
        post(&mut d, &[("Mcp-Session-Id", &id)], initialized).status,
        202
    );
    let toggle = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"toggle_bonus_tool","arguments":{}}}"#;
    let a = post(&mut d, &[("Mcp-Session-Id", &id)], toggle);
    assert_eq!(a.status, 200, "{a:?}");
    assert!(!a.body.contains("list_changed"), "{a:?}");
    match d.poll_push() {
        Some(Push::Chunk { stream: s, text }) => {
            assert_eq!(s, stream);
            assert!(text.contains("notifications/tools/list_changed"), "{text}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        send(&mut d, "DELETE", &[("Mcp-Session-Id", &id)], "").status,
        200
    );
    assert_eq!(d.poll_push(), Some(Push::End(stream)));
    assert_eq!(d.poll_push(), None);
}

#[test]
fn a_get_stream_resumes_with_last_event_id_and_replays_only_what_came_after() {
    let mut d = demo();
    let id = header(&post(&mut d, &[], INIT), "mcp-session-id")
        .unwrap()
        .to_owned();
    let get = |d: &mut HttpDemo, last: Option<&str>| {
        let mut h = vec![
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", id.as_str()),
        ];
        h.extend(last.map(|l| ("Last-Event-ID", l)));
        send(d, "GET", &h, "")
    };
    let first = get(&mut d, None).stream.unwrap();
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    post(&mut d, &[("Mcp-Session-Id", &id)], initialized);
    let toggle = |n: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{n},"method":"tools/call","params":{{"name":"toggle_bonus_tool","arguments":{{}}}}}}"#
        )
    };
    // Two changes go out on the GET stream, with ids 1 and 2.
    for n in [3, 4] {
        assert_eq!(
            post(&mut d, &[("Mcp-Session-Id", &id)], &toggle(n)).status,
            200
        );
    }
    let mut ids = Vec::new();
    while let Some(Push::Chunk { stream, text }) = d.poll_push() {
        assert_eq!(stream, first);
        assert!(text.contains("notifications/tools/list_changed"), "{text}");
        ids.push(text.lines().next().unwrap().to_owned());
    }
    assert_eq!(ids, ["id: 1", "id: 2"]);
    // The client saw only the first before the stream broke.
    d.handle_closed(first);
    let resumed = get(&mut d, Some("1"));
    assert_eq!(resumed.status, 200);
    assert!(
        resumed.body.contains("id: 2\nevent: message\n"),
        "{}",
        resumed.body
    );
    assert!(!resumed.body.contains("id: 1\n"), "{}", resumed.body);
    // An id this session never gave replays nothing; a fresh GET neither.
    assert!(!get(&mut d, Some("77")).body.contains("event:"));
    assert!(!get(&mut d, None).body.contains("event:"));
    // Another session's GET does not see this session's events.
    let other = header(&post(&mut d, &[], INIT), "mcp-session-id")
        .unwrap()
        .to_owned();
    let foreign = send(
        &mut d,
        "GET",
        &[
            ("Accept", "text/event-stream"),
            ("Mcp-Session-Id", &other),
            ("Last-Event-ID", "0"),
        ],
        "",
    );
    assert!(!foreign.body.contains("event:"), "{}", foreign.body);
}
