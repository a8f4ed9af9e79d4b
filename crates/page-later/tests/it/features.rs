//! The Resources, Prompts and Logs panels' driver, end to end against a scripted
//! server behind a bridge link under a virtual clock: paged listings, a read with
//! its exchange, a template's completions, a subscription's updates, a prompt used
//! in the loop, the log level in both generations, and nothing asked of a server
//! that did not declare it. Natively and in Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::ProtocolVersion;
use mcpg_core::model::{CompletionReference, JsonObject, LoggingLevel, ResourceContents};
use mcpg_page::features::view::{ListState, SubState};
use mcpg_page::{Command, FeatureCommand, Pin};
use serde_json::json;
use support::Shell;
use support::peer::{Peer, connect};

const V2025: Pin = Pin::Revision(ProtocolVersion::V2025_11_25);

fn feature(s: &mut Shell, peer: &mut Peer, c: FeatureCommand) {
    s.cmd(Command::Feature(c));
    peer.serve(s);
}

fn read_text(s: &Shell) -> String {
    let r = s.panels.read.as_ref().unwrap();
    match &r.outcome.as_ref().unwrap().as_ref().unwrap().contents[0] {
        ResourceContents::Text(t) => t.text.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn resources_list_page_by_page_and_a_read_shows_its_exchange() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    feature(&mut s, &mut peer, FeatureCommand::ListResources);
    let r = &s.panels.resources;
    assert_eq!(r.state, ListState::Done);
    let pages: Vec<(u32, usize, Option<&str>)> = r
        .pages
        .iter()
        .map(|p| (p.page, p.items.len(), p.next_cursor.as_deref()))
        .collect();
    assert_eq!(pages, [(1, 2, Some("p2")), (2, 1, None)]);
    assert_eq!(
        s.panels.templates.pages[0].items[0].uri_template,
        "weather://{city}/today"
    );
    assert_eq!(peer.requests("resources/list").len(), 2);

    feature(
        &mut s,
        &mut peer,
        FeatureCommand::Read {
            uri: "hostile://page".into(),
            from_link: false,
        },
    );
    let read = s.panels.read.clone().unwrap();
    assert!(
        read.request
            .as_deref()
            .unwrap()
            .contains("\"resources/read\"")
    );
    assert!(read.response.as_deref().unwrap().contains("onerror"));
    // The hostile text is kept as the server sent it: the page renders it as text.
    assert_eq!(read_text(&s), "<img src=x onerror=alert(1)>");
    assert_eq!(
        s.panels.shown, 0,
        "a read from the panel does not switch tabs"
    );
}

#[test]
fn read_it_on_a_tool_results_link_opens_the_resources_panel() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::Read {
            uri: "counter://visits".into(),
            from_link: true,
        },
    );
    assert_eq!(s.panels.shown, 1);
    assert!(s.panels.read.as_ref().unwrap().from_link);
    assert_eq!(read_text(&s), "{\"visits\":0}");
}

#[test]
fn completions_follow_the_typing_and_a_late_answer_is_not_shown() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    let ask = |value: &str| FeatureCommand::Complete {
        reference: CompletionReference::Resource {
            uri: "weather://{city}/today".into(),
        },
        argument: "city".into(),
        value: value.into(),
        context: JsonObject::new(),
    };
    feature(&mut s, &mut peer, ask("b"));
    let c = s.panels.completion.clone().unwrap();
    assert_eq!(c.value, "b");
    assert_eq!(c.outcome.unwrap().unwrap().values, ["Boston", "Berlin"]);
    // Two questions before any answer: only the second one's answer shows.
    s.cmd(Command::Feature(ask("a")));
    s.cmd(Command::Feature(ask("au")));
    peer.serve(&mut s);
    let c = s.panels.completion.clone().unwrap();
    assert_eq!(c.value, "au");
    assert_eq!(c.outcome.unwrap().unwrap().values, ["Austin"]);
    let sent = peer.requests("completion/complete");
    assert_eq!(sent.len(), 3);
    assert_eq!(
        sent[2]["params"]["ref"],
        json!({"type": "ref/resource", "uri": "weather://{city}/today"})
    );
}

#[test]
fn a_subscription_marks_updates_and_reads_the_shown_resource_again() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    let uri = "counter://visits".to_owned();
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::Read {
            uri: uri.clone(),
            from_link: false,
        },
    );
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::Subscribe {
            uri: uri.clone(),
            on: true,
        },
    );
    assert_eq!(s.panels.subs[0].state, SubState::On);
    assert_eq!(peer.requests("resources/subscribe").len(), 1);

    peer.count = 1;
    s.advance(250);
    peer.notify(
        &mut s,
        "notifications/resources/updated",
        json!({"uri": uri}),
    );
    assert_eq!(s.panels.subs[0].updates, 1);
    assert_eq!(s.panels.subs[0].last_ms, Some(250));
    assert_eq!(s.panels.read.as_ref().unwrap().updates, 1);
    assert_eq!(read_text(&s), "{\"visits\":1}");
    // An update of another resource is not this one's.
    peer.notify(
        &mut s,
        "notifications/resources/updated",
        json!({"uri": "note://readme"}),
    );
    assert_eq!(s.panels.subs[0].updates, 1);
    assert_eq!(peer.requests("resources/read").len(), 2);

    feature(
        &mut s,
        &mut peer,
        FeatureCommand::Subscribe { uri, on: false },
    );
    assert!(s.panels.subs.is_empty());
    assert_eq!(peer.requests("resources/unsubscribe").len(), 1);
}

#[test]
fn a_prompt_used_in_the_loop_seeds_the_conversation() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    feature(&mut s, &mut peer, FeatureCommand::ListPrompts);
    assert_eq!(s.panels.prompts.pages[0].items[0].name, "plan_trip");
    let mut args = JsonObject::new();
    args.insert("city".into(), json!("Austin"));
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::GetPrompt {
            name: "plan_trip".into(),
            arguments: args,
        },
    );
    let p = s.panels.prompt.clone().unwrap();
    assert_eq!(p.outcome.unwrap().unwrap().messages.len(), 3);
    assert!(p.response.unwrap().contains("weather in Austin"));

    feature(&mut s, &mut peer, FeatureCommand::UsePrompt);
    for _ in 0..20 {
        s.advance(300);
        peer.serve(&mut s);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    let step2 = &s.steps[1].blocks;
    let seeded = &step2.last().unwrap().json;
    assert!(
        seeded.contains("You plan trips.") && seeded.contains("Which city?"),
        "{seeded}"
    );
    assert!(
        s.answer
            .as_deref()
            .unwrap()
            .starts_with("get_weather says: Austin: 91F, sunny")
    );
}

#[test]
fn use_in_the_loop_without_a_prompt_says_why() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    feature(&mut s, &mut peer, FeatureCommand::UsePrompt);
    assert!(s.notice.as_deref().unwrap().contains("Get a prompt first"));
    assert!(s.steps.is_empty());
}

#[test]
fn log_messages_arrive_with_level_logger_and_time() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::SetLogLevel(LoggingLevel::parse("warning").unwrap()),
    );
    let set = peer.requests("logging/setLevel");
    assert_eq!(set[0]["params"]["level"], "warning");
    assert!(
        s.panels.level.status.contains("accepted"),
        "{}",
        s.panels.level.status
    );
    s.advance(40);
    peer.notify(
        &mut s,
        "notifications/message",
        json!({"level": "error", "logger": "db", "data": "disk full"}),
    );
    peer.notify(
        &mut s,
        "notifications/message",
        json!({"level": "warning", "data": {"retry": 3}}),
    );
    let logs = &s.panels.logs;
    assert_eq!(logs.len(), 2);
    assert_eq!(
        (
            logs[0].level.as_str(),
            logs[0].logger.as_deref(),
            logs[0].data.as_str(),
            logs[0].at_ms
        ),
        ("error", Some("db"), "disk full", 40)
    );
    assert_eq!(logs[1].data, "{\"retry\":3}");
    feature(&mut s, &mut peer, FeatureCommand::ClearLogs);
    assert!(s.panels.logs.is_empty());
}

#[test]
fn under_2026_the_log_level_rides_on_each_request() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, Pin::Revision(ProtocolVersion::V2026_07_28));
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::SetLogLevel(LoggingLevel::parse("debug").unwrap()),
    );
    assert!(peer.requests("logging/setLevel").is_empty());
    assert!(
        s.panels.level.status.contains("_meta"),
        "{}",
        s.panels.level.status
    );
    feature(&mut s, &mut peer, FeatureCommand::ListPrompts);
    let list = peer.requests("prompts/list");
    assert_eq!(
        list[0]["params"]["_meta"]["io.modelcontextprotocol/logLevel"],
        "debug"
    );
    assert_eq!(s.panels.prompts.state, ListState::Done);
}

#[test]
fn nothing_is_asked_of_a_server_that_did_not_declare_it() {
    let mut peer = Peer {
        tools_only: true,
        ..Peer::default()
    };
    let mut s = connect(&mut peer, V2025);
    let before = peer.seen.len();
    feature(&mut s, &mut peer, FeatureCommand::ListResources);
    feature(&mut s, &mut peer, FeatureCommand::ListPrompts);
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::SetLogLevel(LoggingLevel::parse("info").unwrap()),
    );
    feature(
        &mut s,
        &mut peer,
        FeatureCommand::Subscribe {
            uri: "x://y".into(),
            on: true,
        },
    );
    assert_eq!(peer.seen.len(), before, "{:?}", &peer.seen[before..]);
    assert!(
        matches!(&s.panels.resources.state, ListState::Undeclared(w) if w.contains("resources"))
    );
    assert!(matches!(&s.panels.prompts.state, ListState::Undeclared(w) if w.contains("prompts")));
    assert!(s.panels.level.status.contains("logging"));
    assert!(matches!(&s.panels.subs[0].state, SubState::Failed(w) if w.contains("subscribe")));
}

#[test]
fn a_reconnect_forgets_the_old_connection_and_lists_again() {
    let mut peer = Peer::default();
    let mut s = connect(&mut peer, V2025);
    feature(&mut s, &mut peer, FeatureCommand::ListResources);
    peer.notify(
        &mut s,
        "notifications/message",
        json!({"level": "info", "data": "hi"}),
    );
    assert_eq!(s.panels.logs.len(), 1);
    let mut peer2 = Peer::default();
    s.cmd(Command::Connect(mcpg_page::Source::Bridge(
        "scripted".into(),
    )));
    let conn = s.d.conn();
    s.input(mcpg_page::Input::LinkOpened { conn });
    peer2.serve(&mut s);
    assert!(s.panels.logs.is_empty());
    assert_eq!(
        peer2.requests("resources/list").len(),
        2,
        "listed again on the new connection"
    );
    assert_eq!(s.panels.resources.state, ListState::Done);
}
