//! `mcpg resources`, `prompts`, `complete` and `--log-level` against `mcpg demo`
//! in both generations: paging over several pages, a resource that changes when
//! a tool is called (subscriptions), completions and log messages.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::mcpg_run;

use mcpg_run::mcpg;

const CALLS: &str = "demo://playground/calls.json";

/// `--stdio` for `mcpg demo`, then the generation's flags.
fn demo() -> String {
    format!("'{}' demo", env!("CARGO_BIN_EXE_mcpg"))
}

const GENERATIONS: [&[&str]; 2] = [&["--protocol", "initialize"], &["--protocol", "stateless"]];

#[test]
fn listings_follow_every_page() {
    let demo = demo();
    for generation in GENERATIONS {
        let conn = [&["--stdio", demo.as_str()][..], generation].concat();
        let r = mcpg(&[&["resources", "list"][..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(r.last_line(), "14 resources in 3 pages");
        let headers: Vec<&str> = r
            .stdout
            .lines()
            .filter(|l| l.starts_with("--- page"))
            .collect();
        assert_eq!(
            headers,
            [
                "--- page 1 of 3 (6 resources) ---",
                "--- page 2 of 3 (6 resources) ---",
                "--- page 3 of 3 (2 resources) ---"
            ]
        );
        let r = mcpg(&[&["resources", "list", "--json"][..], &conn].concat());
        let all: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        assert_eq!(all.as_array().unwrap().len(), 14);
        assert_eq!(all[0]["uri"], "note://playground/");

        let r = mcpg(&[&["resources", "templates"][..], &conn].concat());
        assert_eq!(r.last_line(), "3 templates in 1 page", "{r:?}");
        let r = mcpg(&[&["prompts", "list"][..], &conn].concat());
        assert_eq!(r.last_line(), "4 prompts in 1 page", "{r:?}");
        assert!(r.stdout.contains("plan_trip (Plan a trip): "), "{r:?}");
        assert_eq!(r.stderr, "");
    }
}

#[test]
fn reads_completions_and_prompts() {
    let demo = demo();
    for generation in GENERATIONS {
        let conn = [&["--stdio", demo.as_str()][..], generation].concat();
        let r = mcpg(&[&["resources", "read", CALLS][..], &conn].concat());
        assert_eq!(r.stdout, "{\"calls\":0,\"last\":null}\n", "{r:?}");
        let r = mcpg(
            &[
                &["resources", "read", "demo://playground/sun.png"][..],
                &conn,
            ]
            .concat(),
        );
        assert_eq!(
            r.stdout,
            "[resource <demo://playground/sun.png> image/png, 176 bytes]\n"
        );
        // The template's variable, completed; then the URI it makes, read.
        let args = [
            "complete",
            "--template",
            "weather://{city}/today",
            "city",
            "Au",
        ];
        let r = mcpg(&[&args[..], &conn].concat());
        assert_eq!(r.stdout, "Austin\n", "{r:?}");
        let r = mcpg(&[&["resources", "read", "weather://Austin/today"][..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert!(r.stdout.starts_with("Austin"), "{r:?}");
        let r = mcpg(
            &[
                &[
                    "prompts",
                    "get",
                    "plan_trip",
                    "--args",
                    r#"{"city":"Paris"}"#,
                ][..],
                &conn,
            ]
            .concat(),
        );
        assert_eq!(r.code, 0, "{r:?}");
        assert!(
            r.stdout.contains("[user]\n") && r.stdout.contains("Paris"),
            "{r:?}"
        );
    }
}

#[test]
fn a_tool_call_updates_a_subscribed_resource_and_logs() {
    let demo = demo();
    for generation in GENERATIONS {
        let conn = [&["--stdio", demo.as_str()][..], generation].concat();
        let args = [
            "resources",
            "subscribe",
            CALLS,
            "--call",
            r#"get_weather {"city":"Austin"}"#,
            "--count",
            "1",
        ];
        let r = mcpg(&[&args[..], &conn].concat());
        assert_eq!(r.code, 0, "{r:?}");
        assert_eq!(
            r.stdout,
            format!(
                "subscribed to {CALLS}; updates follow until Ctrl-C\ncalled get_weather\nupdated {CALLS}\nunsubscribed after 1 updates\n"
            )
        );

        // setLevel (classic) or the level stamped on the request (2026-07-28).
        let debug = r#"log debug demo: {"tool":"get_weather","arguments":{"city":"Austin"}}"#;
        let info = "log info demo: get_weather answered\n";
        for (level, logged) in [
            ("info", info.to_owned()),
            ("debug", format!("{debug}\n{info}")),
        ] {
            let args = [
                "tools",
                "call",
                "get_weather",
                "--args",
                r#"{"city":"Austin"}"#,
            ];
            let r = mcpg(&[&args[..], &["--log-level", level], &conn].concat());
            assert_eq!(r.code, 0, "{r:?}");
            assert_eq!(r.stdout, "Austin: 91F, sunny\n");
            assert_eq!(r.stderr, logged, "{generation:?}");
        }
    }
}
