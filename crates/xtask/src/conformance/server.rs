//! The server half of the conformance stage: the suite's `server --requirements
//! REV` runs against a fresh `mcpg demo --http --conformance 127.0.0.1:0` for
//! each revision (2025-11-25 sessions, stateless 2026-07-28).
//!
//! Which scenarios count is read at run time from the installed suite's
//! `requirements/<rev>.yaml` (through the suite's own YAML parser), so a
//! suite upgrade moves the lists with it. The `server:` list is required; the
//! `not_scored` entries with `leg: server` run and are reported but never fail
//! the stage. The verdicts come from each scenario's `checks.json`, not from
//! the suite's exit code alone.

mod results;

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

use super::{Exit, execute};
use crate::util::{self, Result, command};
use results::{Outcome, ServerRow, judge, plan};
pub use results::{ServerRun, console_table, markdown};

/// The revisions run, each against its own fresh server process.
pub const REVISIONS: [&str; 2] = ["2025-11-25", "2026-07-28"];

/// Set to a command (split on whitespace; `127.0.0.1:0` is appended) to test
/// another server than `mcpg demo --http --conformance`, e.g. plain
/// `target/debug/mcpg demo --http` to see the stage fail. Meant for debugging.
pub const SERVER_OVERRIDE_ENV: &str = "MCPG_CONFORMANCE_SERVER";

/// How long the server under test may take to print its URL.
const URL_DEADLINE: Duration = Duration::from_secs(20);

/// A whole requirement set runs in one suite process (each scenario has its
/// own 30 s timeout inside); past this the suite is taken as hung.
const RUN_DEADLINE: Duration = Duration::from_secs(900);

/// Everything the server runs need from the stage.
pub struct Setup<'a> {
    /// The suite folder (`tests/peers/node-conformance-next`).
    pub suite_dir: &'a Path,
    /// Builds a suite command with the given arguments.
    pub suite_cmd: &'a dyn Fn(&[&str]) -> Command,
    /// The Node 22 binary (runs the YAML conversion).
    pub node: &'a Path,
    /// The `mcpg` binary.
    pub mcpg: &'a Path,
    /// Results go under here, one folder per revision.
    pub results_dir: &'a Path,
    /// Suite version, for the report.
    pub suite: &'a str,
    /// Repository root (relative override paths resolve against it).
    pub root: &'a Path,
}

/// Runs every revision and returns their results (failures inside).
pub fn run_all(setup: &Setup<'_>) -> Vec<ServerRun> {
    REVISIONS
        .iter()
        .map(|revision| {
            let mut run = ServerRun {
                revision,
                suite: setup.suite.to_owned(),
                rows: Vec::new(),
                error: None,
            };
            if let Err(e) = run_revision(setup, &mut run) {
                run.error = Some(e);
            }
            println!("  {}", run.summary());
            run
        })
        .collect()
}

/// One revision: plan from the YAML, start the server, run the suite, judge.
fn run_revision(setup: &Setup<'_>, run: &mut ServerRun) -> Result<()> {
    let yaml = setup
        .suite_dir
        .join("node_modules/@modelcontextprotocol/conformance/requirements")
        .join(format!("{}.yaml", run.revision));
    let plan = plan(&requirements_json(setup, &yaml)?)?;
    // Until the suite has run, every scenario stands as not run.
    run.rows = plan
        .into_iter()
        .map(|planned| ServerRow {
            planned,
            outcome: Outcome::Fail("not run".to_owned()),
        })
        .collect();
    let out_dir = setup.results_dir.join("server").join(run.revision);
    let mut server = start_server(setup)?;
    let url = server.url.clone();
    println!("  [{}] server {} at {url}", setup.suite, run.revision);
    let out = out_dir.to_string_lossy().into_owned();
    let args = [
        "server",
        "--url",
        url.as_str(),
        "--requirements",
        run.revision,
        "-o",
        out.as_str(),
    ];
    let exit = execute(&mut (setup.suite_cmd)(&args), &out_dir, RUN_DEADLINE);
    server.stop();
    let exit = exit?;
    for row in &mut run.rows {
        row.outcome = judge(&out_dir, &row.planned.scenario);
    }
    // `--requirements` exits non-zero exactly when a required scenario fails;
    // a disagreement with the checks means the reading here is off.
    let (passed, of) = run.required_figures();
    match exit {
        Exit::TimedOut => Err("the suite timed out".to_owned()),
        Exit::Code(code) if code != Some(0) && passed == of => Err(format!(
            "the suite exited {code:?} although every required scenario's checks passed; see {}",
            out_dir.join("suite-output.txt").display()
        )),
        Exit::Code(_) => Ok(()),
    }
}

/// The requirement set as JSON, parsed by the suite's own `yaml` package (no
/// YAML parser in xtask; the suite's is the one whose reading counts).
fn requirements_json(setup: &Setup<'_>, yaml: &Path) -> Result<Value> {
    if !yaml.is_file() {
        return Err(format!(
            "the suite has no requirement set {}: is the installed suite too old?",
            yaml.display()
        ));
    }
    let script = "const y=require('yaml');const fs=require('fs');\
                  process.stdout.write(JSON.stringify(y.parse(fs.readFileSync(process.argv[1],'utf8'))))";
    let text = util::capture(
        command(setup.node, setup.suite_dir)
            .args(["-e", script])
            .arg(yaml),
    )?;
    serde_json::from_str(&text).map_err(|e| format!("{} as JSON: {e}", yaml.display()))
}

/// The server under test, killed on drop.
struct Server {
    /// The process.
    child: Child,
    /// The URL it printed.
    url: String,
}

impl Server {
    /// Kills and reaps the process (best effort: it may have exited).
    fn stop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts `mcpg demo --conformance --http 127.0.0.1:0` (or the override) and
/// reads the URL from its first stdout line.
fn start_server(setup: &Setup<'_>) -> Result<Server> {
    let mut cmd = match std::env::var(SERVER_OVERRIDE_ENV)
        .ok()
        .filter(|s| !s.trim().is_empty())
    {
        Some(line) => {
            let mut words = line.split_whitespace();
            let program = words.next().unwrap_or_default();
            let mut cmd = command(setup.root.join(program), setup.root);
            cmd.args(words);
            println!("  server under test: {line} (from {SERVER_OVERRIDE_ENV})");
            cmd
        }
        None => {
            let mut cmd = command(setup.mcpg, setup.root);
            // `--http` takes an optional ADDR, so the address follows it directly.
            cmd.args(["demo", "--conformance", "--http"]);
            cmd
        }
    };
    cmd.arg("127.0.0.1:0");
    let shown = util::display(&cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    let stdout = child.stdout.take().ok_or("no stdout pipe")?;
    let mut stderr = child.stderr.take().ok_or("no stderr pipe")?;
    let (tx, rx) = mpsc::channel();
    // The first line arrives from a thread so a silent server cannot hang the stage.
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx.recv_timeout(URL_DEADLINE).unwrap_or_default();
    let url = line.trim().to_owned();
    if url.starts_with("http://") {
        return Ok(Server { child, url });
    }
    let _ = child.kill();
    let _ = child.wait();
    let mut err = String::new();
    let _ = stderr.read_to_string(&mut err);
    // The first line of stderr says why (e.g. clap's "unexpected argument").
    let why = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    Err(format!("`{shown}` printed no URL: {}", why.trim()))
}
