//! A client made without its answer readers (the page's, until its engine is in):
//! tool call, resource, prompt and completion answers (raw requests' too) end as
//! failures, everything
//! else works, and handing the readers in makes the same session read them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::client::{
    Answer, AnswerReaders, CallOutcome, Client, ClientConfig, Event, Failure, ListKind, OpError,
};
use serde_json::json;
use support::{Scripted, answered, result};

const VERSION: &str = "2025-11-25";

fn lean() -> Scripted {
    let mut s = Scripted::new(ClientConfig::default());
    s.client = Client::without_answer_readers(ClientConfig::default());
    assert!(!s.client.has_answer_readers());
    s.connect_with(
        VERSION,
        json!({"tools": {}, "resources": {}, "prompts": {}}),
    );
    s
}

fn unread(error: &OpError) -> bool {
    matches!(error, OpError::Failed(Failure::Malformed(m)) if m.contains("answer readers"))
}

/// Calls `echo`, answered with one text content; how the call ended.
fn call(s: &mut Scripted) -> CallOutcome {
    let op = s.client.call_tool(s.now, "echo", None, Default::default());
    s.drain();
    let text = json!({"content": [{"type": "text", "text": "hi"}]});
    s.reply("tools/call", result(VERSION, text));
    let ev = s.take();
    let outcome = ev.iter().find_map(|e| match e {
        Event::CallFinished { op: o, outcome, .. } if *o == op => Some(outcome.clone()),
        _ => None,
    });
    outcome.unwrap_or_else(|| panic!("no CallFinished in {ev:#?}"))
}

/// Reads `note://x/a`, answered with one text content; the outcome.
fn read(s: &mut Scripted) -> Result<Answer, OpError> {
    let op = s.client.read_resource(s.now, "note://x/a");
    s.drain();
    let contents = json!({"contents": [{"uri": "note://x/a", "text": "hi"}]});
    s.reply("resources/read", result(VERSION, contents));
    answered(&s.take(), op).clone()
}

/// Sends `resources/read` as a raw request, answered with one text content; the
/// outcome.
fn raw(s: &mut Scripted) -> Result<serde_json::Value, OpError> {
    let op = s
        .client
        .request(s.now, "resources/read", Some(json!({"uri": "note://x/a"})));
    s.drain();
    let contents = json!({"contents": [{"uri": "note://x/a", "text": "hi"}]});
    s.reply("resources/read", result(VERSION, contents));
    let ev = s.take();
    let outcome = ev.iter().find_map(|e| match e {
        Event::Response { op: o, outcome } if *o == op => Some(outcome.clone()),
        _ => None,
    });
    outcome.unwrap_or_else(|| panic!("no Response in {ev:#?}"))
}

#[test]
fn without_readers_the_answers_end_as_failures() {
    let mut s = lean();
    let op = s.client.list_resources(s.now);
    s.drain();
    let page = json!({"resources": [{"uri": "note://x/a", "name": "a"}]});
    s.reply("resources/list", result(VERSION, page));
    let ev = s.take();
    let failed = ev.iter().find_map(|e| match e {
        Event::ListFailed {
            op: o, kind, error, ..
        } if *o == op => Some((*kind, error)),
        _ => None,
    });
    let (kind, error) = failed.unwrap_or_else(|| panic!("no ListFailed in {ev:#?}"));
    assert_eq!(kind, ListKind::Resources);
    assert!(unread(error), "{error:?}");
    assert!(
        !ev.iter().any(|e| matches!(e, Event::ListPage { .. })),
        "{ev:#?}"
    );

    let outcome = read(&mut s);
    assert!(matches!(&outcome, Err(e) if unread(e)), "{outcome:?}");
    let outcome = call(&mut s);
    assert!(
        matches!(&outcome, CallOutcome::Failed(f) if unread(&OpError::Failed(f.clone()))),
        "{outcome:?}"
    );
    let outcome = raw(&mut s);
    assert!(matches!(&outcome, Err(e) if unread(e)), "{outcome:?}");
}

#[test]
fn readers_handed_in_later_read_the_same_session() {
    let mut s = lean();
    s.client.set_answer_readers(AnswerReaders::ALL);
    assert!(s.client.has_answer_readers());
    let op = s.client.list_prompts(s.now);
    s.drain();
    s.reply(
        "prompts/list",
        result(VERSION, json!({"prompts": [{"name": "p"}]})),
    );
    let ev = s.take();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Listed { op: o, count: 1, .. } if *o == op)),
        "{ev:#?}"
    );
    let outcome = read(&mut s);
    assert!(matches!(outcome, Ok(Answer::Read(_))), "{outcome:?}");
    let outcome = call(&mut s);
    assert!(matches!(outcome, CallOutcome::Success(_)), "{outcome:?}");
    let outcome = raw(&mut s);
    assert_eq!(outcome.unwrap()["contents"][0]["text"], "hi");
}

#[test]
fn a_client_made_with_new_has_every_reader() {
    assert!(Client::new(ClientConfig::default()).has_answer_readers());
}

#[test]
fn what_the_server_sends_unasked_waits_for_the_readers_in_order() {
    let mut s = lean();
    s.take();
    let came = s.now;
    s.feed(r#"{"jsonrpc": "2.0", "id": "r1", "method": "no/such"}"#);
    s.notify("notifications/tools/list_changed", json!({}));
    assert_eq!(s.client.holds_inbound(), 2);
    let ev = s.take();
    assert!(
        !ev.iter()
            .any(|e| matches!(e, Event::ServerRequest { .. } | Event::ToolsListChanged)),
        "{ev:#?}"
    );
    s.now = s.now.after(std::time::Duration::from_secs(3));
    s.client.set_answer_readers(AnswerReaders::ALL);
    assert_eq!(s.client.holds_inbound(), 0);
    s.drain();
    let ev = s.take();
    let request = ev.iter().position(
        |e| matches!(e, Event::ServerRequest { answered: true, deadline, .. } if *deadline == came),
    );
    let changed = ev.iter().position(|e| matches!(e, Event::ToolsListChanged));
    assert!(
        request.is_some() && changed.is_some() && request < changed,
        "read in the order they came, the request as of when it came: {ev:#?}"
    );
}

#[test]
fn a_closed_connection_drops_what_waited_for_the_readers() {
    let mut s = lean();
    s.notify("notifications/tools/list_changed", json!({}));
    assert_eq!(s.client.holds_inbound(), 1);
    s.client.handle_closed(s.now, "gone");
    assert_eq!(s.client.holds_inbound(), 0);
    s.client.set_answer_readers(AnswerReaders::ALL);
    s.drain();
    assert!(
        !s.take()
            .iter()
            .any(|e| matches!(e, Event::ToolsListChanged)),
        "nothing of the old connection is read"
    );
}
