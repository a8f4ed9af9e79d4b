//! `mcpg loop`: the walkthrough against `mcpg demo` with the mock (golden output),
//! and against the fake provider (`tests/e2e/fake_provider.mjs`) in all five formats,
//! with keys from the environment that never show in the output.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::fake_model;

use std::process::Command;

use fake_model::{FakeProvider, mcpg_env};

fn demo() -> String {
    format!("{} demo", env!("CARGO_BIN_EXE_mcpg"))
}

/// `mcpg loop "What's the weather in Austin?"` against `mcpg demo` with `model`.
fn austin(model: &str, more: &[&str], env: &[(&str, &str)]) -> fake_model::Run {
    let demo = demo();
    let mut args = vec![
        "loop",
        "What's the weather in Austin?",
        "--stdio",
        &demo,
        "--model",
        model,
    ];
    args.extend_from_slice(more);
    mcpg_env(&args, env)
}

#[test]
fn the_walkthrough_with_the_mock_matches_the_golden_output() {
    let run = mcpg_env(
        &[
            "loop",
            "What's the weather in Austin?",
            "--stdio",
            &demo(),
            "--width",
            "90",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/loop_demo_mock.txt"
    );
    if std::env::var_os("MCPG_UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &run.stdout).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap();
    // Line by line, so a difference names its line.
    for (i, (got, want)) in run.stdout.lines().zip(golden.lines()).enumerate() {
        assert_eq!(got, want, "line {} differs from {path}", i + 1);
    }
    assert_eq!(run.stdout.lines().count(), golden.lines().count());
    for n in 1..=6 {
        assert!(run.stdout.contains(&format!("── Step {n} · ")), "step {n}");
    }
    assert!(run.stdout.contains("── Step 1 · over MCP · tools/list"));
    assert!(run.stdout.contains("── Step 2 · inside the host · "));
}

#[test]
fn json_prints_one_object_per_step_and_the_share_link_decodes() {
    let run = mcpg_env(
        &[
            "loop",
            "What's the weather in Paris and Austin?",
            "--stdio",
            &demo(),
            "--json",
            "--share",
            "--name",
            "demo",
        ],
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let steps: Vec<u64> = lines.iter().filter_map(|v| v["step"].as_u64()).collect();
    // Two parallel calls: steps 4 and 5 twice.
    assert_eq!(steps, [1, 2, 3, 4, 5, 4, 5, 6]);
    assert_eq!(lines[0]["side"], "mcp");
    assert_eq!(lines[1]["side"], "host");
    let link = lines.last().unwrap()["share"].as_str().unwrap();
    let session = mcpg_recording::decode_link(link).unwrap();
    assert_eq!(
        session.connection,
        mcpg_recording::Connection::Bridge {
            server: "demo".into()
        }
    );
    assert_eq!(session.steps.len(), 8);
    assert_eq!(session.script.len(), 2);
    assert!(session.wire.iter().all(|w| w.text.is_some()));
}

#[test]
fn the_fake_provider_answers_in_all_five_formats_and_no_key_is_printed() {
    let Some(fake) = FakeProvider::start() else {
        return;
    };
    let key = "sk-test-secret-key-0123456789";
    for model in [
        "anthropic:claude-test",
        "openai:gpt-test",
        "openai-responses:gpt-test",
        "gemini:gemini-test",
        "ollama:llama-test",
    ] {
        let env = fake.env(key);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let run = austin(model, &["--share"], &env);
        assert_eq!(run.code, 0, "{model}: {}", run.stderr);
        for n in 1..=6 {
            assert!(
                run.stdout.contains(&format!("── Step {n} · ")),
                "{model}: step {n}"
            );
        }
        assert!(!run.stdout.contains("[failed]"), "{model}: {}", run.stdout);
        assert!(
            run.stdout
                .contains("answer: Here is what the tools said: Austin: 91F"),
            "{model}: {}",
            run.stdout
        );
        assert!(
            !run.stdout.contains(key) && !run.stderr.contains(key),
            "{model}"
        );
        let link = run
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("share: "))
            .unwrap();
        let session = mcpg_recording::decode_link(link).unwrap();
        assert!(
            !serde_json::to_string(&session.to_json())
                .unwrap()
                .contains(key)
        );
    }
    assert_eq!(fake.violations(), "[]");
}

#[test]
fn a_missing_key_is_a_usage_error_naming_the_variable() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args(["loop", "hi", "--stdio", &demo(), "--model", "anthropic:x"])
        .env_remove("ANTHROPIC_API_KEY")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("ANTHROPIC_API_KEY is not set"));
}

#[test]
fn step_waits_for_enter_before_each_step_after_the_first() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcpg"))
        .args([
            "loop",
            "What's the weather in Austin?",
            "--stdio",
            &demo(),
            "--step",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // One Enter per pause; the loop reads them one at a time.
    child.stdin.take().unwrap().write_all(b"\n\n\n\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let asked: Vec<&str> = stderr
        .split("press Enter for ")
        .skip(1)
        .map(|s| s.split('…').next().unwrap())
        .collect();
    assert_eq!(asked, ["step 2", "step 3", "step 4", "step 6"], "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("answer: get_weather says: Austin"));
}

#[test]
fn an_unreachable_model_api_fails_with_its_address_and_no_key() {
    let key = "sk-unreachable-secret-0123456789";
    let run = austin(
        "anthropic:claude-test",
        &[],
        &[
            ("ANTHROPIC_API_KEY", key),
            // Port 9 (discard): nothing listens there on a test machine.
            ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9"),
        ],
    );
    assert_eq!(run.code, 4, "{run:?}");
    assert!(
        run.stderr.contains(
            "the model API could not be reached: http://127.0.0.1:9/v1/messages: could not connect"
        ),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains(key) && !run.stdout.contains(key));
    // Steps 1 and 2 ran before the model was asked.
    assert!(run.stdout.contains("── Step 2 · inside the host"));
}
