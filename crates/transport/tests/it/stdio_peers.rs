//! The stdio transport and the driver against the real third-party peers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use mcpg_transport::DriverError;
use support::scenario::{die_mid_call, exercise};
use support::{Peer, config, peers, stdio, watched};

async fn list_call_and_errors(peer: Peer) {
    let Some(d) = stdio(peer, config()) else {
        return;
    };
    let pid = d.pid().expect("a pid");
    exercise(peer, &d).await;
    let report = d.close().await.expect("close");
    assert!(report.requested);
    let status = report.exit.expect("an exit status");
    // Closing stdin is enough for a well-behaved server: no signal needed.
    assert!(
        status.success(),
        "{peer:?} exit after close: {status:?} ({})",
        report.reason
    );
    assert!(peers::gone(pid), "{peer:?} process {pid} was reaped");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_stdio_list_call_and_errors() {
    list_call_and_errors(Peer::Everything).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_stdio_list_call_and_errors() {
    list_call_and_errors(Peer::Python).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_stdio_list_call_and_errors() {
    list_call_and_errors(Peer::Rmcp).await;
}

async fn dies_mid_call(peer: Peer, reason: &str) {
    let (cfg, mut frames) = watched();
    let Some(d) = stdio(peer, cfg) else { return };
    let pid = d.pid().expect("a pid");
    let err = die_mid_call(peer, &d, pid, &mut frames).await;
    match &err {
        DriverError::Transport {
            during, reason: r, ..
        } => {
            assert_eq!(during, "tools/call");
            assert_eq!(r, reason);
        }
        other => panic!("{peer:?}: expected a transport error, got {other:?}"),
    }
    assert_eq!(err.to_string(), format!("{reason} during tools/call"));
    // The process is already reaped; close reports how it ended.
    let report = d.close().await.expect("close");
    assert!(!report.requested);
    assert!(peers::gone(pid), "{peer:?} process {pid} was reaped");
    // Later requests fail cleanly instead of hanging.
    assert!(d.list_tools().await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_stdio_crash_mid_call_reports_exit_status() {
    dies_mid_call(Peer::Python, "server exited with status 3").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_stdio_crash_mid_call_reports_exit_status() {
    dies_mid_call(Peer::Rmcp, "server exited with status 3").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_stdio_killed_mid_call_reports_signal() {
    dies_mid_call(Peer::Everything, "server was killed by SIGKILL").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_stdio_stderr_is_captured_apart() {
    let Some(d) = stdio(Peer::Everything, config()) else {
        return;
    };
    d.connect().await.expect("connect");
    d.close().await.expect("close");
    let log = d.log();
    // server-everything announces itself on stderr; that never reaches the core.
    assert!(
        log.stderr()
            .any(|l| l.contains("Starting default (STDIO) server")),
        "stderr: {:?}",
        log.stderr().collect::<Vec<_>>()
    );
    assert_eq!(
        log.diagnostics()
            .filter(|d| d.rule == mcpg_core::diag::Rule::MalformedJson)
            .count(),
        0
    );
}
