//! `mcpg eval` on the example suite (`examples/evals/demo.toml`) against `mcpg demo`:
//! with the mock (the deterministic baseline) and with the fake provider in all five
//! formats (a 429 asked again), failures explained and saved as sessions, and the
//! JUnit XML read back by PyPI's `junitparser`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::fake_model;

use std::path::{Path, PathBuf};
use std::process::Command;

use fake_model::{FakeProvider, mcpg_env};

const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/evals/demo.toml"
);

/// The example suite's cases that pass with the mock and with the fake provider.
const PASSING: [&str; 5] = [
    "weather in Austin",
    "two cities, two calls",
    "a rate-limited provider is asked again (busy)",
    "a prompt from the server",
    "no tool for a joke",
];

/// The fake provider's five formats, as `--models` names them.
const FAKE_MODELS: [&str; 5] = [
    "anthropic:c",
    "openai:g",
    "openai-responses:g",
    "gemini:g",
    "ollama:l",
];

fn demo() -> String {
    format!("{} demo", env!("CARGO_BIN_EXE_mcpg"))
}

fn eval(dir: &Path, models: &str, env: &[(&str, &str)]) -> fake_model::Run {
    let junit = dir.join("junit.xml");
    let failures = dir.join("failures");
    mcpg_env(
        &[
            "eval",
            SUITE,
            "--stdio",
            &demo(),
            "--models",
            models,
            "--junit",
            junit.to_str().unwrap(),
            "--failures",
            failures.to_str().unwrap(),
            "--backoff-ms",
            "5",
        ],
        env,
    )
}

/// The table's row for a case and model: (passed, result).
fn row<'a>(stdout: &'a str, case: &str, model: &str) -> (&'a str, &'a str) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with(case) && l[case.len()..].trim_start().starts_with(model))
        .unwrap_or_else(|| panic!("no row for {case} × {model} in\n{stdout}"));
    let words: Vec<&str> = line[case.len()..].split_whitespace().collect();
    (words[1], words[words.len() - 1])
}

#[test]
fn the_example_suite_with_the_mock_passes_all_but_the_case_made_to_fail() {
    let dir = tempfile::tempdir().unwrap();
    let run = eval(dir.path(), "mock", &[]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    for case in PASSING {
        assert_eq!(row(&run.stdout, case, "mock"), ("1/1", "ok"), "{case}");
    }
    assert_eq!(
        row(&run.stdout, "rain tomorrow needs the forecast", "mock"),
        ("0/1", "FAIL")
    );
    assert!(
        run.stdout
            .contains("- step 3: expected a call to get_forecast; the model called no tool"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("1 of 6 case × model pairs"),
        "{}",
        run.stderr
    );
    // The failed run is a session file the page can open.
    let saved: Vec<PathBuf> = std::fs::read_dir(dir.path().join("failures"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let session =
        mcpg_recording::decode_file(&std::fs::read_to_string(&saved[0]).unwrap()).unwrap();
    assert_eq!(
        session.messages,
        ["Is it going to rain in London tomorrow?"]
    );
    assert!(session.steps.len() >= 3);
    junit_reads_back(&dir.path().join("junit.xml"), 6, 1);
}

#[test]
fn the_fake_provider_in_five_formats_with_a_429_retried_and_argument_mismatches_explained() {
    let Some(fake) = FakeProvider::start() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let env = fake.env("sk-eval-test-key-0123456789");
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let run = eval(dir.path(), &FAKE_MODELS.join(","), &env);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    for model in FAKE_MODELS {
        for case in PASSING {
            assert_eq!(
                row(&run.stdout, case, model),
                ("1/1", "ok"),
                "{case} × {model}"
            );
        }
        // The fake model calls get_weather where the case wants the forecast.
        assert_eq!(
            row(&run.stdout, "rain tomorrow needs the forecast", model),
            ("0/1", "FAIL")
        );
    }
    assert!(run.stdout.contains(
        "- step 3: expected a call to get_forecast; the model called get_weather {\"city\":\"London\"}"
    ));
    // Both of a busy run's model requests (steps 3 and 6) were throttled once.
    assert_eq!(fake.get("/__throttled"), "{\"throttled\":10}");
    assert!(
        run.stdout
            .contains("10 model request(s) answered 429 were asked again")
    );
    assert_eq!(fake.violations(), "[]");
    assert!(!run.stdout.contains("sk-eval-test-key"));
    junit_reads_back(&dir.path().join("junit.xml"), 30, 5);
}

#[test]
fn argument_matchers_fail_with_what_was_expected_and_what_came() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.toml");
    std::fs::write(
        &cases,
        r#"
[[case]]
name = "wrong city"
message = "What's the weather in Paris?"
[[case.expect]]
tool = "get_weather"
args = { city = "Austin" }

[[case]]
name = "days out of range"
message = "Forecast for Paris for 3 days"
[[case.expect]]
tool = "get_forecast"
args = { city = { regex = "^Lon" }, days = { schema = { type = "integer", maximum = 2 } } }
"#,
    )
    .unwrap();
    let run = mcpg_env(
        &[
            "eval",
            cases.to_str().unwrap(),
            "--stdio",
            &demo(),
            "--failures",
            dir.path().join("f").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("- step 3: get_weather's argument city: expected \"Austin\", got \"Paris\"")
    );
    assert!(run.stdout.contains(
        "- step 3: get_forecast's argument city: expected a string matching /^Lon/, got \"Paris\""
    ));
    assert!(
        run.stdout
            .contains("- step 3: get_forecast's argument days: 3 does not fit the schema")
    );
}

#[test]
fn a_bad_cases_file_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("bad.toml");
    std::fs::write(&cases, "[[case]]\nname = \"x\"\n").unwrap();
    let run = mcpg_env(&["eval", cases.to_str().unwrap(), "--stdio", &demo()], &[]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("give exactly one of message and prompt")
    );
}

/// Reads `path` with junitparser and checks the counts it sees.
fn junit_reads_back(path: &Path, tests: usize, failures: usize) {
    let Some(python) = junit_python() else {
        return;
    };
    let script = "import sys\nfrom junitparser import JUnitXml, Failure\nx = JUnitXml.fromfile(sys.argv[1])\ncases = [c for s in x for c in s]\nfailed = [c for c in cases if any(isinstance(r, Failure) for r in c.result)]\nprint(len(cases), len(failed), failed[0].result[0].message if failed else '')";
    let out = Command::new(&python)
        .args(["-c", script, path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(words[0].parse::<usize>().unwrap(), tests, "{text}");
    assert_eq!(words[1].parse::<usize>().unwrap(), failures, "{text}");
    assert!(
        text.contains("step 3: expected a call to get_forecast"),
        "{text}"
    );
}

/// A Python with junitparser: `MCPG_JUNIT_PYTHON`, or the peers' venv (where
/// `cargo xtask install` puts it). Missing, the check is skipped with a notice, or
/// fails under `MCPG_REQUIRE_PEERS=1`.
fn junit_python() -> Option<PathBuf> {
    let peers = std::env::var_os("MCPG_PEERS").map_or_else(
        || PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/peers")),
        PathBuf::from,
    );
    let python = std::env::var_os("MCPG_JUNIT_PYTHON")
        .map_or_else(|| peers.join("python/.venv/bin/python"), PathBuf::from);
    let ok = Command::new(&python)
        .args(["-c", "import junitparser"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(python);
    }
    assert!(
        std::env::var("MCPG_REQUIRE_PEERS").map_or(true, |v| v != "1"),
        "{} cannot import junitparser and MCPG_REQUIRE_PEERS=1 (run cargo xtask install)",
        python.display()
    );
    eprintln!("SKIPPED: no junitparser at {}", python.display());
    None
}
