//! `--on-elicit` against the Python SDK peer's `book` tool in both generations
//! (classic `elicitation/create`, and 2026-07-28 `input_required` rounds), from a
//! file, declined, and by a person at a terminal (a pseudo-terminal from `script`),
//! as is server-everything's URL elicitation.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::peers;

use crate::asks_support;
use crate::mcpg_run;

use asks_support::{answers, call_args, in_terminal, shows, stdio};
use mcpg_run::{Run, mcpg};
use peers::Peer;

/// `book` on the Python peer, in both generations.
fn book(line: &str, protocol: &str, answer: &str) -> Run {
    mcpg(&call_args(
        line,
        "book",
        &[
            "--args",
            r#"{"restaurant":"Chez Nous"}"#,
            "--protocol",
            protocol,
            "--on-elicit",
            answer,
            "--verbose",
        ],
    ))
}

#[test]
fn python_book_accepted_and_declined_in_both_generations() {
    let Some(line) = stdio(Peer::Python) else {
        return;
    };
    let (_dir, file) = answers(r#"{"time": "19:30"}"#);
    // auto = 2026-07-28 here: the ask comes as input_required and the call is
    // retried with inputResponses; initialize: elicitation/create mid-call.
    for (protocol, on_wire) in [
        ("auto", "\"inputResponses\""),
        ("initialize", "\"method\":\"elicitation/create\""),
    ] {
        let r = book(&line, protocol, &file);
        assert_eq!(r.code, 0, "{protocol}: {r:?}");
        assert!(
            r.stdout.starts_with("Booked Chez Nous for 2 at 19:30.\n"),
            "{protocol}: {r:?}"
        );
        assert!(r.stderr.contains(on_wire), "{protocol}: {r:?}");
        assert!(
            r.stderr
                .contains("mcpg answered: accept {\"party_size\":2,\"time\":\"19:30\"}"),
            "{protocol}: {r:?}"
        );
        let r = book(&line, protocol, "decline");
        assert_eq!(r.code, 0, "{protocol}: {r:?}");
        assert!(
            r.stdout
                .starts_with("No booking: the user chose decline.\n"),
            "{protocol}: {r:?}"
        );
    }
    // Without the flag nothing is declared, and the peer says what it missed.
    let r = mcpg(&call_args(
        &line,
        "book",
        &["--args", r#"{"restaurant":"X"}"#],
    ));
    assert_eq!(r.code, 3, "{r:?}");
    // The failure line, and the advice table's hint under it (`advice.rs`).
    let mut lines = r.stderr.lines();
    assert!(
        lines
            .next()
            .is_some_and(|l| l.contains("did not declare the form elicitation capability")),
        "{r:?}"
    );
    assert!(
        lines
            .next()
            .is_some_and(|l| l.ends_with("(fix: --on-elicit ask)")),
        "{r:?}"
    );
}

#[test]
fn python_book_answered_at_the_terminal() {
    let Some(line) = stdio(Peer::Python) else {
        return;
    };
    let args = call_args(
        &line,
        "book",
        &[
            "--args",
            r#"{"restaurant":"Chez Nous"}"#,
            "--on-elicit",
            "ask",
        ],
    );
    // Accept, 3 people, 20:00; then cancel.
    let runs: [(&str, &[&str]); 2] = [
        (
            "a\n3\n20:00\n",
            &[
                "party_size (whole number): How many people",
                "Booked Chez Nous for 3 at 20:00.",
            ],
        ),
        ("c\n", &["No booking: the user chose cancel."]),
    ];
    for protocol in ["auto", "initialize"] {
        let all = [&args[..], &["--protocol", protocol]].concat();
        for (typed, wanted) in runs {
            let Some((code, shown)) = in_terminal(&all, typed) else {
                return;
            };
            assert_eq!(code, 0, "{protocol}: {shown}");
            shows(protocol, &shown, wanted);
        }
    }
}

#[test]
fn everything_url_elicitation_at_the_terminal_waits_for_enter() {
    let Some(line) = stdio(Peer::Everything) else {
        return;
    };
    let args = call_args(
        &line,
        "trigger-url-elicitation",
        &[
            "--args",
            r#"{"url":"https://auth.example.com/start?x=1"}"#,
            "--on-elicit",
            "ask",
        ],
    );
    // Enter: "I opened it myself"; then `d`.
    let runs: [(&str, &[&str]); 2] = [
        (
            "\n",
            &[
                "URL:    https://auth.example.com/start?x=1",
                "domain: auth.example.com",
                "mcpg does not open it.",
                "\"action\": \"accept\"",
            ],
        ),
        ("d\n", &["User declined to open the URL"]),
    ];
    for (typed, wanted) in runs {
        let Some((code, shown)) = in_terminal(&args, typed) else {
            return;
        };
        assert_eq!(code, 0, "{shown}");
        shows("terminal", &shown, wanted);
    }
}

#[test]
fn a_server_that_never_stops_asking_is_cut_off() {
    let Some((python, _)) = peers::stdio_command(Peer::Python) else {
        return;
    };
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/asks_forever.py"
    );
    let line = format!("'{}' '{fixture}'", python.display());
    let r = mcpg(&call_args(&line, "again", &["--on-elicit", "decline"]));
    assert_eq!(r.code, 4, "{r:?}");
    let asked = r.stderr.matches("server asks (elicitation/create)").count();
    assert_eq!(asked, 8, "{r:?}");
    assert!(
        r.stderr.ends_with(
            "mcpg: tool `again` still asked for input after 8 answered rounds; mcpg stopped there\n"
        ),
        "{r:?}"
    );
    // Without an answering flag, mcpg says which flags would answer.
    let r = mcpg(&call_args(&line, "again", &[]));
    assert_eq!(r.code, 4, "{r:?}");
    assert!(
        r.error_line().contains(
            "asked for input (input_required); answer it with --on-elicit, --on-sample or --root"
        ),
        "{r:?}"
    );
}
