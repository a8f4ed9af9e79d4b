//! MCP Apps in the loop, against the embedded demo's weather card: the host reads
//! the view when step 4 calls `get_weather`, hosts it with step 5's result, keeps
//! the dialogue's order, passes the view's calls on to the server, refuses what the
//! view may not do, and tears the view down on reset.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_page::{AppCommand, Command, LogRow, Output};
use serde_json::{Value, json};
use support::Shell;

/// A shell whose loop ran to step 5 of "What's the weather in Austin?".
pub(crate) fn at_step_five() -> Shell {
    let mut s = Shell::demo();
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5]);
    s
}

/// What the page posted to view `view` since the last call, parsed.
pub(crate) fn posted(s: &mut Shell, view: u64) -> Vec<Value> {
    let mut out = Vec::new();
    s.effects.retain(|o| match o {
        Output::AppPost { view: v, text } if *v == view => {
            out.push(serde_json::from_str(text).unwrap());
            false
        }
        _ => true,
    });
    out
}

pub(crate) fn from_view(s: &mut Shell, view: u64, msg: Value) {
    s.cmd(Command::App(AppCommand::FromView {
        view,
        raw: msg.to_string(),
    }));
}

/// A shell at step 5 whose view finished its handshake (what it was sent so far
/// taken), and the view's id.
pub(crate) fn ready_view() -> (Shell, u64) {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    posted(&mut s, id);
    (s, id)
}

/// The view sends `ui/message` with `text`, for the user.
pub(crate) fn view_says(s: &mut Shell, view: u64, text: &str) {
    from_view(
        s,
        view,
        json!({"jsonrpc": "2.0", "id": 6, "method": "ui/message",
               "params": {"role": "user", "content": [{"type": "text", "text": text}]}}),
    );
}

/// The handshake a view makes.
pub(crate) fn initialize(s: &mut Shell, view: u64) -> Value {
    from_view(
        s,
        view,
        json!({"jsonrpc": "2.0", "id": 1, "method": "ui/initialize",
               "params": {"protocolVersion": "2026-01-26", "appInfo": {"name": "t", "version": "1"}, "appCapabilities": {}}}),
    );
    let answer = posted(s, view);
    assert_eq!(answer.len(), 1, "{answer:?}");
    from_view(
        s,
        view,
        json!({"jsonrpc": "2.0", "method": "ui/notifications/initialized"}),
    );
    answer[0].clone()
}

fn app_rows(s: &Shell) -> Vec<(bool, String)> {
    s.d.log()
        .iter()
        .filter_map(|r| match r {
            LogRow::App { sent, summary, .. } => Some((!*sent, summary.clone())),
            _ => None,
        })
        .collect()
}

#[test]
fn the_demo_card_is_read_hosted_and_fed_in_order() {
    let mut s = at_step_five();
    let sent: Vec<String> = s.wire().into_iter().filter(|w| w.0).map(|w| w.1).collect();
    assert!(
        sent.iter()
            .any(|w| w.contains("resources/read") && w.contains("ui://demo/weather-card")),
        "the host reads the view over MCP: {sent:#?}"
    );
    assert_eq!(s.apps.len(), 1);
    let v = s.apps[0].clone();
    assert_eq!(v.tool, "get_weather");
    assert_eq!(v.uri, "ui://demo/weather-card");
    assert!(v.html.contains("<"), "the card's HTML");
    assert!(v.policy.starts_with("default-src 'none'"), "{}", v.policy);
    assert_eq!(v.status, "loading");
    // Nothing is posted before the view speaks.
    assert!(posted(&mut s, v.id).is_empty());
    let init = initialize(&mut s, v.id);
    assert_eq!(
        init["result"]["hostContext"]["toolInfo"]["tool"]["name"],
        "get_weather"
    );
    // Held until initialized: the input, then the result.
    let after = posted(&mut s, v.id);
    let methods: Vec<&str> = after.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(
        methods,
        [
            "ui/notifications/tool-input",
            "ui/notifications/tool-result"
        ]
    );
    assert_eq!(after[0]["params"]["arguments"]["city"], "Austin");
    assert!(
        after[1]["params"]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("Austin: 91F")
    );
    assert_eq!(s.apps[0].status, "ready");
    // The app ↔ host lane, with summaries.
    let rows = app_rows(&s);
    assert_eq!(rows[0], (true, "ui/initialize".to_owned()));
    assert_eq!(rows[1], (false, "result of ui/initialize".to_owned()));
    assert!(rows.contains(&(true, "ui/notifications/initialized".to_owned())));
}

#[test]
fn a_view_calls_a_tool_through_the_host() {
    let (mut s, id) = ready_view();
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
               "params": {"name": "get_forecast", "arguments": {"city": "Paris", "days": 2}}}),
    );
    let sent: Vec<String> = s.wire().into_iter().filter(|w| w.0).map(|w| w.1).collect();
    assert!(
        sent.iter()
            .any(|w| w.contains("\"get_forecast\"") && w.contains("Paris")),
        "the host sent the view's call as its own: {sent:#?}"
    );
    let back = posted(&mut s, id);
    assert_eq!(back.len(), 1, "{back:?}");
    assert_eq!(back[0]["id"], 7);
    assert!(back[0]["result"]["content"].is_array(), "{back:?}");
    // The loop is untouched: still at step 5, its next is 6.
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5]);
    assert_eq!(s.next_step, Some(6));
    // The view's card knows its step 5 (index 4) and the call it made, for the
    // picture of the loop.
    let lifelines = s.d.app_lifelines();
    assert_eq!(
        lifelines,
        [mcpg_page::AppLifeline {
            view: id,
            step: 4,
            calls: vec!["get_forecast".to_owned()],
        }]
    );
    // And a reset still forgets it.
    s.cmd(Command::Reset);
    assert!(s.steps.is_empty(), "{:?}", s.numbers());
    assert_eq!(posted(&mut s, id)[0]["method"], "ui/resource-teardown");
}

#[test]
fn the_host_refuses_what_a_view_may_not_do() {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    // Before the handshake.
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather"}}),
    );
    let early = posted(&mut s, id);
    assert_eq!(early[0]["error"]["code"], -32000, "{early:?}");
    initialize(&mut s, id);
    posted(&mut s, id);
    // A tool the server did not list, and a link that fails the URL rule.
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "rm_rf"}}),
    );
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": 3, "method": "ui/open-link", "params": {"url": "javascript:alert(1)"}}),
    );
    let refused = posted(&mut s, id);
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(
        refused.iter().all(|m| m.get("error").is_some()),
        "{refused:?}"
    );
    let notes = &s.apps[0].notes;
    assert!(notes.iter().any(|n| n.contains("rm_rf")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("javascript")), "{notes:?}");
    let sent: Vec<String> = s.wire().into_iter().filter(|w| w.0).map(|w| w.1).collect();
    assert!(
        !sent.iter().any(|w| w.contains("rm_rf")),
        "nothing reached the server"
    );
}

#[test]
fn a_link_opens_only_on_the_learners_click() {
    let (mut s, id) = ready_view();
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": 4, "method": "ui/open-link", "params": {"url": "https://example.com/forecast"}}),
    );
    assert!(posted(&mut s, id).is_empty(), "no answer before the click");
    assert!(
        !s.effects
            .iter()
            .any(|o| matches!(o, Output::OpenUrl { .. }))
    );
    let link = s.apps[0].links[0].clone();
    assert_eq!(link.url, "https://example.com/forecast");
    s.cmd(Command::App(AppCommand::Link {
        view: id,
        ticket: link.ticket,
        open: true,
    }));
    assert!(
        s.effects
            .iter()
            .any(|o| matches!(o, Output::OpenUrl { url } if url == "https://example.com/forecast"))
    );
    let answer = posted(&mut s, id);
    assert_eq!(answer[0]["id"], 4);
    assert!(answer[0].get("result").is_some());
    assert!(s.apps[0].links.is_empty());
}

#[test]
fn reset_tears_the_view_down_then_it_goes() {
    let (mut s, id) = ready_view();
    s.cmd(Command::Reset);
    let down = posted(&mut s, id);
    assert_eq!(down[0]["method"], "ui/resource-teardown", "{down:?}");
    assert_eq!(s.apps[0].status, "tearing down");
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": down[0]["id"], "result": {}}),
    );
    assert!(s.apps.is_empty(), "the frame goes once the view answered");
}

#[test]
fn a_view_that_never_answers_teardown_goes_after_the_deadline() {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    s.cmd(Command::Reset);
    assert_eq!(s.apps.len(), 1);
    s.advance(mcpg_apps::TEARDOWN_MS + 1);
    assert!(s.apps.is_empty());
}

#[test]
fn a_view_that_never_initializes_fails_and_goes() {
    let mut s = at_step_five();
    assert_eq!(s.apps.len(), 1);
    s.advance(mcpg_apps::INIT_MS + 1);
    assert!(s.apps.is_empty());
    assert!(
        s.notes()
            .iter()
            .any(|n| n.contains("did not finish ui/initialize")),
        "{:?}",
        s.notes()
    );
}

#[test]
fn the_page_declares_the_extension() {
    let s = at_step_five();
    let init = s
        .wire()
        .into_iter()
        .find(|w| w.0 && w.1.contains("\"initialize\"") || w.1.contains("clientCapabilities"))
        .unwrap();
    assert!(init.1.contains(mcpg_apps::EXTENSION), "{}", init.1);
    assert!(init.1.contains("text/html;profile=mcp-app"), "{}", init.1);
    assert_eq!(mcpg_loop_data::APPS_EXTENSION, mcpg_apps::EXTENSION);
    assert_eq!(mcpg_loop_data::APPS_MIME, mcpg_apps::MIME);
}

/// A live loop of "What's the weather in Austin?" to its end, and its recording.
fn recorded_loop() -> mcpg_recording::Recording {
    let mut live = Shell::demo();
    live.cmd(Command::Run);
    live.advance(10 * mcpg_page::RUN_PACE.as_millis() as u64);
    assert_eq!(live.numbers(), [1, 2, 3, 4, 5, 6]);
    live.d.record()
}

#[test]
fn a_replay_hosts_the_view_from_the_recorded_read() {
    let mut replay = Shell::replaying(recorded_loop());
    replay.cmd(Command::Run);
    replay.advance(10 * mcpg_page::RUN_PACE.as_millis() as u64);
    assert_eq!(replay.numbers(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(replay.apps.len(), 1, "{:?}", replay.notes());
    assert!(replay.apps[0].html.contains("Weather card"));
}

#[test]
fn a_replay_declares_what_its_recording_did_and_then_hosts_no_view() {
    // As `mcpg loop --share` records: a host that declares no extension (no MCP
    // Apps, and so reads no view; no Tasks extension either).
    let mut session = recorded_loop();
    let ext = r#","extensions":{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]},"io.modelcontextprotocol/tasks":{}}"#;
    let read_id = session
        .wire
        .iter()
        .filter_map(|w| w.text.as_deref())
        .filter_map(|t| serde_json::from_str::<Value>(t).ok())
        .find(|v| v["method"] == "resources/read")
        .map(|v| v["id"].clone())
        .expect("the live loop read the view");
    session.wire.retain(|w| {
        let v: Value = w
            .text
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or(Value::Null);
        v["id"] != read_id
    });
    assert!(support::recorded_without(&mut session, ext) > 0);
    let mut replay = Shell::replaying(session);
    replay.cmd(Command::Run);
    replay.advance(10 * mcpg_page::RUN_PACE.as_millis() as u64);
    assert_eq!(replay.numbers(), [1, 2, 3, 4, 5, 6], "{:?}", replay.notes());
    assert!(replay.apps.is_empty());
    let sent: Vec<String> = replay
        .wire()
        .into_iter()
        .filter(|w| w.0)
        .map(|w| w.1)
        .collect();
    assert!(
        !sent
            .iter()
            .any(|w| w.contains(mcpg_apps::EXTENSION) || w.contains("extensions")),
        "{sent:#?}"
    );
    assert!(
        !sent.iter().any(|w| w.contains("resources/read")),
        "{sent:#?}"
    );
}

#[test]
fn a_views_message_and_context_join_the_conversation_once_the_loop_answered() {
    let (mut s, id) = ready_view();
    from_view(
        &mut s,
        id,
        json!({"jsonrpc": "2.0", "id": 5, "method": "ui/update-model-context",
               "params": {"content": [{"type": "text", "text": "the card shows Austin at 91F"}]}}),
    );
    view_says(&mut s, id, "What's the 3-day forecast for Paris?");
    let answers = posted(&mut s, id);
    assert_eq!(answers.len(), 2, "{answers:?}");
    assert!(
        answers.iter().all(|a| a.get("result").is_some()),
        "{answers:?}"
    );
    // Held while the loop runs: step 6 comes first.
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5]);
    assert!(
        s.apps[0]
            .notes
            .iter()
            .any(|n| n.contains("once the model has answered")),
        "{:?}",
        s.apps[0].notes
    );
    s.cmd(Command::Step);
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    // Then the loop goes on from step 3, the view's words as the user's.
    assert_eq!(s.next_step, Some(3), "{:?}", s.notes());
    assert!(s.answer.is_none());
    assert!(
        s.notes()
            .iter()
            .any(|n| n.contains("added a user message to the conversation")),
        "{:?}",
        s.notes()
    );
    s.cmd(Command::Step);
    let s3 = s.steps.last().unwrap();
    assert_eq!(s3.number, 3);
    let request = &s3.blocks[0].json;
    assert!(request.contains("3-day forecast for Paris"), "{request}");
    assert!(
        request.contains("(Context from the app the user sees: the card shows Austin at 91F)"),
        "the context goes with the message: {request}"
    );
    assert!(
        s3.explanation.contains("get_forecast"),
        "{}",
        s3.explanation
    );
    // Step 4's click brings step 5 with the server's answer.
    for _ in 0..2 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6, 3, 4, 5, 6]);
    assert!(
        s.answer.as_deref().is_some_and(|a| a.contains("Paris")),
        "{:?}",
        s.answer
    );
}

#[test]
fn a_views_message_goes_with_the_loop_on_reset() {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    view_says(&mut s, id, "forecast for Paris");
    s.cmd(Command::Reset);
    s.cmd(Command::Step);
    assert_eq!(
        s.numbers(),
        [1],
        "a new loop, from the prompt, not the view's words"
    );
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6]);
    assert_eq!(s.next_step, None, "nothing was held for the new loop");
}

#[test]
fn a_replay_of_a_loop_that_went_on_says_what_it_does_not_replay() {
    let mut s = at_step_five();
    let id = s.apps[0].id;
    initialize(&mut s, id);
    view_says(&mut s, id, "What's the 3-day forecast for Paris?");
    for _ in 0..4 {
        s.cmd(Command::Step);
    }
    assert_eq!(s.numbers(), [1, 2, 3, 4, 5, 6, 3, 4, 5, 6]);
    let mut replay = support::Shell::new();
    replay.cmd(Command::OpenShared {
        session: Box::new(s.d.record()),
        from: "link".into(),
    });
    let notice = replay.notice.clone().unwrap_or_default();
    assert!(
        notice.contains("went on after the model's answer"),
        "{notice:?}"
    );
    replay.cmd(Command::Run);
    replay.advance(20 * mcpg_page::RUN_PACE.as_millis() as u64);
    assert_eq!(replay.numbers(), [1, 2, 3, 4, 5, 6], "as the notice says");
    assert!(replay.network().is_empty());
    // A plain loop's replay says nothing of the kind.
    let plain = Shell::replaying(recorded_loop());
    assert_eq!(plain.notice, None);
}
