//! `mcpg resources`, `prompts`, `complete` and `--log-level` against a scripted
//! server (`fixtures/hostile.py`) whose resource list has two pages and whose
//! every string carries terminal control sequences: the pages are followed and
//! shown, and nothing the server sent reaches the terminal raw.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::mcpg_run;

use std::path::PathBuf;

use mcpg_run::{Run, Stream, interrupt_when, mcpg, python};

/// The escaped form of the fixture's control sequences.
const SHOWN: &str = r"\u{1b}[2J\u{1b}]0;pwned\u{7}\u{1b}[31mred\u{202e}exe.txt\u{9b}";

fn hostile() -> Option<String> {
    let python = python()?;
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile.py");
    Some(format!("{python} '{}'", script.display()))
}

/// No control character but newline on either stream.
fn assert_clean(r: &Run) {
    for (name, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
        let bad = text
            .chars()
            .find(|&c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c));
        assert_eq!(
            bad, None,
            "{name} carries a raw control character: {text:?}"
        );
    }
}

#[test]
fn pages_are_followed_and_shown() {
    let Some(server) = hostile() else {
        return;
    };
    let r = mcpg(&["resources", "list", "--stdio", &server]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_clean(&r);
    let expected = format!(
        "--- page 1 of 2 (2 resources) ---\n<evil://one> one{SHOWN}\n<evil://two> two: line\\rover\n--- page 2 of 2 (1 resource) ---\n<evil://three> three [application/octet-stream]\n3 resources in 2 pages\n"
    );
    assert_eq!(r.stdout, expected);

    let r = mcpg(&["resources", "list", "--stdio", &server, "--json"]);
    let all: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 3, "both pages, as sent");
    assert_eq!(all[2]["uri"], "evil://three");
}

#[test]
fn hostile_text_stays_text() {
    let Some(server) = hostile() else {
        return;
    };
    let r = mcpg(&["resources", "read", "--stdio", &server, "evil://one"]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_clean(&r);
    assert_eq!(r.stdout, format!("before {SHOWN} after\n"));

    let r = mcpg(&["resources", "read", "--stdio", &server, "evil://three"]);
    assert_eq!(
        r.stdout,
        "[resource <evil://three> application/octet-stream, 5 bytes]\n"
    );

    let r = mcpg(&["prompts", "get", "--stdio", &server, "any"]);
    assert_clean(&r);
    assert_eq!(r.stdout, format!("[user]\nask {SHOWN}\n"));

    let r = mcpg(&["complete", "--stdio", &server, "--prompt", "any", "a", ""]);
    assert_clean(&r);
    assert_eq!(r.stdout, format!("ok\nbad{SHOWN}\n"));

    // A log message: one line, newline and controls escaped.
    let r = mcpg(&[
        "prompts",
        "get",
        "--stdio",
        &server,
        "any",
        "--log-level",
        "debug",
    ]);
    assert_eq!(r.code, 0, "{r:?}");
    assert_clean(&r);
    assert_eq!(
        r.stderr,
        format!("log warning log{SHOWN}: two\\nlines{SHOWN}\n")
    );

    // The failure line quotes the server's error message, escaped; exit 3.
    let r = mcpg(&["tools", "list", "--stdio", &server, "--verbose"]);
    assert_eq!(r.code, 3, "{r:?}");
    assert_clean(&r);
    assert!(
        r.stderr
            .lines()
            .last()
            .unwrap()
            .ends_with(&format!("no tools/list{SHOWN} (code -32601)")),
        "{r:?}"
    );
}

#[test]
fn ctrl_c_ends_a_subscription_the_server_never_answers() {
    let Some(server) = hostile() else {
        return;
    };
    let args = [
        "resources",
        "subscribe",
        "--stdio",
        &server,
        "evil://one",
        "--verbose",
    ];
    let r = interrupt_when(&args, Stream::Err, r#""method":"resources/subscribe""#);
    assert_eq!(r.code, 4, "{r:?}");
    assert_eq!(r.stdout, "");
    assert_eq!(
        r.stderr.lines().last().unwrap(),
        "mcpg: interrupted (Ctrl-C) before the subscription was in place"
    );
}
