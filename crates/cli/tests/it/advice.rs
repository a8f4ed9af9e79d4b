//! The `hint:` line under a failure (the advice table, `mcpg-advice`), end to end:
//! each row met where a real SDK produces it (the Python SDK, server-everything,
//! rmcp), otherwise a scripted peer that sends a real SDK's exact answer; and each
//! hint's fix, applied, gets past the refusal.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead as _, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use mcpg_advice::{AdviceId, Situation, advise};

use crate::asks_support::stdio;
use crate::mcpg_run::{Run, mcpg, python};
use crate::peers::{self, Peer};

/// The failure line and the hint under it (exactly two lines on stderr).
fn hint(r: &Run) -> (&str, &str) {
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 2, "a failure line and a hint: {r:?}");
    assert!(lines[0].starts_with("mcpg: "), "{r:?}");
    let hint = lines[1].strip_prefix("hint: ").expect("a hint line");
    (lines[0], hint)
}

fn fixture(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

/// `tests/peers/python/classic_asks.py` on the Python SDK's venv, as a `--stdio` line.
fn classic_asks() -> Option<String> {
    let py = peers::peers_dir().join("python/.venv/bin/python");
    let script = peers::peers_dir().join("python/classic_asks.py");
    if !py.is_file() || !script.is_file() {
        peers::missing("the Python peer's venv and classic_asks.py")?;
    }
    Some(peers::shell_line(&py, &[script.display().to_string()]))
}

#[test]
fn python_no_back_channel_under_2026_says_2025_11_25_and_that_works() {
    let Some(line) = classic_asks() else { return };
    for (tool, args, answer, fix) in [
        (
            "roots",
            "{}",
            ["--root", "file:///tmp/advice"],
            "--root file:///PATH",
        ),
        (
            "sample",
            r#"{"topic":"tea"}"#,
            ["--on-sample", "mock"],
            "--on-sample mock",
        ),
        (
            "confirm",
            r#"{"action":"x"}"#,
            ["--on-elicit", "decline"],
            "--on-elicit ask",
        ),
    ] {
        let call = ["tools", "call", "--stdio", &line, tool, "--args", args];
        // The flags that answer the ask are given: still refused under 2026-07-28.
        let r = mcpg(&[&call[..], &answer[..]].concat());
        assert_eq!(r.code, 3, "{tool}: {r:?}");
        let (failure, hint) = hint(&r);
        assert!(failure.contains("has no back-channel") && failure.contains("-32600"));
        assert!(hint.contains("input_required"), "{tool}: {hint}");
        assert!(
            hint.ends_with(&format!("(fix: --protocol-version 2025-11-25 {fix})")),
            "{tool}: {hint}"
        );
        // The fix: the same call under 2025-11-25.
        let fixed = ["--protocol-version", "2025-11-25"];
        let r = mcpg(&[&call[..], &answer[..], &fixed[..]].concat());
        assert_eq!(r.code, 0, "{tool} under 2025-11-25: {r:?}");
    }
}

#[test]
fn python_missing_capability_names_the_flag_and_it_works() {
    let Some(line) = stdio(Peer::Python) else {
        return;
    };
    let call = ["tools", "call", "--stdio", &line, "book"];
    let args = ["--args", r#"{"restaurant":"Chez Nous"}"#];
    let r = mcpg(&[&call[..], &args[..]].concat());
    assert_eq!(r.code, 3, "{r:?}");
    let (failure, hint) = hint(&r);
    assert!(failure.contains("-32021"), "{failure}");
    assert!(hint.contains("declares elicitation"), "{hint}");
    assert!(hint.ends_with("(fix: --on-elicit ask)"), "{hint}");
    assert!(!hint.contains("ask_booking"), "the server's words stay out");
    // Declaring it (answered with a decline, no terminal here) lets the call run.
    let r = mcpg(&[&call[..], &args[..], &["--on-elicit", "decline"][..]].concat());
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.starts_with("No booking"), "{r:?}");
}

#[test]
fn python_header_mismatch_over_http_names_the_headers() {
    let Some(peer) = peers::start_http(Peer::Python) else {
        return;
    };
    let call = ["tools", "call", "--url", &peer.url, "echo"];
    let args = ["--args", r#"{"text":"hi"}"#];
    // A second Mcp-Name: the SDK refuses with -32020 (HTTP 400).
    let r = mcpg(&[&call[..], &args[..], &["-H", "Mcp-Name: other"][..]].concat());
    assert_eq!(r.code, 3, "{r:?}");
    let (failure, hint) = hint(&r);
    assert!(failure.contains("-32020"), "{failure}");
    assert!(hint.contains("Mcp-Name"), "{hint}");
    assert!(
        !r.all().contains("other"),
        "a header's value is never printed"
    );
    let r = mcpg(&[&call[..], &args[..]].concat());
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn everything_probed_under_stateless_only_says_auto_and_that_works() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&["tools", "list", "--stdio", &line, "--protocol", "stateless"]);
    assert_eq!(r.code, 4, "{r:?}");
    let (failure, hint) = hint(&r);
    assert!(failure.contains("server/discover"), "{failure}");
    assert!(hint.contains("only the initialize generation"), "{hint}");
    assert!(hint.contains("(fix: --protocol auto"), "{hint}");
    let r = mcpg(&["tools", "list", "--stdio", &line, "--protocol", "auto"]);
    assert_eq!(r.code, 0, "{r:?}");
}

#[test]
fn a_stateless_only_server_refusing_initialize_says_auto() {
    let Some(py) = python() else { return };
    // Scripted: no SDK can be told to serve 2026-07-28 alone; the script sends the
    // Python SDK's own answer to `initialize` on a 2026-07-28 connection.
    let line = format!("{py} {}", fixture("stateless_only.py"));
    let r = mcpg(&[
        "tools",
        "list",
        "--stdio",
        &line,
        "--protocol",
        "initialize",
    ]);
    assert_eq!(r.code, 4, "{r:?}");
    let (failure, hint) = hint(&r);
    assert!(failure.contains("-32022"), "{failure}");
    assert!(hint.contains("speaks only 2026-07-28"), "{hint}");
    assert!(hint.contains("(fix: --protocol auto"), "{hint}");
    let r = mcpg(&["tools", "list", "--stdio", &line, "--protocol", "auto"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert!(r.stdout.contains("hello"), "{r:?}");
}

/// `accept_proxy.py` in front of `upstream`: its URL and the process.
fn accept_proxy(py: &str, upstream: &str) -> (String, Child) {
    let mut child = Command::new(py)
        .args([&fixture("accept_proxy.py"), upstream])
        .stdout(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .expect("start the proxy");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let port = first.trim().strip_prefix("listening ").expect("a port");
    (format!("http://127.0.0.1:{port}/mcp"), child)
}

#[test]
fn rmcp_behind_a_proxy_that_rewrites_accept_says_406() {
    let Some(py) = python() else { return };
    let Some(peer) = peers::start_http(Peer::Rmcp) else {
        return;
    };
    let (url, mut proxy) = accept_proxy(py, &peer.url);
    let r = mcpg(&["tools", "list", "--url", &url]);
    let _ = proxy.kill();
    let _ = proxy.wait();
    assert_eq!(r.code, 4, "{r:?}");
    let (failure, hint) = hint(&r);
    assert!(failure.contains("HTTP 406"), "{failure}");
    assert!(hint.contains("406 Not Acceptable"), "{hint}");
    assert!(hint.contains("proxy"), "{hint}");
}

/// POSTs `initialize` to `url` with these `Accept` and `Content-Type` headers; the
/// status and the response's `Content-Type`.
async fn post(url: &str, accept: &str, content_type: &str) -> (u16, String) {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    let r = reqwest::Client::new()
        .post(url)
        .header("Accept", accept)
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .unwrap();
    let ct = r
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    (r.status().as_u16(), ct)
}

/// What a doctor sees: each SDK's refusal of a POST without `text/event-stream`
/// in `Accept` (406) and, where it sends one, of a body not typed JSON (415),
/// read by the table from the status and the content type.
#[tokio::test(flavor = "multi_thread")]
async fn each_sdks_406_and_415_are_advised_on() {
    for peer in [Peer::Python, Peer::Everything, Peer::Rmcp] {
        let Some(p) = peers::start_http(peer) else {
            return;
        };
        let (status, ct) = post(&p.url, "application/json", "application/json").await;
        assert_eq!(status, 406, "{peer:?}");
        let s = Situation::http("initialize", status).typed(&ct);
        assert_eq!(advise(&s).map(|a| a.id), Some(AdviceId::NotAcceptable));
        let both = "application/json, text/event-stream";
        let (status, ct) = post(&p.url, both, "text/plain").await;
        // The Python SDK answers 400 "Invalid Content-Type header": no row claims it.
        let want = (peer != Peer::Python).then_some(AdviceId::UnsupportedMediaType);
        assert_eq!(status, if want.is_some() { 415 } else { 400 }, "{peer:?}");
        let s = Situation::http("initialize", status).typed(&ct);
        assert_eq!(advise(&s).map(|a| a.id), want, "{peer:?}");
    }
}
