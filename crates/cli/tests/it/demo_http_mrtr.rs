//! `mcpg demo --http --conformance`: a 2026-07-28 `input_required` round trip over
//! real HTTP, `mcpg` answering the fixture's form and retrying with the sealed
//! `requestState`; and the same state, edited, refused by raw HTTP.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

use serde_json::{Value, json};

use crate::asks_support::{answers, expect};
use crate::mcpg_run::mcpg;

const TOOL: &str = "test_input_required_result_request_state";

/// A running `mcpg demo --http 127.0.0.1:0 --conformance`, killed when dropped.
struct Conformance {
    child: Child,
    url: String,
    /// `127.0.0.1:PORT`.
    authority: String,
}

impl Conformance {
    fn start() -> Conformance {
        let (child, url, authority) =
            crate::mcpg_run::serving(&["demo", "--http", "127.0.0.1:0", "--conformance"]);
        Conformance {
            child,
            url,
            authority,
        }
    }

    /// A stateless `tools/call` of [`TOOL`] with `extra` params: the JSON-RPC reply.
    fn call(&self, extra: Value) -> Value {
        let mut params = json!({
            "name": TOOL,
            "arguments": {},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {"elicitation": {}},
            },
        });
        if let (Some(p), Value::Object(e)) = (params.as_object_mut(), extra) {
            p.extend(e);
        }
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
            .to_string();
        let mut s = TcpStream::connect(&self.authority).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n\
             Mcp-Method: tools/call\r\nMcp-Name: {TOOL}\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            self.authority,
            body.len()
        );
        s.write_all(head.as_bytes()).unwrap();
        let mut text = String::new();
        let _ = s.read_to_string(&mut text);
        let (_, reply) = text.split_once("\r\n\r\n").unwrap();
        // The JSON body, or the one `data:` line of an event stream.
        let json = reply
            .lines()
            .find_map(|l| l.strip_prefix("data:"))
            .unwrap_or(reply);
        serde_json::from_str(json.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
    }
}

impl Drop for Conformance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn mcpg_answers_an_input_required_round_and_the_sealed_state_comes_back() {
    let server = Conformance::start();
    let (_dir, file) = answers(r#"{"ok": true}"#);
    let r = mcpg(&[
        "tools",
        "call",
        TOOL,
        "--url",
        &server.url,
        "--protocol",
        "stateless",
        "--on-elicit",
        &file,
        "--verbose",
    ]);
    expect(
        &r,
        0,
        &["state-ok"],
        &["\"inputResponses\"", "\"requestState\":\"mcpgs1."],
    );
}

#[test]
fn an_edited_request_state_is_refused() {
    let server = Conformance::start();
    let first = server.call(json!({}));
    let result = &first["result"];
    assert_eq!(result["resultType"], "input_required", "{first}");
    let state = result["requestState"].as_str().unwrap().to_owned();
    let answers = json!({"confirm": {"action": "accept", "content": {"ok": true}}});

    let edited = server.call(json!({
        "inputResponses": answers,
        "requestState": format!("{state}-TAMPERED"),
    }));
    assert_eq!(edited["error"]["code"], -32602, "{edited}");

    let genuine = server.call(json!({"inputResponses": answers, "requestState": state}));
    let text = genuine["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("state-ok"), "{genuine}");
}
