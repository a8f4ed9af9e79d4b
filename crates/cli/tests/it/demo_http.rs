//! `mcpg demo --http`: the demo over Streamable HTTP on a loopback port, reached by
//! `mcpg` itself in both generations, and by raw HTTP for sessions, the GET stream
//! and bad input (each refused with its status, the server answering on after).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

use crate::mcpg_run::mcpg;

const INIT: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;
const BOTH: &str = "application/json, text/event-stream";

/// A running `mcpg demo --http 127.0.0.1:0`, killed when dropped.
pub(crate) struct Demo {
    child: Child,
    pub(crate) url: String,
    /// `127.0.0.1:PORT`.
    pub(crate) authority: String,
}

impl Demo {
    pub(crate) fn start() -> Demo {
        Demo::start_with(&[])
    }

    /// `mcpg demo --http 127.0.0.1:0` with `extra` flags.
    pub(crate) fn start_with(extra: &[&str]) -> Demo {
        let (child, url, authority) =
            crate::mcpg_run::serving(&[&["demo", "--http", "127.0.0.1:0"], extra].concat());
        Demo {
            child,
            url,
            authority,
        }
    }

    /// One request on its own connection; `headers` replace the defaults (a Host
    /// naming this server) by name.
    pub(crate) fn raw(&self, method: &str, headers: &[(&str, &str)], body: &[u8]) -> Reply {
        let mut s = TcpStream::connect(&self.authority).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut head = format!("{method} /mcp HTTP/1.1\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.authority));
        }
        for (n, v) in headers {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        ));
        s.write_all(head.as_bytes()).unwrap();
        // The server may answer (413) before it has read it all: write on the side.
        let mut w = s.try_clone().unwrap();
        let body = body.to_vec();
        let writer = std::thread::spawn(move || {
            let _ = w.write_all(&body);
        });
        let mut text = Vec::new();
        let _ = s.read_to_end(&mut text);
        let _ = writer.join();
        Reply::parse(&String::from_utf8_lossy(&text))
    }

    pub(crate) fn post(&self, extra: &[(&str, &str)], body: &str) -> Reply {
        let mut h = vec![("Content-Type", "application/json"), ("Accept", BOTH)];
        h.extend_from_slice(extra);
        self.raw("POST", &h, body.as_bytes())
    }

    /// A good request still gets its answer.
    fn still_serves(&self, after: &str) {
        let r = self.post(&[], INIT);
        assert_eq!(r.status, 200, "after {after}: {r:?}");
        assert!(r.body.contains("\"serverInfo\""), "after {after}: {r:?}");
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `s` until `want` has arrived (appending to `seen`).
pub(crate) fn read_until(s: &mut TcpStream, seen: &mut String, want: &str) {
    let mut buf = [0u8; 4096];
    while !seen.contains(want) {
        let n = s.read(&mut buf).unwrap();
        assert!(n > 0, "the stream ended before {want:?}: {seen:?}");
        seen.push_str(&String::from_utf8_lossy(&buf[..n]));
    }
}

#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Reply {
    fn parse(text: &str) -> Reply {
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or((text, ""));
        let mut lines = head.lines();
        let status = lines
            .next()
            .and_then(|l| l.split(' ').nth(1))
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status line: {text:?}"));
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
            .collect();
        Reply {
            status,
            headers,
            body: body.to_owned(),
        }
    }

    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

#[test]
fn prints_one_loopback_url() {
    let demo = Demo::start();
    assert!(demo.url.starts_with("http://127.0.0.1:"), "{}", demo.url);
    assert!(demo.url.ends_with("/mcp"), "{}", demo.url);
}

#[test]
fn mcpg_lists_and_calls_in_both_generations() {
    let demo = Demo::start();
    for version in ["2025-11-25", "2026-07-28"] {
        let r = mcpg(&[
            "tools",
            "list",
            "--url",
            &demo.url,
            "--protocol-version",
            version,
        ]);
        assert_eq!(r.code, 0, "{version}: {r:?}");
        assert_eq!(r.last_line(), "26 tools in 5 pages", "{version}: {r:?}");
        let r = mcpg(&[
            "tools",
            "call",
            "add_numbers",
            "--url",
            &demo.url,
            "--protocol-version",
            version,
            "--args",
            r#"{"a": 2, "b": 40}"#,
        ]);
        assert_eq!(r.code, 0, "{version}: {r:?}");
        assert_eq!(r.stdout.lines().next(), Some("42"), "{version}: {r:?}");
    }
    // The generation picked by `--protocol` instead of a version: the call
    // works in each, and the verbose wire log shows which one spoke.
    let (handshake, discover) = (r#""method":"initialize""#, r#""method":"server/discover""#);
    for (protocol, wire, not) in [
        ("initialize", handshake, discover),
        ("stateless", discover, handshake),
    ] {
        let r = mcpg(&["tools", "list", "--url", &demo.url, "--protocol", protocol]);
        assert_eq!(r.code, 0, "{protocol}: {r:?}");
        let r = mcpg(&[
            "tools",
            "call",
            "get_weather",
            "--url",
            &demo.url,
            "--protocol",
            protocol,
            "--args",
            r#"{"city": "Paris"}"#,
            "--verbose",
        ]);
        assert_eq!(r.code, 0, "{protocol}: {r:?}");
        assert_eq!(
            r.stdout.lines().next(),
            Some("Paris: 64F, light rain"),
            "{protocol}: {r:?}"
        );
        assert!(r.stderr.contains(wire), "{protocol}: {r:?}");
        assert!(!r.stderr.contains(not), "{protocol}: {r:?}");
    }
}

#[test]
fn a_session_has_its_stream_and_ends_with_delete() {
    let demo = Demo::start();
    let r = demo.post(&[], INIT);
    assert_eq!(r.status, 200, "{r:?}");
    let id = r.header("mcp-session-id").unwrap().to_owned();
    assert!(id.len() > 16, "{id}");
    let r = demo.post(&[("Mcp-Session-Id", &id)], LIST);
    assert_eq!(r.status, 200, "{r:?}");
    assert!(r.body.contains("get_weather"), "{r:?}");

    // The GET stream stays open: read its head and first event, then hang up.
    let mut s = TcpStream::connect(&demo.authority).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let get = format!(
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {id}\r\n\r\n",
        demo.authority
    );
    s.write_all(get.as_bytes()).unwrap();
    let mut seen = String::new();
    read_until(&mut s, &mut seen, ": stream open");
    assert!(seen.starts_with("HTTP/1.1 200"), "{seen}");
    assert!(
        seen.to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{seen}"
    );
    // News the session did not ask for comes on the stream, not in a response.
    let initialized = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
    assert_eq!(
        demo.post(&[("Mcp-Session-Id", &id)], initialized).status,
        202
    );
    let toggle = r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"toggle_bonus_tool","arguments":{}}}"#;
    let r = demo.post(&[("Mcp-Session-Id", &id)], toggle);
    assert!(r.status == 200 && !r.body.contains("list_changed"), "{r:?}");
    read_until(&mut s, &mut seen, "notifications/tools/list_changed");

    // Ending the session ends its stream (the chunked body's last chunk).
    let r = demo.raw("DELETE", &[("Mcp-Session-Id", &id)], b"");
    assert_eq!(r.status, 200, "{r:?}");
    read_until(&mut s, &mut seen, "\r\n0\r\n\r\n");
    let r = demo.post(&[("Mcp-Session-Id", &id)], LIST);
    assert_eq!(r.status, 404, "{r:?}");
    let r = demo.raw("DELETE", &[("Mcp-Session-Id", &id)], b"");
    assert_eq!(r.status, 404, "{r:?}");
    demo.still_serves("a DELETE");
}

#[test]
fn bad_input_gets_its_status_and_the_server_keeps_serving() {
    let demo = Demo::start();
    let r = demo.post(&[], "{this is not json");
    assert_eq!(r.status, 400, "{r:?}");
    assert!(r.body.contains("-32700"), "{r:?}");
    demo.still_serves("junk");

    let huge = vec![b' '; 5 << 20];
    let r = demo.raw(
        "POST",
        &[("Content-Type", "application/json"), ("Accept", BOTH)],
        &huge,
    );
    assert_eq!(r.status, 413, "{r:?}");
    demo.still_serves("a huge body");

    let r = demo.raw(
        "POST",
        &[("Content-Type", "text/plain"), ("Accept", BOTH)],
        INIT.as_bytes(),
    );
    assert_eq!(r.status, 415, "{r:?}");
    let r = demo.raw("POST", &[("Accept", BOTH)], INIT.as_bytes());
    assert_eq!(r.status, 415, "{r:?}");
    demo.still_serves("a wrong Content-Type");

    let r = demo.raw(
        "POST",
        &[
            ("Content-Type", "application/json"),
            ("Accept", "text/html"),
        ],
        INIT.as_bytes(),
    );
    assert_eq!(r.status, 406, "{r:?}");
    demo.still_serves("a bad Accept");

    let r = demo.post(&[("Origin", "https://evil.example")], INIT);
    assert_eq!(r.status, 403, "{r:?}");
    let own = format!("http://{}", demo.authority);
    assert_eq!(demo.post(&[("Origin", &own)], INIT).status, 200);
    demo.still_serves("a foreign Origin");

    for host in ["evil.example", "evil.example:80", "127.0.0.1:1"] {
        let r = demo.post(&[("Host", host)], INIT);
        assert_eq!(r.status, 421, "{host}: {r:?}");
    }
    let port = demo.authority.rsplit(':').next().unwrap();
    let local = format!("localhost:{port}");
    assert_eq!(demo.post(&[("Host", &local)], INIT).status, 200);
    demo.still_serves("a foreign Host");

    let r = demo.raw(
        "PUT",
        &[("Content-Type", "application/json")],
        INIT.as_bytes(),
    );
    assert_eq!(r.status, 405, "{r:?}");
    assert_eq!(r.header("allow"), Some("GET, POST, DELETE"), "{r:?}");
    demo.still_serves("a wrong method");
}

#[test]
fn a_non_loopback_address_is_refused() {
    let r = mcpg(&["demo", "--http", "0.0.0.0:0"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(r.error_line().contains("loopback only"), "{r:?}");
}
