//! The lessons on the server asking, against what the page really does: the
//! page's driver and the embedded demo, a learner who answers each question (the
//! form's defaults, the mock's sample, one root, a URL opened by click), and the
//! facts each lesson's words rest on. Natively and in headless Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_host::asks::{ElicitAction, Reply};
use mcpg_lessons::{LESSONS, Lesson, ProtocolVersion, find};
use mcpg_page::AskState;
use serde_json::{Value, json};
use support::{Played, field, play};

fn lesson(slug: &str) -> &'static Lesson {
    find(slug).unwrap().1
}

fn played(slug: &str) -> Played {
    let l = lesson(slug);
    play(&l.setup, l.setup.prompt)
}

fn result_text(p: &Played) -> String {
    let v = field(p, 5, "result.content[0].text").expect("a result in step 5");
    v.as_str().unwrap().to_owned()
}

/// The wire's JSON-RPC messages, parsed.
fn wire(p: &Played) -> Vec<Value> {
    p.wire
        .iter()
        .filter_map(|w| serde_json::from_str(w).ok())
        .collect()
}

/// Where the first message with `method` is on the wire.
fn position(p: &Played, method: &str) -> Option<usize> {
    wire(p).iter().position(|m| m["method"] == method)
}

#[test]
fn the_classic_lessons_pin_2025_11_25_and_the_last_does_not() {
    let slugs = [
        "sampling",
        "elicitation-form",
        "elicitation-url",
        "roots",
        "tasks",
    ];
    for slug in slugs {
        let r = lesson(slug).setup.revision;
        assert_eq!(r, Some(ProtocolVersion::V2025_11_25), "{slug}");
    }
    assert_eq!(lesson("input-required").setup.revision, None);
    // Every other lesson keeps Auto, so opening it undoes a classic lesson's pin.
    let others = LESSONS.iter().filter(|l| !slugs.contains(&l.slug));
    assert!(others.into_iter().all(|l| l.setup.revision.is_none()));
}

#[test]
fn sampling_goes_through_the_host_and_the_server_sees_its_model() {
    let p = played("sampling");
    assert_eq!(p.asks.len(), 1);
    assert_eq!(p.asks[0].method, "sampling/createMessage");
    assert!(matches!(p.asks[0].state, AskState::Answered(_)));
    let asked = position(&p, "sampling/createMessage").expect("asked on the wire");
    let call = position(&p, "tools/call").unwrap();
    assert!(call < asked, "asked while the call was open");
    let text = result_text(&p);
    assert!(
        text.starts_with("Summary of the errors note by mcpg-mock:"),
        "{text}"
    );
    // The request carries no key: only what the server wrote.
    let request = &wire(&p)[asked];
    assert!(
        request
            .to_string()
            .contains("isError: true is the tool failing")
    );
    assert!(!request.to_string().to_lowercase().contains("api_key"));
}

#[test]
fn the_form_has_titled_choices_and_its_defaults_book_the_table() {
    let p = played("elicitation-form");
    let choices = field(&p, 4, "params.requestedSchema.properties.time.oneOf").unwrap();
    assert_eq!(choices[1], json!({"const": "19:30", "title": "7:30 pm"}));
    assert_eq!(field(&p, 4, "result.action"), Some(json!("accept")));
    assert_eq!(result_text(&p), "Pretend-booked a table for 2 at 19:30.");
    // The check's answer: declining sends the action alone.
    let decline = Reply::Elicited(ElicitAction::Decline).to_result().unwrap();
    assert_eq!(decline, json!({"action": "decline"}));
}

#[test]
fn the_url_is_opened_once_on_the_click_and_the_notice_comes_first() {
    let p = played("elicitation-url");
    let url = field(&p, 4, "params.url").unwrap();
    assert_eq!(url, "https://example.com/mcpg/link?id=link-1");
    assert_eq!(
        p.opened,
        [url.as_str().unwrap()],
        "opened by the click only"
    );
    let notice = position(&p, "notifications/elicitation/complete").expect("the notice");
    let result = wire(&p)
        .iter()
        .rposition(|m| m["result"]["content"][0]["text"].is_string())
        .unwrap();
    assert!(
        notice < result,
        "the result waits for the completion notice"
    );
    assert!(result_text(&p).starts_with("Your pretend account is linked;"));
}

#[test]
fn roots_are_exactly_what_the_host_shared() {
    let p = played("roots");
    let roots = field(&p, 4, "result.roots").unwrap();
    assert_eq!(
        roots,
        json!([{"uri": "file:///home/learner/project", "name": "project"}])
    );
    assert_eq!(
        result_text(&p),
        "The client shares 1 root(s):\n- file:///home/learner/project (project)"
    );
}

#[test]
fn input_required_is_answered_by_a_retry_with_the_state_unchanged() {
    let p = played("input-required");
    let calls: Vec<Value> = wire(&p)
        .into_iter()
        .filter(|m| m["method"] == "tools/call")
        .collect();
    assert_eq!(calls.len(), 2, "the call and its retry");
    let first = field(&p, 4, "result").unwrap();
    assert_eq!(first["resultType"], "input_required");
    let state = first["requestState"].as_str().unwrap();
    assert!(state.starts_with("mcpg1.reserve_table.booking."), "{state}");
    assert_eq!(calls[1]["params"]["requestState"], state);
    assert_eq!(calls[1]["params"]["name"], calls[0]["params"]["name"]);
    assert_eq!(
        calls[1]["params"]["inputResponses"]["booking"]["action"],
        "accept"
    );
    assert_eq!(
        position(&p, "elicitation/create"),
        None,
        "no request of the server's own under 2026-07-28"
    );
    assert!(result_text(&p).starts_with("Pretend-booked a table for 2 at 19:30"));
}

#[test]
fn the_task_is_answered_at_once_polled_then_its_result_fetched() {
    let l = lesson("tasks");
    let p = played("tasks");
    // Step 4 asked a task; step 5's first block is the handle, answered at once.
    assert!(field(&p, 4, "params.task").is_some());
    assert_eq!(
        field(&p, 5, "result.task.status"),
        Some(Value::from("working"))
    );
    assert_eq!(
        field(&p, 5, "result.task.pollInterval"),
        Some(Value::from(500)),
        "the notice quotes 500 ms"
    );
    // Polls, then tasks/result, then the answer the loop feeds back.
    let (get, result) = (position(&p, "tasks/get"), position(&p, "tasks/result"));
    assert!(
        get.is_some() && result.is_some() && get < result,
        "{:?}",
        p.wire
    );
    assert!(
        result_text(&p).contains("Counted to 4"),
        "{}",
        result_text(&p)
    );
    // Every need is seen by the watch, from the cards and the wire.
    let mut w = mcpg_lessons::Watch::new(l);
    w.see_steps(l, &p.steps);
    for raw in &p.wire {
        w.see_wire(l, raw);
    }
    assert!(w.all_seen(), "{w:?}");
    // The right answer is what happened; the handle was not the result.
    let right = match l.check {
        mcpg_lessons::Check::Choice { choices, .. } => {
            choices.iter().find(|c| c.right).unwrap().text
        }
        mcpg_lessons::Check::Short { answer, .. } => answer,
    };
    assert!(right.contains("tasks/result"));
}
