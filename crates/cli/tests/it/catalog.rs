//! `mcpg resources`, `prompts`, `complete` and `--log-level` against the real
//! peers: server-everything over stdio and Streamable HTTP, and the Python SDK
//! peer in both generations. (The hostile and paged fixture is `catalog_fixture.rs`.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::peers;

use crate::mcpg_run;

use mcpg_run::{Stream, interrupt_when, mcpg};
use peers::Peer;
use serde_json::Value;

const ARCHITECTURE: &str = "demo://resource/static/document/architecture.md";

/// `--stdio` value for a peer, or `None` (skipped).
fn stdio(peer: Peer) -> Option<String> {
    let (program, args) = peers::stdio_command(peer)?;
    Some(peers::shell_line(&program, &args))
}

/// `mcpg resources subscribe ARCHITECTURE` over `conn`, with `extra` flags.
fn subscribe(conn: &[&str], extra: &[&str]) -> mcpg_run::Run {
    mcpg(&[&["resources", "subscribe", ARCHITECTURE][..], conn, extra].concat())
}

/// `["--stdio", CMD]` and `["--url", URL]` for server-everything (the HTTP peer
/// stays alive as long as the returned guard).
fn everything_both() -> Option<(String, peers::HttpPeer)> {
    let line = stdio(Peer::Everything)?;
    let http = peers::start_http(Peer::Everything)?;
    Some((line, http))
}

#[test]
fn everything_resources_over_stdio_and_http() {
    let Some((line, http)) = everything_both() else {
        return;
    };
    for conn in [["--stdio", line.as_str()], ["--url", http.url.as_str()]] {
        let r = mcpg(&[&["resources", "list"][..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.last_line(), "7 resources in 1 page");
        assert!(r.stdout.starts_with("--- page 1 of 1 (7 resources) ---\n"));
        assert!(
            r.stdout
                .contains(&format!("<{ARCHITECTURE}> architecture.md [text/markdown]")),
            "{}",
            r.stdout
        );
        assert_eq!(r.stderr, "");

        let r = mcpg(&[&["resources", "list", "--json"][..], &conn].concat());
        let all: Value = serde_json::from_str(&r.stdout).unwrap();
        let uris: Vec<&str> = all
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["uri"].as_str().unwrap())
            .collect();
        assert_eq!(uris.len(), 7);
        assert!(
            uris.iter()
                .all(|u| u.starts_with("demo://resource/static/document/"))
        );

        let r = mcpg(&[&["resources", "templates"][..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.last_line(), "2 templates in 1 page");
        assert!(r.stdout.contains(
            "<demo://resource/dynamic/text/{resourceId}> Dynamic Text Resource [text/plain]"
        ));

        let r = mcpg(
            &[
                &["resources", "read", "demo://resource/dynamic/text/3"][..],
                &conn,
            ]
            .concat(),
        );
        assert_eq!(r.code, 0, "{r:?}");
        assert!(
            r.stdout
                .starts_with("Resource 3: This is a plaintext resource"),
            "{r:?}"
        );

        // A blob is summarized as its type and size, never printed.
        let blob = "demo://resource/dynamic/blob/3";
        let r = mcpg(&[&["resources", "read", blob][..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert!(
            r.stdout.starts_with(&format!("[resource <{blob}> ")),
            "{r:?}"
        );
        assert!(r.stdout.trim_end().ends_with(" bytes]"), "{r:?}");
        let r = mcpg(&[&["resources", "read", blob, "--json"][..], &conn].concat());
        let raw: Value = serde_json::from_str(&r.stdout).unwrap();
        assert!(raw["contents"][0]["blob"].is_string(), "{raw}");

        // An unknown resource is a JSON-RPC error: exit 3, one line.
        let r = mcpg(&[&["resources", "read", "demo://nope"][..], &conn].concat());
        assert_eq!(r.code, 3, "{r:?}");
        assert!(r.error_line().contains("resources/read"), "{r:?}");
    }
}

#[test]
fn everything_prompts_and_completions_over_stdio_and_http() {
    let Some((line, http)) = everything_both() else {
        return;
    };
    for conn in [["--stdio", line.as_str()], ["--url", http.url.as_str()]] {
        let r = mcpg(&[&["prompts", "list"][..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.last_line(), "4 prompts in 1 page");
        assert!(r.stdout.contains(
            "completable-prompt (Team Management): First argument choice narrows values for second argument.\n  arguments: department (required), name (required)\n"
        ), "{}", r.stdout);

        let r = mcpg(
            &[
                &[
                    "prompts",
                    "get",
                    "args-prompt",
                    "--args",
                    r#"{"city":"Austin"}"#,
                ][..],
                &conn,
            ]
            .concat(),
        );
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.stdout, "[user]\nWhat's weather in Austin?\n");

        let r = mcpg(&[&["prompts", "get", "nope"][..], &conn].concat());
        assert_eq!(r.code, 3, "{r:?}");

        let r = mcpg(
            &[
                &[
                    "complete",
                    "--prompt",
                    "completable-prompt",
                    "department",
                    "E",
                ][..],
                &conn,
            ]
            .concat(),
        );
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.stdout, "Engineering\n");

        // The department already chosen narrows the names (context arguments).
        let args = [
            "complete",
            "--prompt",
            "completable-prompt",
            "name",
            "",
            "--context",
            r#"{"department":"Engineering"}"#,
            "--json",
        ];
        let r = mcpg(&[&args[..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        let raw: Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(
            raw["completion"]["values"],
            serde_json::json!(["Alice", "Bob", "Charlie"])
        );
    }
}

#[test]
fn subscribe_prints_updates_over_stdio_and_http() {
    let Some((line, http)) = everything_both() else {
        return;
    };
    // server-everything sends updates only once `toggle-subscriber-updates` ran in
    // the same session: one at once, then one every 5 s.
    let updates = ["--call", "toggle-subscriber-updates", "--count"];
    let r = subscribe(&["--stdio", &line], &[&updates[..], &["2"]].concat());
    assert_eq!(r.code, 0, "{r:?}");
    let expected = format!(
        "subscribed to {ARCHITECTURE}; updates follow until Ctrl-C\ncalled toggle-subscriber-updates\nupdated {ARCHITECTURE}\nupdated {ARCHITECTURE}\nunsubscribed after 2 updates\n"
    );
    assert_eq!(r.stdout, expected);
    assert_eq!(r.stderr, "");

    let r = subscribe(
        &["--url", &http.url],
        &[&updates[..], &["1", "--json", "--log-level", "info"]].concat(),
    );
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stdout, format!("{{\"uri\":\"{ARCHITECTURE}\"}}\n"));
    // Log messages over HTTP too (this server names the session in them).
    let subscribed = format!(
        "log info: Received Subscribe Resource request for URI: {ARCHITECTURE} from session "
    );
    assert!(r.stderr.starts_with(&subscribed), "{r:?}");
}

#[test]
fn log_level_prints_each_server_message_on_one_stderr_line() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    // Simulated logging sends a message of a random level every 5 s; the second
    // update comes 5 s after the first, so at least one arrives in between.
    let logging = ["--call", "toggle-simulated-logging", "--log-level", "debug"];
    let updates = ["--call", "toggle-subscriber-updates", "--count", "2"];
    let r = subscribe(&["--stdio", &line], &[&logging[..], &updates].concat());
    assert_eq!(r.code, 0, "{r:?}");
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert!(lines.iter().all(|l| l.starts_with("log ")), "{lines:?}");
    assert_eq!(
        lines[0],
        format!("log info: Received Subscribe Resource request for URI: {ARCHITECTURE} ")
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("message") && !l.contains("Received")),
        "a simulated message: {lines:?}"
    );
    // Printed until the connection closes (a simulated message may still follow).
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("log info: Received Unsubscribe Resource request")),
        "{lines:?}"
    );
    // Every level the server used is one of the 8.
    let levels = [
        "debug",
        "info",
        "notice",
        "warning",
        "error",
        "critical",
        "alert",
        "emergency",
    ];
    for l in &lines {
        let level = l["log ".len()..].split(':').next().unwrap();
        assert!(levels.contains(&level), "{l}");
    }

    // A level too high for the subscription notice: no log lines at all.
    let r = mcpg(&[
        "resources",
        "list",
        "--stdio",
        &line,
        "--log-level",
        "emergency",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stderr, "");
}

#[test]
fn subscribe_ends_cleanly_on_ctrl_c() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let args = [
        "resources",
        "subscribe",
        "--stdio",
        &line,
        ARCHITECTURE,
        "--verbose",
    ];
    let r = interrupt_when(&args, Stream::Out, "subscribed to");
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        format!(
            "subscribed to {ARCHITECTURE}; updates follow until Ctrl-C\nunsubscribed after 0 updates\n"
        )
    );
    // It unsubscribed and was answered, then closed the server: the server did
    // not die of the signal before that (it has a process group of its own).
    assert!(
        r.stderr.contains(r#""method":"resources/unsubscribe""#),
        "{r:?}"
    );
    assert!(!r.stderr.contains("SIGINT"), "{r:?}");
    assert!(
        r.stderr.lines().last().unwrap().starts_with("transport: "),
        "{r:?}"
    );
}

#[test]
fn python_peer_resource_template_prompt_and_completions() {
    let Some(line) = stdio(Peer::Python) else {
        return;
    };
    let Some(http) = peers::start_http(Peer::Python) else {
        return;
    };
    // Auto picks 2026-07-28 (the peer's only stateless revision); `--protocol
    // initialize` the classic handshake.
    let conns: [&[&str]; 3] = [
        &["--stdio", &line],
        &["--stdio", &line, "--protocol", "initialize"],
        &["--url", &http.url],
    ];
    for conn in conns {
        let r = mcpg(&[&["resources", "list"][..], conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(
            r.stdout,
            "--- page 1 of 1 (1 resource) ---\n<note://python/readme> readme (Read me) [text/plain]: A short text note.\n1 resource in 1 page\n"
        );
        let r = mcpg(&[&["resources", "read", "note://python/readme"][..], conn].concat());
        assert_eq!(
            r.stdout, "Hello from the Python peer.\nSecond line.\n",
            "{r:?}"
        );

        let r = mcpg(&[&["resources", "templates"][..], conn].concat());
        assert!(
            r.stdout.contains(
                "<greeting://{name}> greeting [text/plain]: A greeting for the given name.\n"
            ),
            "{r:?}"
        );
        let r = mcpg(&[&["resources", "read", "greeting://bob"][..], conn].concat());
        assert_eq!(r.stdout, "Hello, bob!\n", "{r:?}");

        let r = mcpg(&[&["prompts", "list"][..], conn].concat());
        assert!(r.stdout.contains("review: Ask for a review of a piece of code.\n  arguments: code (required), language\n"), "{r:?}");
        let r = mcpg(
            &[
                &[
                    "prompts",
                    "get",
                    "review",
                    "--args",
                    r#"{"code":"x = 1","language":"rust"}"#,
                ][..],
                conn,
            ]
            .concat(),
        );
        assert_eq!(
            r.stdout,
            "description: Ask for a review of a piece of code.\n[user]\nPlease review this rust code:\nx = 1\n",
            "{r:?}"
        );

        let r = mcpg(
            &[
                &["complete", "--prompt", "review", "language", "r"][..],
                conn,
            ]
            .concat(),
        );
        assert_eq!(r.stdout, "rust\nruby\n", "{r:?}");
        let r = mcpg(
            &[
                &["complete", "--template", "greeting://{name}", "name", "al"][..],
                conn,
            ]
            .concat(),
        );
        assert_eq!(r.stdout, "alice\nalex\n", "{r:?}");
    }

    // Subscriptions: `subscriptions/listen`, acknowledged, under 2026-07-28 (stdio
    // and HTTP); the classic handshake declares `subscribe: false` and the SDK
    // has no `resources/subscribe`: a JSON-RPC error, exit 3.
    for conn in [conns[0], conns[2]] {
        let args = [
            "resources",
            "subscribe",
            "note://python/readme",
            "--count",
            "0",
        ];
        let r = mcpg(&[&args[..], conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.last_line(), "unsubscribed after 0 updates");
    }
    let args = [
        "resources",
        "subscribe",
        "note://python/readme",
        "--count",
        "0",
    ];
    let r = mcpg(&[&args[..], conns[1]].concat());
    assert_eq!(r.code, 3, "{r:?}");
    assert!(r.error_line().contains("resources/subscribe"), "{r:?}");

    // No `logging` capability: the classic `logging/setLevel` is refused; the
    // command says so once and goes on.
    let r = mcpg(&[
        "prompts",
        "list",
        "--stdio",
        &line,
        "--protocol",
        "initialize",
        "--log-level",
        "info",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(
        r.stderr.starts_with("mcpg: warning: no log messages: "),
        "{r:?}"
    );
    assert_eq!(r.stderr.lines().count(), 1, "{r:?}");
}

#[test]
fn usage_errors_exit_2() {
    // None of these reaches a server.
    let cases: [&[&str]; 6] = [
        &["prompts", "get", "p", "--stdio", "true", "--args", "[1]"],
        &[
            "prompts",
            "get",
            "p",
            "--stdio",
            "true",
            "--args",
            r#"{"n": 1}"#,
        ],
        &[
            "complete",
            "--stdio",
            "true",
            "--prompt",
            "p",
            "a",
            "b",
            "--context",
            "{",
        ],
        &["complete", "--stdio", "true", "a", "b"],
        &[
            "resources",
            "list",
            "--stdio",
            "true",
            "--log-level",
            "loud",
        ],
        &[
            "resources",
            "subscribe",
            "--stdio",
            "true",
            "x://y",
            "--call",
            "tool {not json",
        ],
    ];
    for args in cases {
        let r = mcpg(args);
        assert_eq!(r.code, 2, "{args:?}: {r:?}");
        assert!(r.stdout.is_empty(), "{r:?}");
    }
}
