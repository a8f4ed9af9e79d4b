//! `mcpg demo --http --conformance`: the conformance suite's fixtures on a
//! loopback port instead of the lessons' demo, reached by `mcpg` itself in both
//! generations and by raw HTTP for a fixture that asks the client mid-call (its
//! stream stays open until the client's answer, POSTed on its own, comes back).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{Value, json};

use crate::demo_http::{Demo, read_until};
use crate::mcpg_run::mcpg;

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

fn conformance() -> Demo {
    Demo::start_with(&["--conformance"])
}

/// A session with the sampling capability; its id.
fn session(demo: &Demo) -> String {
    let r = demo.post(&[], INIT);
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("mcp-conformance-test-server"), "{r:?}");
    let id = r.header("mcp-session-id").unwrap().to_owned();
    assert_eq!(
        demo.post(&[("Mcp-Session-Id", &id)], INITIALIZED).status,
        202
    );
    id
}

#[test]
fn mcpg_calls_the_fixtures_in_both_generations() {
    let demo = conformance();
    for version in ["2025-11-25", "2026-07-28"] {
        let r = mcpg(&[
            "tools",
            "call",
            "test_simple_text",
            "--url",
            &demo.url,
            "--protocol-version",
            version,
        ]);
        assert_eq!(r.code, 0, "{version}: {r:?}");
        assert!(
            r.stdout
                .contains("This is a simple text response for testing."),
            "{version}: {r:?}"
        );
    }
}

#[test]
fn resources_and_prompts_are_the_fixtures() {
    let demo = conformance();
    let id = session(&demo);
    let read = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://template/42/data"}}"#;
    let r = demo.post(&[("Mcp-Session-Id", &id)], read);
    assert_eq!(r.status, 200, "{r:?}");
    let v: Value = serde_json::from_str(&r.body).unwrap();
    let text = v["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.contains("Data for ID: 42"), "{text}");
    let get = r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{"name":"test_prompt_with_arguments","arguments":{"arg1":"x","arg2":"y"}}}"#;
    let r = demo.post(&[("Mcp-Session-Id", &id)], get);
    assert!(
        r.body.contains("Prompt with arguments: arg1='x', arg2='y'"),
        "{r:?}"
    );
}

#[test]
fn a_fixture_that_asks_the_client_gets_its_answer_on_the_held_stream() {
    let demo = conformance();
    let id = session(&demo);
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_sampling","arguments":{"prompt":"Say hi"}}}"#;
    // The call's response on a connection of its own, read as it comes.
    let mut s = TcpStream::connect(&demo.authority).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: {id}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{call}",
        demo.authority,
        call.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    let mut seen = String::new();
    read_until(&mut s, &mut seen, "sampling/createMessage");
    read_until(&mut s, &mut seen, "\n\n");
    let question: Value = seen
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .map(|d| serde_json::from_str(d).unwrap())
        .find(|m: &Value| m["method"] == "sampling/createMessage")
        .unwrap();
    assert_eq!(
        question["params"]["messages"][0]["content"]["text"],
        "Say hi"
    );
    let reply = json!({"jsonrpc":"2.0","id":question["id"],"result":{
        "role":"assistant","content":{"type":"text","text":"hi there"},"model":"m"}});
    let r = demo.post(&[("Mcp-Session-Id", &id)], &reply.to_string());
    assert_eq!(r.status, 202, "{r:?}");
    read_until(&mut s, &mut seen, "LLM response: hi there");
}

#[test]
fn without_the_flag_the_lessons_demo_is_served() {
    let demo = Demo::start();
    let r = demo.post(&[], INIT);
    assert!(!r.body.contains("mcp-conformance-test-server"), "{r:?}");
    // The fixtures are for the HTTP face only: stdio stays the lessons' demo.
    let r = mcpg(&["demo", "--conformance"]);
    assert_ne!(r.code, 0, "{r:?}");
    assert!(r.stderr.contains("--http"), "{r:?}");
}
