//! The answering flags against the demo server (`mcpg demo`), in both generations:
//! classic server requests up to 2025-11-25, `input_required` rounds under
//! 2026-07-28 (the retry carries `inputResponses` and the `requestState` as sent).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::asks_support;
use crate::mcpg_run;

use asks_support::{answers, call_args, expect, in_terminal, shows};
use mcpg_run::{Run, mcpg};

const GENERATIONS: [&str; 2] = ["initialize", "stateless"];

/// `mcpg tools call TOOL --stdio 'mcpg demo' --protocol P FLAGS…`.
fn demo_call(tool: &str, protocol: &str, flags: &[&str]) -> Run {
    let demo = format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg"));
    mcpg(
        &[
            &call_args(&demo, tool, &["--protocol", protocol])[..],
            flags,
        ]
        .concat(),
    )
}

#[test]
fn reserve_table_from_a_file_and_declined() {
    let (_dir, file) = answers(r#"{"party": 4}"#);
    for p in GENERATIONS {
        let r = demo_call("reserve_table", p, &["--on-elicit", &file, "--verbose"]);
        // The file's party over the form's default time.
        expect(
            &r,
            0,
            &["Pretend-booked a table for 4 at 19:30"],
            &[
                "server asks (elicitation/create): \"How many people, and when?\" (form: party, time)",
                "mcpg answered: accept {\"party\":4,\"time\":\"19:30\"}",
            ],
        );
        if p == "stateless" {
            shows(
                p,
                &r.stderr,
                &[
                    "\"inputResponses\"",
                    "\"requestState\":\"mcpg1.reserve_table.",
                ],
            );
        } else {
            shows(p, &r.stderr, &["\"method\":\"elicitation/create\""]);
        }
        let r = demo_call("reserve_table", p, &["--on-elicit", "decline"]);
        expect(&r, 0, &["You declined"], &["mcpg answered: decline"]);
    }
}

#[test]
fn summarize_note_sampled_and_rejected() {
    for p in GENERATIONS {
        let r = demo_call("summarize_note", p, &["--on-sample", "mock"]);
        expect(
            &r,
            0,
            &[
                "Summary of the pagination note by mcpg-mock",
                "no LLM was called",
            ],
            &[
                "server asks (sampling/createMessage): a model's answer to \"Summarize this note in one sentence:",
                "(maxTokens 80), system prompt \"You write one-sentence summaries.\"",
            ],
        );
        let r = demo_call("summarize_note", p, &["--on-sample", "A one-line summary."]);
        expect(&r, 0, &[": A one-line summary.", "by mcpg-typed"], &[]);
        // A rejection: the spec's -1 (classic), or left out of inputResponses (MRTR);
        // either way the tool says it stopped.
        let r = demo_call("summarize_note", p, &["--on-sample", "decline"]);
        expect(
            &r,
            1,
            &[],
            &["mcpg answered: rejected the sampling request (-1)"],
        );
    }
}

#[test]
fn show_roots_lists_the_roots_given() {
    for p in GENERATIONS {
        let r = demo_call(
            "show_roots",
            p,
            &["--root", "file:///tmp/a", "--root", "file:///tmp/b"],
        );
        expect(
            &r,
            0,
            &["The client shares 2 root(s):\n- file:///tmp/a\n- file:///tmp/b"],
            &["mcpg answered: file:///tmp/a, file:///tmp/b"],
        );
    }
}

#[test]
fn link_account_needs_a_person() {
    let (_dir, file) = answers("{}");
    for p in GENERATIONS {
        // From a file, a URL is declined.
        let r = demo_call("link_account", p, &["--on-elicit", &file]);
        expect(
            &r,
            0,
            &["You declined"],
            &[
                "(open \"https://example.com/mcpg/link?id=link-1\" on example.com)",
                "mcpg answered: decline",
            ],
        );
        // At a terminal, Enter after opening it: the server's completion notice is shown.
        let demo = format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg"));
        let args = call_args(
            &demo,
            "link_account",
            &["--protocol", p, "--on-elicit", "ask"],
        );
        let Some((code, shown)) = in_terminal(&args, "\n") else {
            return;
        };
        assert_eq!(code, 0, "{p}: {shown}");
        shows(
            p,
            &shown,
            &[
                "domain: example.com",
                "mcpg answered: accept",
                "Your pretend account is linked",
            ],
        );
        if p == "initialize" {
            shows(
                p,
                &shown,
                &["server says URL elicitation \"link-1\" is complete"],
            );
        }
    }
}
