//! `mcpg mock SESSION --http 127.0.0.1:0`: the recorded session over Streamable
//! HTTP. `mcpg replay` against it finds no difference, an unrecorded call names
//! the nearest recorded one, the server's recorded question is asked again on the
//! call's event stream, and hostile requests (a foreign Origin, a junk body) get
//! their status while the server keeps serving.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

use mcpg_core::client::{ClientConfig, GenerationMode};

use crate::mcpg_run::mcpg;
use crate::mock::{asks_session, write};
use crate::replay::record_with;

/// A running `mcpg mock FILE --http 127.0.0.1:0`, killed when dropped.
pub(crate) struct Served {
    child: Child,
    pub(crate) url: String,
    authority: String,
}

impl Served {
    pub(crate) fn start(file: &str) -> Served {
        let (child, url, authority) =
            crate::mcpg_run::serving(&["mock", file, "--http", "127.0.0.1:0"]);
        Served {
            child,
            url,
            authority,
        }
    }

    /// One POST on its own connection (closed after): the status and the body.
    fn post(&self, extra: &[(&str, &str)], body: &str) -> (u16, String) {
        let mut s = TcpStream::connect(&self.authority).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        let mut head = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nConnection: close\r\n",
            self.authority
        );
        for (n, v) in extra {
            head.push_str(&format!("{n}: {v}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        s.write_all(head.as_bytes()).unwrap();
        s.write_all(body.as_bytes()).unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        let status = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("no status in {text:?}"));
        (status, text)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A demo session recorded in `mode`, written to a file (kept while the dir lives).
pub(crate) fn recorded(mode: GenerationMode) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        dir.path(),
        "s.json",
        &record_with(ClientConfig {
            mode,
            ..ClientConfig::default()
        }),
    );
    (dir, file)
}

#[test]
fn replay_against_the_mock_over_http_finds_no_difference() {
    for (mode, protocol) in [
        (GenerationMode::Initialize, "initialize"),
        (GenerationMode::Stateless, "stateless"),
    ] {
        let (_dir, file) = recorded(mode);
        let served = Served::start(&file);
        let r = mcpg(&[
            "replay",
            &file,
            "--url",
            &served.url,
            "--protocol",
            protocol,
        ]);
        assert_eq!(r.code, 0, "{protocol}: {r:?}");
        assert!(
            r.stdout.contains(" in 5 pages recorded"),
            "{protocol}: {r:?}"
        );
        assert!(
            r.stdout
                .trim_end()
                .ends_with("3 steps replayed, 0 differences"),
            "{protocol}: {r:?}"
        );
    }
}

#[test]
fn an_unrecorded_call_over_http_names_the_nearest() {
    let (_dir, file) = recorded(GenerationMode::Initialize);
    let served = Served::start(&file);
    let call = |city: &str| {
        mcpg(&[
            "tools",
            "call",
            "get_weather",
            "--url",
            &served.url,
            "--protocol",
            "initialize",
            "--args",
            &format!(r#"{{"city":"{city}"}}"#),
        ])
    };
    let r = call("Paris");
    assert_ne!(r.code, 0, "{r:?}");
    assert!(
        r.stderr
            .contains(r#"nearest recorded: get_weather {"city":"Austin"}"#),
        "{r:?}"
    );
    let r = call("Austin");
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("Austin: 91F, sunny"), "{r:?}");
}

#[test]
fn the_recorded_question_is_asked_again_on_the_calls_stream() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(dir.path(), "asks.json", &asks_session());
    let served = Served::start(&file);
    let r = mcpg(&[
        "tools",
        "call",
        "reserve_table",
        "--url",
        &served.url,
        "--protocol",
        "initialize",
        "--on-elicit",
        "decline",
        "--verbose",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.contains("server asks (elicitation/create)"),
        "{r:?}"
    );
    assert!(
        r.stdout.contains("Pretend-booked a table for 4 at 19:30"),
        "{r:?}"
    );
}

#[test]
fn hostile_requests_get_their_status_and_the_mock_serves_on() {
    let (_dir, file) = recorded(GenerationMode::Initialize);
    let served = Served::start(&file);
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let (status, _) = served.post(&[("Origin", "http://evil.example")], init);
    assert_eq!(status, 403);
    let (status, text) = served.post(&[], "{this is not json");
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("-32700"), "{text}");
    let (status, text) = served.post(&[], init);
    assert_eq!(status, 200, "{text}");
    assert!(
        text.to_ascii_lowercase().contains("mcp-session-id:"),
        "{text}"
    );
    // And a whole client still gets through.
    let r = mcpg(&[
        "tools",
        "list",
        "--url",
        &served.url,
        "--protocol",
        "initialize",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
}
