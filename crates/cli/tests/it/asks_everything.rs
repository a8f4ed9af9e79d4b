//! `--on-elicit`, `--on-sample` and `--root`: usage errors, and server-everything's
//! sampling, elicitation (form and URL, both paths) and roots tools, answered from a
//! file or declined. (A person at a terminal: `asks_python.rs`.)

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::peers;

use crate::asks_support;
use crate::mcpg_run;

use asks_support::{answers, call_args, expect, shows, stdio};
use mcpg_run::{Run, mcpg};
use peers::Peer;

#[test]
fn bad_flags_are_usage_errors_before_anything_starts() {
    // `false` as the server: were it started, the failure would be a transport one (4).
    let cases: [(&[&str], &str); 4] = [
        (
            &["--root", "/home/me"],
            "--root \"/home/me\" is not a file:// URI",
        ),
        (
            &["--root", "file:///a b"],
            "has spaces or control characters",
        ),
        // No terminal on stdin (the tests give none): a clear error, not a hang.
        (
            &["--on-elicit", "ask"],
            "--on-elicit ask needs a terminal on stdin",
        ),
        (
            &["--on-elicit", "/nonexistent/answers.json"],
            "--on-elicit: cannot read /nonexistent/answers.json",
        ),
    ];
    for (flags, expected) in cases {
        let r = mcpg(&[&["tools", "list", "--stdio", "false"][..], flags].concat());
        assert_eq!(r.code, 2, "{flags:?}: {r:?}");
        assert!(r.error_line().contains(expected), "{flags:?}: {r:?}");
    }
    let (_dir, list) = answers("[1, 2]");
    let r = mcpg(&["tools", "list", "--stdio", "false", "--on-elicit", &list]);
    assert_eq!(r.code, 2, "{r:?}");
    assert!(
        r.error_line()
            .contains("must hold one JSON object of field values (it holds an array)"),
        "{r:?}"
    );
}

#[test]
fn everything_offers_its_asking_tools_only_when_declared() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let names = |r: &Run| -> Vec<String> {
        let tools: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        tools
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let asking = [
        "trigger-sampling-request",
        "trigger-elicitation-request",
        "trigger-url-elicitation",
        "get-roots-list",
    ];
    let r = mcpg(&["tools", "list", "--json", "--stdio", &line]);
    assert_eq!(r.code, 0, "{r:?}");
    let plain = names(&r);
    assert!(
        asking.iter().all(|a| !plain.iter().any(|n| n == a)),
        "{plain:?}"
    );
    // Each flag declares exactly its own capability.
    let flags: [(&str, &str, &str); 3] = [
        ("--on-sample", "mock", "trigger-sampling-request"),
        ("--on-elicit", "decline", "trigger-elicitation-request"),
        ("--root", "file:///tmp", "get-roots-list"),
    ];
    for (flag, value, tool) in flags {
        let r = mcpg(&["tools", "list", "--json", "--stdio", &line, flag, value]);
        let got = names(&r);
        assert!(got.iter().any(|n| n == tool), "{flag}: {got:?}");
        let others = asking
            .iter()
            .filter(|a| **a != tool && **a != "trigger-url-elicitation");
        for other in others {
            assert!(
                !got.iter().any(|n| n == other),
                "{flag} declared too much: {got:?}"
            );
        }
    }
}

#[test]
fn everything_sampling_mock_text_and_decline() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let call = |answer: &str| {
        mcpg(&call_args(
            &line,
            "trigger-sampling-request",
            &[
                "--args",
                r#"{"prompt":"Say hi","maxTokens":50}"#,
                "--on-sample",
                answer,
            ],
        ))
    };
    let r = call("mock");
    expect(
        &r,
        0,
        &["\"model\": \"mcpg-mock\"", "no LLM was called"],
        &[
            "server asks (sampling/createMessage): a model's answer to \"Resource trigger-sampling-request context: Say hi\" (maxTokens 50)",
        ],
    );
    // The mock is deterministic: the same ask gets the same answer.
    assert_eq!(call("mock").stdout, r.stdout);

    let r = call("Bonjour");
    expect(
        &r,
        0,
        &["\"text\": \"Bonjour\""],
        &["mcpg answered: \"Bonjour\""],
    );

    // A rejection is the spec's error (-1); the tool reports it as its failure.
    let r = call("decline");
    expect(
        &r,
        1,
        &["User rejected sampling request"],
        &["mcpg answered: rejected the sampling request (-1)"],
    );
}

#[test]
fn everything_elicitation_from_a_file_and_declined() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let (_dir, file) = answers(r#"{"name": "Ada", "integer": 7, "unknownField": true}"#);
    let call = |answer: &str| {
        mcpg(&call_args(
            &line,
            "trigger-elicitation-request",
            &["--json", "--on-elicit", answer],
        ))
    };
    let r = call(&file);
    assert_eq!(r.code, 0, "{r:?}");
    // The file's values over the form's defaults; fields the form lacks left out.
    let answered = r
        .stderr
        .lines()
        .find(|l| l.starts_with("mcpg answered: accept "))
        .expect("an answer line");
    let content: serde_json::Value =
        serde_json::from_str(answered.trim_start_matches("mcpg answered: accept ")).unwrap();
    assert_eq!(content["name"], "Ada", "{content}");
    assert_eq!(content["integer"], 7, "{content}");
    // The form's own default (server-everything's 3.14, not π).
    assert_eq!(
        content["number"].to_string(),
        "3.14",
        "a default: {content}"
    );
    assert!(content.get("unknownField").is_none(), "{content}");
    shows(
        "stdout",
        &r.stdout,
        &["User provided the requested information"],
    );

    let r = call("decline");
    expect(
        &r,
        0,
        &["\\\"action\\\": \\\"decline\\\""],
        &["mcpg answered: decline"],
    );
}

#[test]
fn everything_url_elicitation_is_shown_never_opened() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let url = "https://auth.example.com/start?x=1";
    // Answered from a file, a URL is declined: opening one needs a person.
    let (_dir, file) = answers("{}");
    let args = format!(r#"{{"url":"{url}"}}"#);
    let r = mcpg(&call_args(
        &line,
        "trigger-url-elicitation",
        &["--args", &args, "--on-elicit", &file],
    ));
    let opened = format!("(open \"{url}\" on auth.example.com)");
    expect(
        &r,
        0,
        &["User declined to open the URL"],
        &[&opened, "mcpg answered: decline"],
    );
    // The error path: -32042 names the URL and its domain, and the call fails (3).
    let args = format!(r#"{{"url":"{url}","errorPath":true}}"#);
    let r = mcpg(&call_args(
        &line,
        "trigger-url-elicitation",
        &["--args", &args, "--on-elicit", "decline"],
    ));
    expect(
        &r,
        3,
        &[],
        &[
            "server needs a URL opened first: \"Open this link to satisfy the prerequisite, then retry the request.\" (open \"https://modelcontextprotocol.io\" on modelcontextprotocol.io; mcpg does not open it",
        ],
    );
}

#[test]
fn everything_roots() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let r = mcpg(&call_args(
        &line,
        "get-roots-list",
        &[
            "--root",
            "file:///tmp/project",
            "--root",
            "file:///srv/data",
        ],
    ));
    expect(
        &r,
        0,
        &[
            "Current MCP Roots (2 total)",
            "URI: file:///tmp/project",
            "URI: file:///srv/data",
        ],
        &["mcpg answered: file:///tmp/project, file:///srv/data"],
    );
}
