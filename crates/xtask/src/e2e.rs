//! The e2e stage of `cargo xtask test`: the release page served by `mcpg serve`
//! with a test config (server-everything and a hostile server over stdio, the demo,
//! and two Streamable HTTP remotes: server-everything, which sends CORS headers, and
//! a plain server, which does not; a server whose SSE answer breaks and must be
//! resumed, `MCPG_E2E_RESUMABLE_URL`; the rmcp peer over HTTP, `MCPG_E2E_RMCP_URL`;
//! the `mcpg` binary and that config, `MCPG_E2E_MCPG` and `MCPG_E2E_CONFIG`, for tests
//! that start a bridge of their own; a real authorization server and a protected MCP
//! server behind it, `MCPG_E2E_AS_URL` and `MCPG_E2E_AUTH_MCP_URL`, relayed as `protected`;
//! the Python SDK's old HTTP+SSE transport with CORS, `MCPG_E2E_SSE_URL`, relayed as `python-sse`),
//! driven by Playwright in the system Chromium
//! (`tests/e2e`, `node --test`; `MCPG_E2E_ONLY=a.test.mjs,b.test.mjs` runs only those files; a fake LLM provider
//! is started too and its URL given as `MCPG_E2E_PROVIDER_URL`). Screenshots go to `target/e2e-screenshots/`; figures
//! are printed, not asserted.

use std::fs;
use std::io::{BufRead as _, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use crate::util::{self, Result, command};
use crate::{dist, e2e_auth, play};

/// The line `mcpg serve` prints once it listens.
const READY: &str = "MCP Playground: open ";

/// How long each server gets to stop after SIGTERM (the bridge stops its own children).
const STOP_GRACE: Duration = Duration::from_secs(15);

/// How long an HTTP peer may take to start listening.
const STARTUP: Duration = Duration::from_secs(30);

/// Set to a comma-separated list of test files (e.g. `loop.test.mjs`) to run only those.
const ONLY_ENV: &str = "MCPG_E2E_ONLY";

/// The test files: every `*.test.mjs` in `tests/e2e`, by name, with
/// `metrics.test.mjs` last (its figures are taken on a page nothing else is using).
fn test_files(e2e: &Path) -> Result<Vec<String>> {
    let entries = fs::read_dir(e2e).map_err(|e| format!("cannot read {}: {e}", e2e.display()))?;
    let only: Option<Vec<String>> = std::env::var(ONLY_ENV)
        .ok()
        .map(|v| v.split(',').map(|s| s.trim().to_owned()).collect());
    let mut files: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".test.mjs"))
        .filter(|n| only.as_ref().is_none_or(|o| o.contains(n)))
        .collect();
    files.sort_by_key(|n| (n == "metrics.test.mjs", n.clone()));
    if files.is_empty() {
        return Err(format!("no e2e test files to run in {}", e2e.display()));
    }
    Ok(files)
}

/// Builds the page, starts the servers, runs the Playwright tests, stops the servers.
pub fn e2e(root: &Path) -> Result<()> {
    let dist = dist::default_out(root);
    dist::build(root, &dist, dist::Ceiling::Enforce)?;
    let mcpg = play::build_mcpg(root)?;
    let mut children = Vec::new();
    let outcome = with_servers(root, &mcpg, &dist, &mut children);
    // Newest first: the bridge before the servers it relays to.
    for child in children.iter_mut().rev() {
        stop(child);
    }
    outcome
}

/// Starts the HTTP peers and the bridge (each recorded in `children`, so it is
/// always stopped), then runs the tests.
fn with_servers(root: &Path, mcpg: &Path, dist: &Path, children: &mut Vec<Child>) -> Result<()> {
    let e2e = root.join("tests").join("e2e");
    let mut plain = Command::new("node");
    plain.current_dir(&e2e).args(["plain_http_server.mjs", "0"]);
    let plain_url = start(&mut plain, "plain-http listening on ", children)?;

    let mut provider = Command::new("node");
    provider.current_dir(&e2e).args(["fake_provider.mjs", "0"]);
    let provider_url = start(&mut provider, "fake provider on ", children)?;

    let port = free_port()?;
    let mut everything = Command::new("node");
    everything
        .current_dir(root)
        .env("PORT", port.to_string())
        .arg(everything_js(root))
        .arg("streamableHttp");
    // It announces itself on stderr, so wait for its port instead.
    let shown = util::display(&everything);
    children.push(
        everything
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{shown}`: {e}"))?,
    );
    wait_for_port(port).map_err(|e| format!("`{shown}`: {e}"))?;
    let everything_url = format!("http://127.0.0.1:{port}/mcp");

    let mut resumable = Command::new("node");
    resumable
        .current_dir(&e2e)
        .args(["resumable_server.mjs", "0"]);
    let resumable_url = start(&mut resumable, "resumable-http listening on ", children)?;

    let rmcp_url = start_rmcp(root, children)?;
    let sse_url = start_python_sse(root, children)?;
    let auth = e2e_auth::start_auth_peers(root, children)?;

    let dir = util::target_dir(root).join("e2e");
    fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let config = dir.join("bridge.toml");
    fs::write(
        &config,
        test_config(root, mcpg, &plain_url, &everything_url, &auth.mcp, &sse_url),
    )
    .map_err(|e| format!("cannot write {}: {e}", config.display()))?;
    let mut serve = command(mcpg, root);
    serve
        .arg("serve")
        .arg("--config")
        .arg(&config)
        .arg("--dist")
        .arg(dist)
        .args(["--port", "0"])
        // The test authorization server is on loopback, which the go-between
        // refuses by default (a remote server chooses those URLs).
        .arg("--allow-private-auth");
    let url = start(&mut serve, READY, children)?;

    let shots = util::target_dir(root).join("e2e-screenshots");
    // Chromium leaves a ~30 MB `org.chromium.Chromium.scoped_dir.*` in TMPDIR for
    // every browser it starts and never removes it: about 1.2 GB per run on a shared
    // /tmp. The run gets a temporary directory of its own, emptied before and after.
    let tmp = util::target_dir(root).join("e2e-tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).map_err(|e| format!("cannot create {}: {e}", tmp.display()))?;
    let mut node = Command::new("node");
    node.current_dir(&e2e)
        .env("PATH", util::child_path(&[]))
        .env("TMPDIR", &tmp)
        .env("MCPG_E2E_URL", url)
        .env("MCPG_E2E_DIST", dist)
        .env("MCPG_E2E_SHOTS", &shots)
        .env("MCPG_E2E_PLAIN_URL", &plain_url)
        .env("MCPG_E2E_EVERYTHING_URL", &everything_url)
        .env("MCPG_E2E_PROVIDER_URL", &provider_url)
        .env("MCPG_E2E_RESUMABLE_URL", &resumable_url)
        .env("MCPG_E2E_RMCP_URL", &rmcp_url)
        .env("MCPG_E2E_SSE_URL", &sse_url)
        .env("MCPG_E2E_AS_URL", &auth.issuer)
        .env("MCPG_E2E_AUTH_MCP_URL", &auth.mcp)
        // For tests that start a bridge of their own (`hosted_bridge.test.mjs`: a
        // second `mcpg serve --page-origin` for a page on another origin).
        .env("MCPG_E2E_MCPG", mcpg)
        .env("MCPG_E2E_CONFIG", &config)
        .args([
            "--test",
            "--test-concurrency=1",
            // A test that hangs (a browser call that never returns, as Playwright's
            // close of a tab Chromium never closed did in bridge_auth.test.mjs)
            // fails after 5 minutes and says which, instead of holding the run
            // until CI's own limit. The longest test takes ~20 s.
            "--test-timeout=300000",
            "--test-reporter=spec",
            "--test-reporter-destination=stdout",
            "--test-reporter=./reporter.mjs",
            "--test-reporter-destination=stdout",
        ])
        .args(test_files(&e2e)?);
    let result = util::run(&mut node);
    let _ = std::fs::remove_dir_all(&tmp);
    println!("screenshots: {}", shots.display());
    result
}

/// Builds the rmcp peer (`tests/peers/rmcp-server`) and serves it over Streamable
/// HTTP on a free port; returns its URL. It speaks 2026-07-28, checks
/// `Mcp-Param-*` headers, and sends CORS headers, so the page reaches it directly.
fn start_rmcp(root: &Path, children: &mut Vec<Child>) -> Result<String> {
    util::run(command(util::cargo(), root).args(["build", "-p", "rmcp-peer"]))?;
    let exe = util::target_dir(root).join("debug").join("rmcp-peer");
    let port = free_port()?;
    let mut rmcp = Command::new(&exe);
    rmcp.args(["--http", &port.to_string()]);
    let shown = util::display(&rmcp);
    children.push(
        rmcp.stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{shown}`: {e}"))?,
    );
    wait_for_port(port).map_err(|e| format!("`{shown}`: {e}"))?;
    Ok(format!("http://127.0.0.1:{port}/mcp"))
}

/// The Python SDK peer serving the old HTTP+SSE transport (2024-11-05) with CORS
/// headers (`server.py --sse PORT --cors`) on a free port; returns its `/sse` URL.
fn start_python_sse(root: &Path, children: &mut Vec<Child>) -> Result<String> {
    let port = free_port()?;
    let mut sse = Command::new(root.join("tests/peers/python/.venv/bin/python"));
    sse.arg(root.join("tests/peers/python/server.py"))
        .args(["--sse", &port.to_string(), "--cors"]);
    let shown = util::display(&sse);
    children.push(
        sse.stdout(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{shown}`: {e}"))?,
    );
    wait_for_port(port).map_err(|e| format!("`{shown}`: {e}"))?;
    Ok(format!("http://127.0.0.1:{port}/sse"))
}

fn everything_js(root: &Path) -> PathBuf {
    root.join("tests/peers/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

/// A port nobody listens on right now (server-everything wants a fixed port).
fn free_port() -> Result<u16> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}

/// Waits until something accepts connections on `port`.
fn wait_for_port(port: u16) -> Result<()> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let start = Instant::now();
    while start.elapsed() < STARTUP {
        if std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
            return Ok(());
        }
        // Polling for a server to come up; nothing here depends on the timing.
        std::thread::sleep(Duration::from_millis(100));
    }
    Err(format!(
        "nothing listened on port {port} within {STARTUP:?}"
    ))
}

/// The bridge config: absolute paths, so it works from any directory.
fn test_config(
    root: &Path,
    mcpg: &Path,
    plain_url: &str,
    everything_url: &str,
    protected_url: &str,
    sse_url: &str,
) -> String {
    let q = |p: &Path| format!("{:?}", p.display().to_string());
    let hostile = root.join("tests/e2e/hostile_server.mjs");
    let hostile_app = root.join("tests/e2e/hostile_app_server.mjs");
    let example = |name: &str| {
        q(&root.join(format!(
            "tests/peers/node-apps/node_modules/@modelcontextprotocol/{name}/dist/index.js"
        )))
    };
    format!(
        "# Written by cargo xtask test (e2e stage).\n\
         [[server]]\nname = \"everything\"\ncommand = \"node\"\nargs = [{}, \"stdio\"]\n\n\
         [[server]]\nname = \"hostile\"\ncommand = \"node\"\nargs = [{}]\n\n\
         [[server]]\nname = \"hostile-flood\"\ncommand = \"node\"\nargs = [{}, \"--flood\", \"5000\"]\n\n\
         [[server]]\nname = \"hostile-silent\"\ncommand = \"node\"\nargs = [{}, \"--silent\"]\n\n\
         [[server]]\nname = \"hostile-app\"\ncommand = \"node\"\nargs = [{}]\n\n\
         [[server]]\nname = \"apps-basic\"\ncommand = \"node\"\nargs = [{}, \"--stdio\"]\n\n\
         [[server]]\nname = \"apps-monitor\"\ncommand = \"node\"\nargs = [{}, \"--stdio\"]\n\n\
         [[server]]\nname = \"demo\"\ncommand = {}\nargs = [\"demo\"]\n\n\
         [[server]]\nname = \"python\"\ncommand = {}\nargs = [{}]\n\n\
         [[server]]\nname = \"python-classic\"\ncommand = {}\nargs = [{}]\n\n\
         [[server]]\nname = \"python-big\"\ncommand = {}\nargs = [{}]\n\n\
         [[server]]\nname = \"python-huge\"\ncommand = {}\nargs = [{}, \"--tools\", \"10000\"]\n\n\
         [[remote]]\nname = \"plain\"\nurl = {plain_url:?}\n\n\
         [[remote]]\nname = \"everything-http\"\nurl = {everything_url:?}\n\n\
         [[remote]]\nname = \"protected\"\nurl = {protected_url:?}\n\n\
         [[remote]]\nname = \"python-sse\"\nurl = {sse_url:?}\n",
        q(&everything_js(root)),
        q(&hostile),
        // Floods 5,000 log lines before any request: `links_chunk.test.mjs`.
        q(&hostile),
        // Never answers: `lazy.test.mjs`.
        q(&hostile),
        q(&hostile_app),
        example("server-basic-vanillajs"),
        example("server-system-monitor"),
        q(mcpg),
        q(&root.join("tests/peers/python/.venv/bin/python")),
        q(&root.join("tests/peers/python/server.py")),
        // Tools that ask the classic way: the advice e2e (`advice.test.mjs`).
        q(&root.join("tests/peers/python/.venv/bin/python")),
        q(&root.join("tests/peers/python/classic_asks.py")),
        // 1,001 tools in 11 pages and a 10 MB answer: `big_server.test.mjs`.
        q(&root.join("tests/peers/python/.venv/bin/python")),
        q(&root.join("tests/peers/python/big_server.py")),
        // The same with 10,000 tools in 101 pages.
        q(&root.join("tests/peers/python/.venv/bin/python")),
        q(&root.join("tests/peers/python/big_server.py")),
    )
}

/// Spawns `cmd` with stdout piped and waits for the line containing `marker`;
/// returns what follows the marker on that line.
pub(crate) fn start(cmd: &mut Command, marker: &str, children: &mut Vec<Child>) -> Result<String> {
    let shown = util::display(cmd);
    let mut child = cmd
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start `{shown}`: {e}"))?;
    let out = child.stdout.take();
    children.push(child);
    let out = out.ok_or_else(|| format!("no stdout from `{shown}`"))?;
    after_marker(out, marker).map_err(|e| format!("`{shown}`: {e}"))
}

/// Reads `out` up to the line containing `marker`, then keeps draining it on a
/// thread so the pipe never fills.
fn after_marker(out: ChildStdout, marker: &str) -> Result<String> {
    let mut lines = BufReader::new(out).lines();
    for line in lines.by_ref() {
        let line = line.map_err(|e| format!("reading its output: {e}"))?;
        println!("{line}");
        if let Some(at) = line.find(marker) {
            let rest = line[at + marker.len()..].trim().to_owned();
            std::thread::spawn(move || {
                for l in lines.map_while(std::result::Result::ok) {
                    println!("{l}");
                }
            });
            return Ok(rest);
        }
    }
    Err(format!("it ended before printing {marker:?}"))
}

/// SIGTERM, then SIGKILL if the process has not exited within [`STOP_GRACE`].
fn stop(child: &mut Child) {
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let start = Instant::now();
    while start.elapsed() < STOP_GRACE {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        // Polling a child's exit; nothing here depends on the timing.
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
}
