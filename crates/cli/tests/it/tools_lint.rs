//! `mcpg tools lint` against the demo and server-everything: the human listing, the
//! `--json` shape, exit 1 on a rejection and 0 without one, and the CLI's usual
//! statuses for a bad flag (2) and a server that will not start (4).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use serde_json::Value;

use crate::asks_support::stdio;
use crate::mcpg_run::{mcpg, python};
use crate::peers::Peer;

fn demo() -> String {
    format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg"))
}

#[test]
fn the_demo_under_anthropic_has_one_rejected_name() {
    let demo = demo();
    let r = mcpg(&["tools", "lint", "--stdio", &demo, "--format", "anthropic"]);
    assert_eq!(r.code, 1, "{r:?}");
    assert_eq!(
        r.stdout,
        "math.square\n  anthropic:\n    reject  name-characters /name: the name has characters Anthropic Messages does not allow: '.' (^[a-zA-Z0-9_-]{1,64}$); the host renames it\n\
         rules:\n  name-characters: https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use\n\
         26 tools × anthropic: 1 rejection, 0 rewrites, 0 drops (25 without findings)\n"
    );
    assert_eq!(
        r.error_line(),
        "mcpg: 1 rejection for 1 tool: the API answers 400 to the tool as written"
    );
}

#[test]
fn drops_and_rewrites_alone_exit_0() {
    let demo = demo();
    let r = mcpg(&["tools", "lint", "--stdio", &demo, "--format", "ollama"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(r.stderr, "");
    assert_eq!(
        r.last_line(),
        "26 tools × ollama: 0 rejections, 1 rewrite, 28 drops (16 without findings)"
    );
    // The demo's `math.square` is renamed for Ollama too (the host's rule), and
    // `minimum` never reaches an Ollama model.
    assert!(
        r.stdout
            .contains("math.square\n  ollama:\n    rewrite name-characters /name:"),
        "{r:?}"
    );
    assert!(
        r.stdout
            .contains("drop    ollama-dropped-keyword /inputSchema/properties/to/minimum:"),
        "{r:?}"
    );
}

#[test]
fn json_has_a_stable_shape_for_every_format() {
    let demo = demo();
    let r = mcpg(&["tools", "lint", "--stdio", &demo, "--json"]);
    assert_eq!(r.code, 1, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["formats"],
        serde_json::json!([
            "anthropic",
            "openai-chat",
            "openai-responses",
            "gemini",
            "ollama"
        ])
    );
    assert_eq!(v["strict"], false);
    assert_eq!(v["tools"], 26);
    let findings = v["findings"].as_array().unwrap();
    let keys: Vec<&str> = findings[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "tool", "format", "pointer", "rule", "severity", "host", "message", "doc"
        ]
    );
    let count = |s: &str| findings.iter().filter(|f| f["severity"] == s).count();
    assert_eq!(v["counts"]["reject"], count("reject"));
    assert_eq!(v["counts"]["rewrite"], count("rewrite"));
    assert_eq!(v["counts"]["drop"], count("drop"));
    // The book_table date format, which Gemini refuses and the host removes.
    assert!(findings.iter().any(|f| f["tool"] == "book_table"
        && f["format"] == "gemini"
        && f["rule"] == "gemini-string-format"
        && f["host"] == "removes"
        && f["pointer"] == "/inputSchema/properties/date/format"));
}

#[test]
fn strict_mode_adds_its_rules() {
    let demo = demo();
    let loose = mcpg(&[
        "tools",
        "lint",
        "--stdio",
        &demo,
        "--format",
        "openai-chat",
        "--json",
    ]);
    let strict = mcpg(&[
        "tools",
        "lint",
        "--stdio",
        &demo,
        "--format",
        "openai-chat",
        "--json",
        "--strict",
    ]);
    let rules = |r: &crate::mcpg_run::Run| -> Vec<String> {
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(!rules(&loose).iter().any(|r| r.starts_with("strict-")));
    assert!(
        rules(&strict).iter().any(|r| r == "strict-open-object"),
        "{strict:?}"
    );
}

#[test]
fn server_everything_is_clean_for_anthropic_and_rejected_by_gemini() {
    let Some(everything) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&[
        "tools",
        "lint",
        "--stdio",
        &everything,
        "--format",
        "anthropic",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_eq!(
        r.stdout,
        "13 tools × anthropic: 0 rejections, 0 rewrites, 0 drops (13 without findings)\n"
    );
    let r = mcpg(&[
        "tools",
        "lint",
        "--stdio",
        &everything,
        "--format",
        "gemini",
        "--json",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let findings = v["findings"].as_array().unwrap();
    // Every tool carries `$schema`, which Gemini's Schema has no field for.
    assert_eq!(
        findings
            .iter()
            .filter(|f| f["pointer"] == "/inputSchema/$schema")
            .count(),
        13
    );
    // `format: uri` is refused as written, and the host removes it: nothing is
    // left that the host sends as is.
    assert!(findings.iter().any(|f| f["tool"] == "gzip-file-as-resource"
        && f["rule"] == "gemini-string-format"
        && f["host"] == "removes"));
    assert!(!findings.iter().any(|f| f["host"] == "sends-as-is"));
}

#[test]
fn usage_and_connection_failures_keep_their_statuses() {
    let r = mcpg(&["tools", "lint", "--stdio", "false", "--format", "gpt"]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.stderr.contains(
            "not a format; one of anthropic, openai-chat, openai-responses, gemini, ollama"
        ),
        "{r:?}"
    );
    let r = mcpg(&["tools", "lint", "--stdio", "/nonexistent/mcp-server"]);
    assert_eq!(r.code, 4, "{r:?}");
    assert_eq!(r.stdout, "");
}

#[test]
fn every_page_is_linted_and_server_text_is_escaped() {
    let Some(python) = python() else { return };
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile_tools.py");
    let server = format!("{python} '{}'", script.display());
    let r = mcpg(&[
        "tools",
        "lint",
        "--stdio",
        &server,
        "--format",
        "openai-chat",
    ]);
    assert_eq!(r.code, 1, "{r:?}");
    let shown = r"\u{1b}[2J\u{1b}]0;pwned\u{7}\u{1b}[31mred\u{202e}exe.txt\u{9b}";
    assert!(
        r.stdout
            .starts_with(&format!("evil{shown}\n  openai-chat:\n")),
        "{r:?}"
    );
    assert!(
        r.stdout.contains(&format!(
            "array-without-items /inputSchema/properties/p{shown}:"
        )),
        "{r:?}"
    );
    for (name, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
        let bad = text
            .chars()
            .find(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c));
        assert_eq!(
            bad, None,
            "{name} carries a raw control character: {text:?}"
        );
    }
    // The second page's tool is linted too.
    let r = mcpg(&[
        "tools", "lint", "--stdio", &server, "--format", "gemini", "--json",
    ]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["tools"], 2);
    assert!(
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["tool"] == "second_page" && f["rule"] == "gemini-ref"),
        "{r:?}"
    );
}
