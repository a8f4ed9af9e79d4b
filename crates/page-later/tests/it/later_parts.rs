//! The loop's code arrives after the first screen (`Output::LoadLater`, then
//! `Input::Later`): the tool list needs none of it, commands that need it wait in
//! order, and a failed load keeps the page working and asks again next time.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_page::{Command, Conn, Input, Output, RUN_PACE, Source, ViewChange};
use mcpg_page_later::later_kit;
use serde_json::json;
use support::Shell;
use support::peer::Peer;

fn demo_without_later() -> Shell {
    let mut s = Shell::without_later();
    s.cmd(Command::Connect(Source::Demo));
    assert_eq!(s.conn, Conn::Ready);
    s
}

/// Asserts that one note of the log holds every one of `parts`.
fn noted(s: &Shell, parts: &[&str]) {
    let notes = s.notes();
    assert!(
        notes.iter().any(|n| parts.iter().all(|p| n.contains(p))),
        "{notes:#?}"
    );
}

#[test]
fn the_first_tool_list_needs_no_later_parts() {
    let mut s = Shell::without_later();
    s.d.handle(s.now, Input::Command(Command::Connect(Source::Demo)));
    let outs: Vec<Output> = std::iter::from_fn(|| s.d.poll_output()).collect();
    assert!(
        outs.iter()
            .any(|o| matches!(o, Output::View(ViewChange::FirstListing { listed: true }))),
        "{outs:#?}"
    );
    assert!(!outs.iter().any(|o| matches!(o, Output::LoadLater)));
}

/// Relays the page's frames to the demo server behind a bridge link and its answers
/// back until nothing moves; `tools/list` answered with a JSON-RPC error when
/// `fail_list`.
fn relay(s: &mut Shell, server: &mut mcpg_demo::DemoServer, fail_list: bool) {
    let conn = s.d.conn();
    loop {
        let frames = s.take_frames();
        if frames.is_empty() {
            return;
        }
        for f in frames {
            let m: serde_json::Value = serde_json::from_str(&f).unwrap();
            if fail_list && m["method"] == "tools/list" {
                let err = json!({"jsonrpc": "2.0", "id": m["id"],
                    "error": {"code": -32603, "message": "the list is broken"}});
                s.input(Input::Frame {
                    conn,
                    text: err.to_string(),
                });
                continue;
            }
            server.handle_text(s.now, &f);
            while let Some(out) = server.poll_transmit() {
                s.input(Input::Frame {
                    conn,
                    text: out.raw().to_owned(),
                });
            }
        }
    }
}

/// A page without its later parts, connected to a bridge server (the demo).
fn bridge_server(fail_list: bool) -> (Shell, mcpg_demo::DemoServer) {
    let mut s = Shell::without_later();
    s.cmd(Command::Connect(Source::Bridge("demo".into())));
    let conn = s.d.conn();
    s.input(Input::LinkOpened { conn });
    let mut server = mcpg_demo::DemoServer::new();
    relay(&mut s, &mut server, fail_list);
    (s, server)
}

#[test]
fn the_first_listing_of_any_server_is_told_once_whether_it_listed_or_failed() {
    // The page puts off its later parts until then when it opens a server of its own.
    let (mut s, mut server) = bridge_server(false);
    assert_eq!(s.conn, Conn::Ready);
    assert_eq!(s.first_listings, vec![true]);
    s.cmd(Command::ListTools);
    relay(&mut s, &mut server, false);
    assert!(
        s.wire()
            .iter()
            .filter(|(_, t)| t.contains("tools/list"))
            .count()
            >= 2
    );
    assert_eq!(s.first_listings, vec![true], "told once in the page's life");

    let (s, _) = bridge_server(true);
    assert_eq!(s.conn, Conn::Ready);
    assert!(s.notes().iter().any(|n| n.contains("the list is broken")));
    assert_eq!(s.first_listings, vec![false]);
}

#[test]
fn commands_wait_for_the_later_parts_and_run_in_order_once_it_is_in() {
    let mut s = demo_without_later();
    s.cmd(Command::Step);
    assert_eq!(s.later_asks(), 1);
    assert!(s.steps.is_empty(), "no step without the loop's code");
    // Everything after a waiting command waits too, and it is asked for once.
    s.cmd(Command::SetPrompt("What's the weather in Paris?".into()));
    s.cmd(Command::Run);
    assert_eq!(s.later_asks(), 1);
    assert!(s.steps.is_empty());
    assert_eq!(s.d.record().messages, ["What's the weather in Austin?"]);
    s.input(Input::Later(later_kit()));
    // Step started a loop with the prompt of its time and made step 1; Run made
    // step 2 at once and runs on, paced.
    assert_eq!(s.steps.len(), 2);
    assert!(s.running);
    s.advance(RUN_PACE.as_millis() as u64 * 10);
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(
        s.answer.as_deref(),
        Some("get_weather says: Austin: 91F, sunny")
    );
    // The prompt set meanwhile applies to the next loop.
    s.cmd(Command::Step);
    assert_eq!(s.later_asks(), 1, "the later parts stay");
    assert_eq!(
        s.d.record().messages,
        [
            "What's the weather in Austin?",
            "What's the weather in Paris?"
        ]
    );
}

#[test]
fn a_failed_load_says_so_keeps_the_rest_and_asks_again() {
    let mut s = demo_without_later();
    s.cmd(Command::Step);
    s.cmd(Command::SetPrompt("Hello".into()));
    s.input(Input::LaterFailed("Failed to fetch".into()));
    assert!(
        s.notice
            .as_deref()
            .unwrap_or("")
            .contains("could not be loaded"),
        "{:?}",
        s.notice
    );
    noted(&s, &["not done: Step", "Failed to fetch"]);
    assert_eq!(s.d.record().messages, ["Hello"], "the prompt was applied");
    assert!(s.steps.is_empty());
    assert_eq!(s.conn, Conn::Ready, "the connection lives on");
    s.cmd(Command::ListTools);
    assert_eq!(s.later_asks(), 1, "a tool listing needs no later parts");
    s.cmd(Command::Step);
    assert_eq!(s.later_asks(), 2, "the next Step asks again");
    s.input(Input::Later(later_kit()));
    assert_eq!(s.numbers(), [1]);
}

#[test]
fn a_streamable_http_connection_waits_for_the_later_parts_too() {
    let mut s = demo_without_later();
    s.cmd(Command::Connect(Source::Url(
        "http://127.0.0.1:9/mcp".into(),
    )));
    assert_eq!(s.later_asks(), 1, "the HTTP machine is the later parts'");
    assert!(s.network().is_empty(), "{:#?}", s.network());
    s.input(Input::Later(later_kit()));
    assert!(
        s.network()
            .iter()
            .any(|o| matches!(o, Output::OpenLink { .. })),
        "{:#?}",
        s.network()
    );
    assert!(
        s.network().iter().any(|o| matches!(o, Output::Http { .. })),
        "the first POST goes out once the machine is in"
    );
}

/// A scripted server behind a bridge link, on a page whose later parts has not come.
fn peer_without_later(peer: &mut Peer) -> Shell {
    let mut s = Shell::without_later();
    s.cmd(Command::Connect(Source::Bridge("scripted".into())));
    let conn = s.d.conn();
    s.input(Input::LinkOpened { conn });
    peer.serve(&mut s);
    assert_eq!(s.conn, Conn::Ready);
    assert_eq!(s.later_asks(), 0);
    s
}

fn log_message(s: &mut Shell, peer: &mut Peer) {
    let params = json!({"level": "error", "logger": "db", "data": "disk full"});
    peer.notify(s, "notifications/message", params);
}

#[test]
fn a_log_message_before_the_panels_code_is_kept_and_shown_once_it_is_in() {
    let mut peer = Peer::default();
    let mut s = peer_without_later(&mut peer);
    s.advance(25);
    log_message(&mut s, &mut peer);
    assert_eq!(
        s.later_asks(),
        1,
        "the Logs panel's code is the later parts'"
    );
    assert!(s.panels.logs.is_empty());
    s.advance(500);
    s.input(Input::Later(later_kit()));
    let logs = &s.panels.logs;
    assert_eq!(logs.len(), 1);
    assert_eq!((logs[0].data.as_str(), logs[0].at_ms), ("disk full", 525));
}

#[test]
fn a_failed_load_says_what_waits_and_a_later_load_shows_it() {
    let mut peer = Peer::default();
    let mut s = peer_without_later(&mut peer);
    log_message(&mut s, &mut peer);
    s.input(Input::LaterFailed("Failed to fetch".into()));
    noted(
        &s,
        &[
            "waiting: 1 requests or notifications of the server",
            "Failed to fetch",
        ],
    );
    assert!(s.notice.is_some());
    // Not asked for again by itself (a failing fetch is not retried in a loop)...
    log_message(&mut s, &mut peer);
    assert_eq!(s.later_asks(), 1);
    // ...but once it comes (the next command that needs it), nothing was lost.
    s.input(Input::Later(later_kit()));
    assert_eq!(s.panels.logs.len(), 2, "both messages, in order");
}

#[test]
fn the_demo_connected_before_the_later_parts_gets_its_asking_tools_with_it() {
    let mut s = demo_without_later();
    s.cmd(Command::PlayCall {
        name: "reserve_table".into(),
        arguments: Default::default(),
    });
    assert_eq!(s.later_asks(), 1);
    s.input(Input::Later(later_kit()));
    s.advance(RUN_PACE.as_millis() as u64 * 4);
    assert_eq!(
        s.asks.len(),
        1,
        "the demo's booking form asks: {:#?}",
        s.notes()
    );
}

#[test]
fn a_client_made_before_the_later_parts_reads_resources_once_it_is_in() {
    // The demo's client is made at connect, before the later parts; the readers of
    // resource, prompt and completion answers come with the later parts.
    let mut s = demo_without_later();
    s.cmd(Command::Feature(mcpg_page::FeatureCommand::ListResources));
    assert_eq!(
        s.later_asks(),
        1,
        "the panels' commands wait for the later parts"
    );
    s.input(Input::Later(later_kit()));
    let r = &s.panels.resources;
    assert_eq!(
        r.state,
        mcpg_page::features::view::ListState::Done,
        "{r:#?}"
    );
    assert!(
        !r.pages.is_empty() && !r.pages[0].items.is_empty(),
        "{r:#?}"
    );
}

#[test]
fn a_shared_session_of_any_server_waits_for_the_later_parts_and_replays_once_it_is_in() {
    // Recorded on a page connected to a server behind the bridge (not the demo).
    let mut peer = Peer::default();
    let live = peer_without_later(&mut peer);
    let recorded = live.d.record();
    assert_ne!(recorded.connection, mcpg_recording::Connection::Embedded);
    let mut s = demo_without_later();
    s.cmd(Command::OpenShared {
        session: Box::new(recorded),
        from: "link".into(),
    });
    // Opening it replays it, which is the later parts' work: it waits, asked for once.
    assert_eq!(s.later_asks(), 1);
    assert_eq!(*s.d.source(), Source::Demo, "still on the demo meanwhile");
    s.input(Input::Later(later_kit()));
    assert_eq!(s.notice, None);
    assert_eq!(*s.d.source(), Source::Bridge("scripted".into()));
    assert!(s.network().is_empty(), "a replay sends nothing");
}
