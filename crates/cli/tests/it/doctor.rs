//! `mcpg doctor`: each check's verdict and fix against real peers (server-everything
//! and the Python SDK over stdio and Streamable HTTP, a server behind the test
//! authorization server), a plain HTTP server without CORS, and stdio programs
//! that are missing, print junk or exit at once.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::mcpg_run::{Run, mcpg};
use crate::peers::{self, Peer};
use serde_json::Value;

/// `mcpg doctor ARGS --json`, parsed.
pub(crate) fn doctor_json(args: &[&str]) -> (Run, Value) {
    let r = mcpg(&[&["doctor", "--json"][..], args].concat());
    let v: Value =
        serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {r:?}"));
    (r, v)
}

/// The check `id` of a JSON report: (verdict, evidence, fix).
pub(crate) fn check<'a>(report: &'a Value, id: &str) -> (&'a str, &'a str, &'a str) {
    let c = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no check {id} in {report}"));
    (
        c["verdict"].as_str().unwrap(),
        c["evidence"].as_str().unwrap(),
        c["fix"].as_str().unwrap_or(""),
    )
}

fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_owned(),
                c["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn stdio(peer: Peer) -> Option<String> {
    let (program, args) = peers::stdio_command(peer)?;
    Some(peers::shell_line(&program, &args))
}

#[test]
fn everything_over_stdio_passes_and_warns_about_2026() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let (r, v) = doctor_json(&["--stdio", &line]);
    assert_eq!(r.code, 0, "warnings do not fail: {r:?}");
    assert_eq!(v["worst"], "warn");
    let ids: Vec<String> = verdicts(&v).into_iter().map(|(id, _)| id).collect();
    assert_eq!(
        ids,
        [
            "program",
            "startup",
            "server-discover",
            "initialize",
            "revisions",
            "tools-list",
            "x-mcp-header",
            "tool-schemas",
            "capabilities"
        ]
    );
    let (verdict, evidence, fix) = check(&v, "server-discover");
    assert_eq!(verdict, "warn");
    assert!(
        evidence.contains("-32601") && evidence.contains("fall back"),
        "{evidence}"
    );
    // The advice table's row, as under the CLI's failure line.
    assert!(
        fix.contains("speaks only the initialize generation"),
        "{fix}"
    );
    assert_eq!(check(&v, "initialize").1, "agreed on 2025-11-25");
    let revisions = check(&v, "revisions").1;
    // Each older revision was offered alone, and accepted.
    assert!(
        revisions.contains("the server speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25;"),
        "{revisions}"
    );
    assert!(revisions.ends_with("negotiates 2025-11-25"));
    assert_eq!(check(&v, "tools-list"), ("pass", "13 tools in 1 page", ""));
    assert_eq!(check(&v, "tool-schemas").0, "pass");
    assert_eq!(check(&v, "capabilities").0, "pass");
    // The text form: one line per check, the fix below a warning.
    let t = mcpg(&["doctor", "--stdio", &line]);
    assert_eq!(t.code, 0, "{t:?}");
    assert!(
        t.stdout.contains("⚠ warn  server/discover (2026-07-28): "),
        "{}",
        t.stdout
    );
    assert!(
        t.stdout
            .contains("      fix: The server does not answer server/discover: it speaks only the initialize generation")
    );
    assert_eq!(t.last_line(), "8 passed, 1 warned, 0 failed, 0 skipped");
}

#[test]
fn the_python_sdk_over_stdio_speaks_both_generations() {
    let Some(line) = stdio(Peer::Python) else {
        return;
    };
    let (r, v) = doctor_json(&["--stdio", &line]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(v["worst"], "pass", "{v}");
    assert_eq!(check(&v, "server-discover").1, "agreed on 2026-07-28");
    assert_eq!(check(&v, "initialize").1, "agreed on 2025-11-25");
    let revisions = check(&v, "revisions").1;
    assert!(
        revisions.contains(
            "the server speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28;"
        ) && revisions.ends_with("negotiates 2026-07-28"),
        "{revisions}"
    );
    assert_eq!(check(&v, "tools-list").1, "5 tools in 1 page");
    assert!(check(&v, "tool-schemas").1.ends_with("follow 2026-07-28"));
}

#[test]
fn rmcp_pages_its_tools_and_mirrors_an_argument_into_a_header() {
    let Some(line) = stdio(Peer::Rmcp) else {
        return;
    };
    let (r, v) = doctor_json(&["--stdio", &line]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(v["worst"], "pass", "{v}");
    assert_eq!(check(&v, "tools-list").1, "32 tools in 4 pages");
    assert_eq!(
        check(&v, "x-mcp-header").1,
        "1 tool mirrors 1 argument into Mcp-Param-* headers; every annotation is valid"
    );
    assert_eq!(
        check(&v, "capabilities").1,
        "tools: declared and answered; resources: not declared, not answered; prompts: not declared, not answered"
    );
}

#[test]
fn an_awkward_server_fails_its_schemas_and_capabilities() {
    let Some(python) = crate::mcpg_run::python() else {
        return;
    };
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/doctor_awkward.py");
    let line = format!("{python} '{}'", script.display());
    let (r, v) = doctor_json(&["--stdio", &line]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.error_line(),
        "mcpg: doctor: failed: tool-schemas, capabilities"
    );
    assert_eq!(check(&v, "tools-list").1, "3 tools in 2 pages");
    let (verdict, evidence, fix) = check(&v, "x-mcp-header");
    assert_eq!(verdict, "warn", "under 2025-11-25 nobody reads it yet");
    assert!(
        evidence.starts_with("tool \"score\": x-mcp-header \"Score\""),
        "{evidence}"
    );
    assert!(fix.contains("string, integer or boolean"), "{fix}");
    let (verdict, evidence, _) = check(&v, "tool-schemas");
    assert_eq!(verdict, "fail");
    assert!(
        evidence.contains("[input-schema]") && evidence.contains("[tool-name]"),
        "{evidence}"
    );
    let (verdict, evidence, fix) = check(&v, "capabilities");
    assert_eq!(verdict, "fail");
    assert_eq!(
        evidence,
        "tools: declared and answered; resources: answered resources/list but not declared; \
         prompts: declared, but prompts/list answered error -32601: Method not found"
    );
    assert!(
        fix.starts_with("Declare `resources` in the server's capabilities"),
        "{fix}"
    );
    assert!(
        fix.contains("answer prompts/list, or stop declaring `prompts`"),
        "{fix}"
    );
}

#[test]
fn a_missing_program_fails_and_skips_the_rest() {
    let (r, v) = doctor_json(&["--stdio", "mcpg-doctor-no-such-program --stdio"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(r.error_line(), "mcpg: doctor: failed: program");
    let (verdict, evidence, fix) = check(&v, "program");
    assert_eq!(verdict, "fail");
    assert_eq!(evidence, "mcpg-doctor-no-such-program is not on PATH");
    assert!(fix.contains("full path"));
    assert_eq!(v["target"], "stdio: mcpg-doctor-no-such-program");
    let rest = verdicts(&v);
    assert!(
        rest[1..].iter().all(|(_, verdict)| verdict == "skip"),
        "{rest:?}"
    );
    let (_, evidence, fix) = check(&v, "startup");
    assert_eq!((evidence, fix), ("the program was not found", ""));
    // A path that does not exist.
    let (_, v) = doctor_json(&["--stdio", "./no/such/server"]);
    assert_eq!(check(&v, "program").1, "./no/such/server does not exist");
}

#[test]
fn junk_on_stdout_is_named_and_sent_to_stderr() {
    let (r, v) = doctor_json(&["--stdio", "sh -c 'echo Server v1 ready; cat >/dev/null'"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(check(&v, "program").0, "pass");
    let (verdict, evidence, fix) = check(&v, "startup");
    assert_eq!(verdict, "fail");
    assert_eq!(
        evidence,
        "the first line on stdout is not JSON-RPC: \"Server v1 ready\""
    );
    assert!(
        fix.contains("send banners, logs and prints to stderr"),
        "{fix}"
    );
    assert_eq!(check(&v, "initialize").0, "skip");
}

#[test]
fn a_program_that_exits_at_once_shows_its_status_and_stderr() {
    let (r, v) = doctor_json(&["--stdio", "sh -c 'echo missing API_KEY >&2; exit 3'"]);
    assert_eq!(r.code, 1, "{r:?}");
    let (verdict, evidence, fix) = check(&v, "startup");
    assert_eq!(verdict, "fail");
    assert_eq!(
        evidence,
        "the program exited with status 3 before answering; stderr: missing API_KEY"
    );
    assert!(fix.contains("read its stderr"), "{fix}");
}

#[test]
fn server_text_is_escaped() {
    let (_, v) = doctor_json(&["--stdio", r"sh -c 'printf \\033[2Jjunk\\n; cat >/dev/null'"]);
    let evidence = check(&v, "startup").1;
    assert!(!evidence.contains('\u{1b}'), "{evidence:?}");
    assert!(evidence.contains("\\u{1b}[2Jjunk"), "{evidence:?}");
    let t = mcpg(&[
        "doctor",
        "--stdio",
        r"sh -c 'printf \\033[2Jjunk\\n; cat >/dev/null'",
    ]);
    assert!(!t.stdout.contains('\u{1b}'), "{t:?}");
    assert!(t.stdout.contains("junk"), "{t:?}");
}

#[test]
fn usage_errors_exit_2() {
    let r = mcpg(&["doctor"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = mcpg(&["doctor", "http://127.0.0.1:9/mcp", "--stdio", "x"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = mcpg(&["doctor", "--stdio", "x", "--bearer-env", "HOME"]);
    assert_eq!(r.code, 2, "{r:?}");
    let r = mcpg(&["doctor", "--stdio", "x", "--timeout", "0"]);
    assert_eq!(r.code, 2, "{r:?}");
}
