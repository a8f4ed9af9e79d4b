//! The stdio transport against misbehaving servers: tiny inline shell scripts.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use std::time::Duration;

use mcpg_core::client::GenerationMode;
use mcpg_core::diag::Rule;
use mcpg_transport::stdio::Grace;
use mcpg_transport::{Driver, DriverConfig, DriverError, Log, StdioConfig};
use support::{config, peers};

fn sh(script: &str) -> StdioConfig {
    let mut cfg = StdioConfig::new("sh", ["-c", script]);
    cfg.grace = Grace {
        after_stdin: Duration::from_millis(300),
        after_term: Duration::from_millis(300),
    };
    cfg
}

fn start(script: &str, cfg: DriverConfig) -> Driver {
    Driver::stdio(sh(script), cfg).expect("sh starts")
}

fn junk_lines(log: &Log) -> usize {
    log.diagnostics()
        .filter(|d| d.rule == Rule::MalformedJson)
        .count()
}

#[tokio::test]
async fn junk_then_exit_is_a_clear_connect_error() {
    let d = start("echo junk; exit 0", config());
    let pid = d.pid().unwrap();
    let err = d.connect().await.expect_err("no server there");
    assert_eq!(
        err.to_string(),
        r#"server exited with status 0 during connect; the server wrote 1 line that is not JSON-RPC (first: "junk")"#
    );
    assert_eq!(junk_lines(&d.log()), 1);
    let report = d.close().await.unwrap();
    assert_eq!(report.exit.and_then(|s| s.code()), Some(0));
    assert!(peers::gone(pid));
}

#[tokio::test]
async fn junk_among_messages_becomes_a_diagnostic_and_the_session_works() {
    // A canned initialize-generation server: answers initialize (id 1), swallows
    // notifications/initialized, answers tools/list (id 2), then waits for stdin to close.
    let script = r#"echo 'not json'; read l;
echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sh","version":"0"}}}';
read l; read l; echo '{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}}';
while read l; do :; done"#;
    let mut cfg = config();
    cfg.client.mode = GenerationMode::Initialize;
    let d = start(script, cfg);
    let list = d
        .list_tools()
        .await
        .expect("listing works despite the junk");
    assert_eq!(list.len(), 1);
    assert_eq!(junk_lines(&d.log()), 1);
    let report = d.close().await.unwrap();
    assert_eq!(
        report.exit.and_then(|s| s.code()),
        Some(0),
        "{}",
        report.reason
    );
}

#[tokio::test]
async fn a_missing_program_is_a_start_error() {
    let err = Driver::stdio(
        StdioConfig::new("/nonexistent/mcp-server", Vec::<String>::new()),
        config(),
    )
    .expect_err("cannot start");
    assert!(
        matches!(&err, DriverError::Start(m) if m.contains("could not start `/nonexistent/mcp-server`") && m.contains("No such file")),
        "{err}"
    );
}

#[tokio::test]
async fn stderr_is_captured_and_exit_status_reported() {
    let d = start(
        "echo 'warming up' >&2; echo 'giving up' >&2; exit 7",
        config(),
    );
    let err = d.connect().await.expect_err("it exits");
    assert!(
        matches!(&err, DriverError::Transport { reason, .. } if reason == "server exited with status 7"),
        "{err:?}"
    );
    let report = d.close().await.unwrap();
    assert_eq!(report.exit.and_then(|s| s.code()), Some(7));
    let log = d.log();
    let lines: Vec<&str> = log.stderr().collect();
    assert_eq!(lines, ["warming up", "giving up"]);
    assert_eq!(junk_lines(&log), 0, "stderr never reaches the core");
}

#[tokio::test]
async fn a_stderr_flood_stays_bounded() {
    // ~800k short lines, and an endless line, on stderr, then a quiet exit.
    let d = start(
        "yes flood | head -c 5000000 >&2; head -c 3000000 /dev/zero | tr '\\0' x >&2; exit 0",
        config(),
    );
    let pid = d.pid().unwrap();
    let err = d.connect().await.expect_err("it exits");
    assert!(matches!(err, DriverError::Transport { .. }), "{err:?}");
    let log = d.log();
    assert!(log.entries().count() <= Log::CAPACITY);
    assert!(log.stderr().all(|l| l.len() < 5000), "long lines are cut");
    d.close().await.unwrap();
    assert!(peers::gone(pid));
}

#[tokio::test]
async fn a_server_that_ignores_stdin_close_gets_sigterm() {
    let d = start("exec sleep 1000", config());
    let pid = d.pid().unwrap();
    let report = d.close().await.unwrap();
    assert_eq!(report.reason, "server was killed by SIGTERM");
    assert!(peers::gone(pid));
}

#[tokio::test]
async fn a_server_that_ignores_sigterm_gets_sigkill() {
    let d = start("trap '' TERM; while :; do sleep 0.05; done", config());
    let pid = d.pid().unwrap();
    let report = d.close().await.unwrap();
    assert_eq!(report.reason, "server was killed by SIGKILL");
    assert!(peers::gone(pid));
}

#[tokio::test]
async fn closing_stdout_early_is_reported() {
    let d = start("exec 1>&-; exec sleep 1000", config());
    let pid = d.pid().unwrap();
    let err = d.connect().await.expect_err("no stdout");
    assert_eq!(
        err.to_string(),
        "server closed its stdout; server was killed by SIGTERM during connect"
    );
    d.close().await.unwrap();
    assert!(peers::gone(pid));
}

#[tokio::test]
async fn silence_times_out_with_the_junk_hint() {
    let mut cfg = config();
    cfg.client.request_timeout = Duration::from_millis(300);
    cfg.client.probe_timeout = Duration::from_millis(300);
    let d = start("echo junk; exec sleep 1000", cfg);
    let err = d.connect().await.expect_err("no answer");
    let text = err.to_string();
    assert!(
        text.contains("no answer within") && text.contains(r#"(first: "junk")"#),
        "{text}"
    );
    d.close().await.unwrap();
}
