//! What each peer is expected to do, and the checks every peer and transport share.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use mcpg_core::client::CallOutcome;
use mcpg_core::jsonrpc::code;
use mcpg_transport::{Driver, DriverError};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::{Peer, obj, success, text, tool_error};

/// How a peer lists and answers.
pub struct Expect {
    /// Tools in the listing (server-everything: with empty client capabilities).
    pub tools: usize,
    /// Pages of the listing.
    pub pages: usize,
    /// A tool, its arguments and the text it answers.
    pub echo: (&'static str, Value, &'static str),
    /// A call answered with `isError: true`, and text the result contains.
    pub fail: (&'static str, Value, &'static str),
    /// Whether an unknown tool is a JSON-RPC error (rmcp) rather than an isError result.
    pub unknown_tool_is_rpc_error: bool,
}

/// The expectations for `peer` (from `tests/peers` and probing the peers).
pub fn expect(peer: Peer) -> Expect {
    match peer {
        Peer::Everything => Expect {
            tools: 13,
            pages: 1,
            echo: ("echo", json!({"message": "hi"}), "Echo: hi"),
            fail: ("no-such-tool", json!({}), "no-such-tool"),
            unknown_tool_is_rpc_error: false,
        },
        Peer::Python => Expect {
            // add, echo, fail, crash, book (the elicitation tool).
            tools: 5,
            pages: 1,
            echo: ("echo", json!({"text": "hi"}), "hi"),
            fail: ("fail", json!({"reason": "boom"}), "boom"),
            unknown_tool_is_rpc_error: false,
        },
        Peer::Rmcp => Expect {
            // add, crash, echo, fail, forecast, item_00..item_24, slow_sum,
            // slow_sum_confirm: pages of 10.
            tools: 32,
            pages: 4,
            echo: ("echo", json!({"text": "hi"}), "hi"),
            fail: ("fail", json!({"reason": "boom"}), "boom"),
            unknown_tool_is_rpc_error: true,
        },
    }
}

/// Connect, list (count tools and pages), a text result, an isError result and a
/// JSON-RPC error, on one connection.
pub async fn exercise(peer: Peer, d: &Driver) {
    let e = expect(peer);
    let n = d.connect().await.expect("connect");
    assert!(n.server_info.is_some(), "{peer:?} names itself");

    let list = d.list_tools().await.expect("tools/list");
    assert_eq!(list.len(), e.tools, "{peer:?} tool count");
    assert_eq!(list.pages.len(), e.pages, "{peer:?} page count");
    assert_eq!(list.responses.len(), e.pages);

    let (name, args, want) = e.echo;
    let r = success(
        d.call_tool(name, obj(args), false)
            .await
            .expect("call echo"),
    );
    assert_eq!(text(&r), want);

    let (name, args, want) = e.fail;
    let r = tool_error(
        d.call_tool(name, obj(args), false)
            .await
            .expect("call a failing tool"),
    );
    assert!(
        text(&r).contains(want),
        "{peer:?} error text {:?} mentions {want:?}",
        text(&r)
    );

    // A JSON-RPC error: an unknown method is one on every peer.
    match d.request("no/such/method", None).await {
        Err(DriverError::Rpc { during, error }) => {
            assert_eq!(during, "no/such/method");
            assert_eq!(error.code, code::METHOD_NOT_FOUND, "{peer:?}: {error}");
        }
        other => panic!("{peer:?}: expected a JSON-RPC error, got {other:?}"),
    }
    if e.unknown_tool_is_rpc_error {
        let r = d
            .call_tool("no-such-tool", None, false)
            .await
            .expect("an answer");
        assert!(
            matches!(&r.outcome, CallOutcome::ProtocolError(err) if err.code == code::INVALID_PARAMS),
            "{:?}",
            r.outcome
        );
    }

    // The connection still works after the errors.
    let again = d.list_tools().await.expect("tools/list again");
    assert_eq!(again.len(), e.tools);
}

/// Makes the server die in the middle of a call and returns the call's error.
/// Python and rmcp have a `crash` tool; server-everything is killed (SIGKILL) once a
/// long call has reported progress.
pub async fn die_mid_call(
    peer: Peer,
    d: &Driver,
    pid: u32,
    frames: &mut mpsc::UnboundedReceiver<String>,
) -> DriverError {
    d.connect().await.expect("connect");
    if peer != Peer::Everything {
        return d
            .call_tool("crash", None, false)
            .await
            .expect_err("the server died");
    }
    let args = obj(json!({"duration": 60, "steps": 60}));
    let call = d.call_tool("trigger-long-running-operation", args, true);
    let kill = async {
        // Wait until the server is demonstrably in the middle of the call.
        while let Some(f) = frames.recv().await {
            if f.contains("notifications/progress") {
                break;
            }
        }
        let pid = nix::unistd::Pid::from_raw(i32::try_from(pid).unwrap());
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL).expect("kill the server");
    };
    let (result, ()) = tokio::join!(call, kill);
    result.expect_err("the server was killed")
}
