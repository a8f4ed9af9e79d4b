//! The demo's prompts, subscriptions and logs through the core's client in both
//! generations, and their replay. Runs natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use crate::support;

use mcpg_core::client::{Event, GenerationMode};
use mcpg_core::model::LoggingLevel;
use serde_json::{Value, json};
use support::{CALLS, MODES, Session, all, complete, read, rpc_code, text_of};

#[test]
fn prompts_fill_in_and_complete() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let (prompts, _) = all(&mut s, "prompts/list", "prompts");
        let names: Vec<&str> = prompts
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["plan_trip", "study_note", "explain_tool", "greet"]);
        let trip = s.ok(
            "prompts/get",
            json!({"name": "plan_trip", "arguments": {"city": " paris", "days": "3"}}),
        );
        assert_eq!(trip["messages"][0]["role"], "user");
        let text = trip["messages"][0]["content"]["text"].as_str().unwrap();
        assert!(
            text == "What's the weather in Paris? Tell me what to pack for 3 days there.",
            "{text}"
        );
        assert_eq!(
            rpc_code(s.request("prompts/get", json!({"name": "plan_trip"}))),
            -32602
        );
        assert_eq!(
            rpc_code(s.request("prompts/get", json!({"name": "no_such_prompt"}))),
            -32602
        );
        assert_eq!(
            rpc_code(s.request(
                "prompts/get",
                json!({"name": "study_note", "arguments": {"topic": "cats"}})
            )),
            -32602
        );
        let study = s.ok(
            "prompts/get",
            json!({"name": "study_note", "arguments": {"topic": "errors"}}),
        );
        assert_eq!(study["messages"][0]["content"]["type"], "resource");
        assert_eq!(
            study["messages"][0]["content"]["resource"]["uri"],
            "note://playground/errors"
        );
        let explain = s.ok(
            "prompts/get",
            json!({"name": "explain_tool", "arguments": {"tool": "get_weather"}}),
        );
        assert!(
            explain["messages"][0]["content"]["text"]
                .as_str()
                .unwrap()
                .contains("get_weather")
        );
        assert_eq!(
            s.ok("prompts/get", json!({"name": "greet"}))["messages"]
                .as_array()
                .unwrap()
                .len(),
            2
        );

        let trip_ref = json!({"type": "ref/prompt", "name": "plan_trip"});
        assert_eq!(
            complete(&mut s, trip_ref, "city", "TO", json!({})),
            json!(["Tokyo"])
        );
        let explain_ref = json!({"type": "ref/prompt", "name": "explain_tool"});
        assert_eq!(
            complete(&mut s, explain_ref, "tool", "get_weather", json!({})),
            json!(["get_weather", "get_weather_icon", "get_weather_details"])
        );
        assert_eq!(s.diagnostics(), Vec::<String>::new(), "{mode:?}");
    }
}

/// Subscribes to calls.json through the client, which does it the way its
/// generation does (`resources/subscribe`, or a listen stream under 2026-07-28).
fn subscribe_to_calls(s: &mut Session, mode: GenerationMode) {
    let op = s.client.subscribe_resource(s.now, CALLS);
    s.pump();
    let answered = s
        .events
        .iter()
        .any(|e| matches!(e, Event::Answered { op: o, outcome: Ok(_), .. } if *o == op));
    assert!(answered, "{mode:?}: {:#?}", s.events);
    if mode == GenerationMode::Auto {
        let ack = s.notifications("notifications/subscriptions/acknowledged");
        let honoured = &ack.last().unwrap()["notifications"]["resourceSubscriptions"];
        assert_eq!(*honoured, json!([CALLS]));
    }
}

#[test]
fn calls_json_changes_on_every_tool_call_and_subscribers_hear_of_it() {
    for mode in MODES {
        let mut s = Session::new(mode);
        let count = |s: &mut Session| -> Value {
            serde_json::from_str(read(s, CALLS)["text"].as_str().unwrap()).unwrap()
        };
        assert_eq!(count(&mut s), json!({"calls": 0, "last": null}));
        s.call("get_weather", json!({"city": "Austin"}));
        assert!(
            s.notifications("notifications/resources/updated")
                .is_empty(),
            "{mode:?}: nobody subscribed"
        );
        subscribe_to_calls(&mut s, mode);
        s.call("say_hello", json!({}));
        s.call("get_weather", json!({"city": "Atlantis"}));
        let updates = s.notifications("notifications/resources/updated");
        assert_eq!(updates.len(), 2, "{mode:?}: {updates:?}");
        assert_eq!(updates[0]["uri"], CALLS);
        let typed = s
            .events
            .iter()
            .filter(|e| matches!(e, Event::ResourceUpdated { uri, .. } if uri == CALLS))
            .count();
        assert_eq!(typed, 2, "{mode:?}: the client reports each update");
        if mode == GenerationMode::Auto {
            assert!(
                updates[0]["_meta"]["io.modelcontextprotocol/subscriptionId"].is_number()
                    || updates[0]["_meta"]["io.modelcontextprotocol/subscriptionId"].is_string()
            );
        }
        assert_eq!(count(&mut s), json!({"calls": 3, "last": "get_weather"}));
        assert_eq!(s.diagnostics(), Vec::<String>::new(), "{mode:?}");
    }
}

fn levels(s: &Session) -> Vec<String> {
    s.notifications("notifications/message")
        .iter()
        .map(|m| {
            assert_eq!(m["logger"], "demo");
            m["level"].as_str().unwrap().to_owned()
        })
        .collect()
}

#[test]
fn tool_calls_log_at_several_levels_once_asked() {
    for mode in MODES {
        let mut s = Session::new(mode);
        s.call("get_weather", json!({"city": "Austin"}));
        assert!(
            levels(&s).is_empty(),
            "{mode:?}: no level chosen, no messages"
        );
        // logging/setLevel, or under 2026-07-28 the level stamped on each request.
        s.client.set_log_level(s.now, LoggingLevel::Debug);
        s.pump();
        s.call("get_weather", json!({"city": "Austin"}));
        s.call("get_weather", json!({"city": "Atlantis"}));
        s.call("toggle_bonus_tool", json!({}));
        let want = ["debug", "info", "debug", "warning", "debug", "notice"];
        assert_eq!(levels(&s), want, "{mode:?}");
        s.client.set_log_level(s.now, LoggingLevel::Warning);
        s.pump();
        s.call("get_weather", json!({"city": "Atlantis"}));
        s.call("get_weather", json!({"city": "Austin"}));
        assert_eq!(levels(&s).len(), 7, "{mode:?}: only the warning passed");
        let logs = s
            .events
            .iter()
            .filter(|e| matches!(e, Event::Log(_)))
            .count();
        assert_eq!(logs, 7, "{mode:?}: the client reports each message");
        assert_eq!(s.diagnostics(), Vec::<String>::new(), "{mode:?}");
    }
}

#[test]
fn the_new_content_replays_byte_for_byte() {
    let run = |mode: GenerationMode| {
        let mut s = Session::new(mode);
        subscribe_to_calls(&mut s, mode);
        s.ok(
            "resources/read",
            json!({"uri": "demo://playground/beep.wav"}),
        );
        s.ok(
            "prompts/get",
            json!({"name": "plan_trip", "arguments": {"city": "Paris"}}),
        );
        let args = json!({"to": 1, "step_ms": 50}).as_object().cloned();
        s.client
            .call_tool(s.now, "count_slowly", args, Default::default());
        s.pump();
        s.advance(std::time::Duration::from_millis(50));
        s.ok("resources/read", json!({"uri": CALLS}));
        assert!(!text_of(&s.call("shout", json!({"text": "hi"}))).is_empty());
        assert_eq!(s.notifications("notifications/resources/updated").len(), 2);
        s.wire
    };
    for mode in MODES {
        assert_eq!(run(mode), run(mode));
    }
}
