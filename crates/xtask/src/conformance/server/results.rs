//! What a server requirement set run found: the plan read from the set,
//! each scenario's outcome from its `checks.json`, and the figures and tables
//! the stage prints and writes.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::conformance::{Tally, tally};
use crate::util::Result;

/// One scenario the requirement set names for the server leg.
#[derive(Debug, PartialEq)]
pub struct Planned {
    /// Scenario name.
    pub scenario: String,
    /// `None` when required; the set's reason (`pending`, `extension`, …) when not scored.
    pub not_scored: Option<String>,
}

/// How one server scenario ended.
#[derive(Debug, PartialEq)]
pub enum Outcome {
    /// No FAILURE check and at least one SUCCESS.
    Pass {
        /// How many checks succeeded.
        checks: usize,
    },
    /// The scenario recorded no SUCCESS and no FAILURE (the suite shows it as
    /// passed; a required one counts as failed here, it proved nothing).
    NoChecks,
    /// FAILURE checks, or no result at all.
    Fail(String),
}

/// One scenario's row.
pub struct ServerRow {
    /// The scenario and whether it counts.
    pub planned: Planned,
    /// What its checks said.
    pub outcome: Outcome,
}

/// One revision's run.
pub struct ServerRun {
    /// The revision whose requirement set ran.
    pub revision: &'static str,
    /// Suite version that ran it.
    pub suite: String,
    /// Every planned scenario, required first, in the set's order.
    pub rows: Vec<ServerRow>,
    /// A problem with the run as a whole (server did not start, suite exit
    /// disagreeing with the checks); it fails the stage.
    pub error: Option<String>,
}

impl ServerRun {
    /// Required rows that passed, and how many are required.
    pub fn required_figures(&self) -> (usize, usize) {
        let required: Vec<&ServerRow> = self
            .rows
            .iter()
            .filter(|r| r.planned.not_scored.is_none())
            .collect();
        let passed = required
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Pass { .. }))
            .count();
        (passed, required.len())
    }

    /// `server 2025-11-25: 8 of 30 required pass; not scored: a pass, b FAIL`.
    pub fn summary(&self) -> String {
        let (passed, of) = self.required_figures();
        let not_scored: Vec<String> = self
            .rows
            .iter()
            .filter(|r| r.planned.not_scored.is_some())
            .map(|r| format!("{} {}", r.planned.scenario, short_outcome(&r.outcome)))
            .collect();
        let mut line = format!(
            "server {}: {passed} of {of} required pass; not scored: {}",
            self.revision,
            if not_scored.is_empty() {
                "none".to_owned()
            } else {
                not_scored.join(", ")
            }
        );
        if self.error.is_some() {
            line.push_str(" (the run failed, see below)");
        }
        line
    }

    /// What fails the stage in this run, if anything: the run's own error,
    /// else the required scenarios that did not pass.
    pub fn failure(&self) -> Option<String> {
        if let Some(error) = &self.error {
            return Some(format!("server {}: {error}", self.revision));
        }
        let failed: Vec<&str> = self
            .rows
            .iter()
            .filter(|r| r.planned.not_scored.is_none())
            .filter(|r| !matches!(r.outcome, Outcome::Pass { .. }))
            .map(|r| r.planned.scenario.as_str())
            .collect();
        (!failed.is_empty()).then(|| {
            format!(
                "server {}: {} of {} required failed ({})",
                self.revision,
                failed.len(),
                self.required_figures().1,
                failed.join(", ")
            )
        })
    }
}

/// `pass`, `FAIL`, `no checks`.
pub fn short_outcome(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Pass { .. } => "pass",
        Outcome::NoChecks => "no checks",
        Outcome::Fail(_) => "FAIL",
    }
}

/// The server leg of a requirement set: `server:` (required) then the
/// `not_scored` entries with `leg: server`.
pub fn plan(set: &Value) -> Result<Vec<Planned>> {
    let required = set
        .get("server")
        .and_then(Value::as_array)
        .ok_or("the requirement set has no `server:` list")?;
    let mut plan = Vec::new();
    for item in required {
        let name = item.as_str().ok_or("a `server:` entry is not a name")?;
        plan.push(Planned {
            scenario: name.to_owned(),
            not_scored: None,
        });
    }
    let extra = set.get("not_scored").and_then(Value::as_array);
    for entry in extra.into_iter().flatten() {
        if entry.get("leg").and_then(Value::as_str) != Some("server") {
            continue;
        }
        let name = entry
            .get("scenario")
            .and_then(Value::as_str)
            .ok_or("a `not_scored` entry has no scenario")?;
        let reason = entry.get("reason").and_then(Value::as_str).unwrap_or("?");
        plan.push(Planned {
            scenario: name.to_owned(),
            not_scored: Some(reason.to_owned()),
        });
    }
    if plan.is_empty() {
        return Err("the requirement set names no server scenario".to_owned());
    }
    Ok(plan)
}

/// The outcome of `scenario` from `out_dir/server-<scenario>-<timestamp>/checks.json`.
pub fn judge(out_dir: &Path, scenario: &str) -> Outcome {
    let Some(path) = find_checks(out_dir, scenario) else {
        return Outcome::Fail("no checks.json written".to_owned());
    };
    let tally = fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
        .and_then(|text| tally(&text));
    match tally {
        Err(e) => Outcome::Fail(e),
        Ok(Tally { failures, .. }) if !failures.is_empty() => Outcome::Fail(format!(
            "{} failed check(s): {}",
            failures.len(),
            failures.join("; ")
        )),
        Ok(Tally { success: 0, .. }) => Outcome::NoChecks,
        Ok(Tally { success, .. }) => Outcome::Pass { checks: success },
    }
}

/// The newest `server-<scenario>-<timestamp>` folder's `checks.json`. The
/// rest of the name must be a timestamp: `tools-call` must not match
/// `tools-call-image-…`.
fn find_checks(out_dir: &Path, scenario: &str) -> Option<PathBuf> {
    let prefix = format!("server-{scenario}-");
    let mut found: Vec<PathBuf> = fs::read_dir(out_dir)
        .ok()?
        .filter_map(std::result::Result::ok)
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_prefix(&prefix).is_some_and(is_timestamp)
        })
        .map(|e| e.path().join("checks.json"))
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.pop()
}

/// `2026-12-04T12-44-45-065Z`: digits and dashes, a `T`, a final `Z`.
fn is_timestamp(rest: &str) -> bool {
    let Some(body) = rest.strip_suffix('Z') else {
        return false;
    };
    body.len() == 23
        && body.chars().enumerate().all(|(i, c)| match i {
            10 => c == 'T',
            _ => c.is_ascii_digit() || c == '-',
        })
}

/// The outcome as a table cell (pipes would split a Markdown cell).
fn cell(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Pass { checks } => format!("pass ({checks} checks)"),
        Outcome::NoChecks => "no checks recorded".to_owned(),
        Outcome::Fail(reason) => {
            let short: String = reason.chars().take(100).collect();
            let cut = if short.len() < reason.len() {
                "…"
            } else {
                ""
            };
            format!("FAIL: {}{cut}", short.replace('|', "/"))
        }
    }
}

/// `required` or `not scored (reason)`.
fn counts(planned: &Planned) -> String {
    planned
        .not_scored
        .as_ref()
        .map_or_else(|| "required".to_owned(), |r| format!("not scored ({r})"))
}

/// The server rows for the terminal, one line each.
pub fn console_table(runs: &[ServerRun]) -> String {
    let mut out = String::new();
    for run in runs {
        out.push_str(&format!(
            "\nserver scenarios, {} ({}):\n",
            run.revision, run.suite
        ));
        for row in &run.rows {
            out.push_str(&format!(
                "  {:<48} {:<26} {}\n",
                row.planned.scenario,
                counts(&row.planned),
                cell(&row.outcome)
            ));
        }
    }
    out
}

/// The server section of `target/conformance.md`.
pub fn markdown(runs: &[ServerRun]) -> String {
    let mut out = String::from(
        "\nServer requirement sets of the suite (`conformance server --requirements REV`, the lists read from \
         its `requirements/REV.yaml`) run against a fresh `mcpg demo --http --conformance` per revision.\n",
    );
    for run in runs {
        out.push_str(&format!(
            "\n### Server {} (suite {})\n\n| Scenario | Counts | Result |\n| --- | --- | --- |\n",
            run.revision, run.suite
        ));
        for row in &run.rows {
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                row.planned.scenario,
                counts(&row.planned),
                cell(&row.outcome)
            ));
        }
        out.push_str(&format!("\n{}.\n", run.summary()));
    }
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "a test fails by panicking")]
mod tests {
    use super::*;

    #[test]
    fn plans_the_server_leg() {
        let set = serde_json::json!({
            "server": ["server-initialize", "ping"],
            "client": ["initialize"],
            "not_scored": [
                {"scenario": "auth/dpop", "leg": "client", "reason": "extension"},
                {"scenario": "json-schema-2020-12", "leg": "server", "reason": "pending"}
            ]
        });
        let plan = plan(&set).unwrap();
        let names: Vec<(&str, Option<&str>)> = plan
            .iter()
            .map(|p| (p.scenario.as_str(), p.not_scored.as_deref()))
            .collect();
        assert_eq!(
            names,
            [
                ("server-initialize", None),
                ("ping", None),
                ("json-schema-2020-12", Some("pending"))
            ]
        );
        assert!(super::plan(&serde_json::json!({"client": []})).is_err());
    }

    #[test]
    fn judges_by_scenario_folder() {
        let dir = std::env::temp_dir().join(format!("xtask-server-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let write = |name: &str, body: &str| {
            let d = dir.join(name);
            fs::create_dir_all(&d).unwrap();
            fs::write(d.join("checks.json"), body).unwrap();
        };
        write(
            "server-tools-call-image-2026-12-04T12-44-44-837Z",
            r#"[{"status": "FAILURE", "name": "X", "errorMessage": "Unknown tool"}]"#,
        );
        write(
            "server-tools-list-2026-12-04T12-44-44-780Z",
            r#"[{"status": "SUCCESS"}, {"status": "WARNING"}]"#,
        );
        write(
            "server-server-sse-polling-2026-12-04T12-44-45-087Z",
            r#"[{"status": "INFO"}]"#,
        );
        assert_eq!(judge(&dir, "tools-list"), Outcome::Pass { checks: 1 });
        assert!(
            matches!(judge(&dir, "tools-call-image"), Outcome::Fail(r) if r.contains("Unknown tool"))
        );
        assert_eq!(judge(&dir, "server-sse-polling"), Outcome::NoChecks);
        // A prefix of another scenario's name does not borrow its result.
        assert!(matches!(judge(&dir, "tools-call"), Outcome::Fail(r) if r.contains("no checks")));
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn summarises_and_fails_on_required_only() {
        let row = |name: &str, not_scored: Option<&str>, outcome| ServerRow {
            planned: Planned {
                scenario: name.into(),
                not_scored: not_scored.map(str::to_owned),
            },
            outcome,
        };
        let run = ServerRun {
            revision: "2025-11-25",
            suite: "0.2.0".into(),
            rows: vec![
                row("ping", None, Outcome::Pass { checks: 2 }),
                row("tools-list", None, Outcome::Fail("x".into())),
                row(
                    "json-schema-2020-12",
                    Some("pending"),
                    Outcome::Fail("y".into()),
                ),
                row("server-sse-polling", Some("pending"), Outcome::NoChecks),
            ],
            error: None,
        };
        assert_eq!(
            run.summary(),
            "server 2025-11-25: 1 of 2 required pass; not scored: json-schema-2020-12 FAIL, server-sse-polling no checks"
        );
        assert_eq!(
            run.failure().as_deref(),
            Some("server 2025-11-25: 1 of 2 required failed (tools-list)")
        );
        assert!(is_timestamp("2026-12-04T12-44-45-065Z"));
        assert!(!is_timestamp("image-2026-12-04T12-44-45-065Z"));
    }
}
