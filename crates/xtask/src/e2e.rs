//! The e2e stage of `cargo xtask test`: the release page served by `mcpg serve`
//! with a test config (server-everything and a hostile server over stdio, plus the
//! demo), driven by Playwright in the system Chromium (`tests/e2e`, `node --test`).
//! Screenshots go to `target/e2e-screenshots/`; figures are printed, not asserted.

use std::fs;
use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::play;
use crate::util::{self, Result, command};

/// The line `mcpg serve` prints once it listens.
const READY: &str = "MCP Playground: open ";

/// How long the bridge gets to stop its servers after SIGTERM.
const STOP_GRACE: Duration = Duration::from_secs(15);

/// Builds the page, starts the bridge, runs the Playwright tests, stops the bridge.
pub fn e2e(root: &Path) -> Result<()> {
    play::prepare(root)?;
    let dist = play::build_page(root)?;
    let mcpg = play::build_mcpg(root)?;
    let dir = util::target_dir(root).join("e2e");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let config = dir.join("bridge.toml");
    fs::write(&config, test_config(root, &mcpg))
        .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
    let mut server = command(&mcpg, root)
        .arg("serve")
        .arg("--config")
        .arg(&config)
        .arg("--dist")
        .arg(&dist)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", mcpg.display()))?;
    let outcome = match ready_url(&mut server) {
        Ok(url) => run_tests(root, &url, &dist),
        Err(e) => Err(e),
    };
    stop(&mut server);
    outcome
}

/// The bridge config: absolute paths, so it works from any directory.
fn test_config(root: &Path, mcpg: &Path) -> String {
    let q = |p: &Path| format!("{:?}", p.display().to_string());
    let everything = root.join(
        "tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    );
    let hostile = root.join("tests/e2e/hostile_server.mjs");
    format!(
        "# Written by cargo xtask test (e2e stage).\n\
         [[server]]\nname = \"everything\"\ncommand = \"node\"\nargs = [{}, \"stdio\"]\n\n\
         [[server]]\nname = \"hostile\"\ncommand = \"node\"\nargs = [{}]\n\n\
         [[server]]\nname = \"demo\"\ncommand = {}\nargs = [\"demo\"]\n",
        q(&everything),
        q(&hostile),
        q(mcpg)
    )
}

/// Reads the bridge's stdout up to its URL line; keeps draining it afterwards so
/// the pipe never fills.
fn ready_url(server: &mut Child) -> Result<String> {
    let out = server.stdout.take().ok_or("no stdout from mcpg serve")?;
    let mut lines = BufReader::new(out).lines();
    for line in lines.by_ref() {
        let line = line.map_err(|e| format!("reading mcpg serve's output: {e}"))?;
        println!("{line}");
        if let Some(url) = line.strip_prefix(READY) {
            let url = url.trim().to_owned();
            std::thread::spawn(move || {
                for l in lines.map_while(std::result::Result::ok) {
                    println!("mcpg serve: {l}");
                }
            });
            return Ok(url);
        }
    }
    Err("mcpg serve ended before printing its URL".into())
}

fn run_tests(root: &Path, url: &str, dist: &Path) -> Result<()> {
    let e2e = root.join("tests").join("e2e");
    let shots = util::target_dir(root).join("e2e-screenshots");
    let mut cmd = Command::new("node");
    cmd.current_dir(&e2e)
        .env("PATH", util::child_path(&[]))
        .env("MCPG_E2E_URL", url)
        .env("MCPG_E2E_DIST", dist)
        .env("MCPG_E2E_SHOTS", &shots)
        .args([
            "--test",
            "--test-concurrency=1",
            "--test-reporter=spec",
            "--test-reporter-destination=stdout",
            "--test-reporter=./reporter.mjs",
            "--test-reporter-destination=stdout",
            "loop.test.mjs",
            "bridge.test.mjs",
            "metrics.test.mjs",
        ]);
    let result = util::run(&mut cmd);
    println!("screenshots: {}", shots.display());
    result
}

/// SIGTERM (the bridge then stops every server it started), then SIGKILL if it
/// has not exited within [`STOP_GRACE`].
fn stop(server: &mut Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status();
    let start = Instant::now();
    while start.elapsed() < STOP_GRACE {
        if let Ok(Some(_)) = server.try_wait() {
            return;
        }
        // Polling a child's exit; nothing here depends on the timing.
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = server.kill();
    let _ = server.wait();
}
