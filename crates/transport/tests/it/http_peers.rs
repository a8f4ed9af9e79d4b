//! The Streamable HTTP transport and the driver against the real third-party peers.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

use mcpg_core::Generation;
use mcpg_transport::DriverError;
use support::scenario::{die_mid_call, exercise};
use support::{Peer, config, http, peers, watched};

async fn list_call_and_errors(peer: Peer) -> Option<Generation> {
    let server = peers::start_http(peer)?;
    let d = http(&server.url, config());
    exercise(peer, &d).await;
    let generation = d.connect().await.unwrap().generation;
    let report = d.close().await.expect("close");
    assert!(report.requested);
    Some(generation)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_http_list_call_and_errors() {
    // Answers every request as SSE with a priming event; sessions and DELETE.
    if let Some(g) = list_call_and_errors(Peer::Everything).await {
        assert_eq!(g, Generation::Initialize);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_http_list_call_and_errors() {
    if let Some(g) = list_call_and_errors(Peer::Python).await {
        assert_eq!(g, Generation::Stateless, "the Python SDK speaks 2026-07-28");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_http_list_call_and_errors() {
    if let Some(g) = list_call_and_errors(Peer::Rmcp).await {
        assert_eq!(g, Generation::Stateless, "rmcp speaks 2026-07-28");
    }
}

async fn dies_mid_call(peer: Peer) {
    let Some(server) = peers::start_http(peer) else {
        return;
    };
    let (cfg, mut frames) = watched();
    let d = http(&server.url, cfg);
    let pid = server.child.id();
    let err = die_mid_call(peer, &d, pid, &mut frames).await;
    match &err {
        DriverError::Transport { during, .. } => assert_eq!(during, "tools/call"),
        other => panic!("{peer:?}: expected a transport error, got {other:?}"),
    }
    d.close().await.expect("close");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn python_http_crash_mid_call_is_a_transport_error() {
    dies_mid_call(Peer::Python).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rmcp_http_crash_mid_call_is_a_transport_error() {
    dies_mid_call(Peer::Rmcp).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_http_killed_mid_call_is_a_transport_error() {
    dies_mid_call(Peer::Everything).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn everything_http_list_changed_arrives_on_the_get_stream() {
    // server-everything announces its conditional tools with `tools/list_changed`
    // while it handles `initialized`, on whatever GET stream is open at that moment
    // (and drops it when none is): the stream must open before `initialized` goes.
    let Some(server) = peers::start_http(Peer::Everything) else {
        return;
    };
    let (cfg, mut frames) = watched();
    let d = http(&server.url, cfg);
    d.connect().await.unwrap();
    let deadline = std::time::Duration::from_secs(10);
    let got = tokio::time::timeout(deadline, async {
        while let Some(f) = frames.recv().await {
            if f.contains("notifications/tools/list_changed") {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(got, Ok(true), "list_changed over the GET stream");
    d.close().await.expect("close");
}
