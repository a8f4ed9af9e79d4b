//! The facts the resources, prompts, completions and logs lessons rest on, checked
//! with the page's own driver and the embedded demo under a virtual clock: what the
//! model is given, what the panels fetch, and where a prompt's messages land.
//! (`reality.rs` checks every lesson's pointers.) Natively and in Chromium.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::support;

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mcpg_core::Timestamp;
use mcpg_core::model::{CompletionReference, JsonObject, LoggingLevel};
use mcpg_host::Step;
use mcpg_lessons::{Check, find};
use mcpg_page::features::view::{CompletionView, LogEntry, ReadView};
use mcpg_page::{
    Command, FeatureChange, FeatureCommand, Input, Output, PageDriver, Source, ViewChange,
};
use serde_json::{Value, json};
use support::{at, field, play};

/// The page's driver on the embedded demo, keeping what the panels would show.
struct Page {
    d: PageDriver,
    now: Timestamp,
    steps: Vec<Step>,
    read: Option<ReadView>,
    completion: Option<CompletionView>,
    logs: Vec<LogEntry>,
}

impl Page {
    fn demo() -> Page {
        let mut p = Page {
            d: PageDriver::default().with_later(mcpg_page_later::later_kit()),
            now: Timestamp::from_millis(1_000),
            steps: Vec::new(),
            read: None,
            completion: None,
            logs: Vec::new(),
        };
        p.cmd(Command::Connect(Source::Demo));
        p
    }

    fn cmd(&mut self, c: Command) {
        self.d.handle(self.now, Input::Command(c));
        // Run mode paces its steps: fire every deadline until the loop rests.
        loop {
            while let Some(o) = self.d.poll_output() {
                match o {
                    Output::View(ViewChange::Steps(s)) => self.steps = s,
                    Output::View(ViewChange::Feature(f)) => match f {
                        FeatureChange::Read(r) => self.read = r.map(|b| *b),
                        FeatureChange::Completion(c) => self.completion = c.map(|b| *b),
                        FeatureChange::Logs(l) => self.logs = l,
                        _ => {}
                    },
                    _ => {}
                }
            }
            let Some(due) = self.d.poll_timeout() else {
                return;
            };
            self.now = due.max(self.now);
            self.d.handle(self.now, Input::Timer);
        }
    }

    fn feature(&mut self, c: FeatureCommand) {
        self.cmd(Command::Feature(c));
    }

    /// Every JSON block of step `n`.
    fn blocks(&self, n: u8) -> String {
        self.steps
            .iter()
            .filter(|s| s.number == n)
            .flat_map(|s| &s.blocks)
            .map(|b| b.json.to_string())
            .collect()
    }
}

fn right_choice(slug: &str) -> &'static str {
    match find(slug).unwrap().1.check {
        Check::Choice { choices, .. } => choices.iter().find(|c| c.right).unwrap().text,
        Check::Short { answer, .. } => answer,
    }
}

#[test]
fn the_model_gets_tools_and_the_application_reads_the_link() {
    let l = find("resources").unwrap().1;
    let played = play(&l.setup, l.setup.prompt);
    assert_eq!(
        field(&played, 5, "result.content[1].type"),
        Some(json!("resource_link"))
    );
    let link = field(&played, 5, "result.content[1].uri").unwrap();
    assert!(right_choice("resources").starts_with("The application"));

    let mut p = Page::demo();
    p.feature(FeatureCommand::ListResources);
    p.cmd(Command::SetPrompt(l.setup.prompt.into()));
    p.cmd(Command::Run);
    // Step 2 is what the model is given: tools, and no resource the server listed.
    let tools = p.blocks(2);
    assert!(tools.contains("read_note"));
    assert!(!tools.contains("demo://playground/calls.json"), "{tools}");
    p.feature(FeatureCommand::Read {
        uri: link.as_str().unwrap().into(),
        from_link: true,
    });
    let read = p.read.unwrap();
    assert!(read.request.unwrap().contains("\"resources/read\""));
    assert!(read.outcome.unwrap().is_ok());
}

#[test]
fn use_in_the_loop_puts_the_prompts_messages_where_typing_would() {
    let l = find("prompts").unwrap().1;
    let typed = play(&l.setup, l.setup.prompt);
    let mut p = Page::demo();
    let mut args = JsonObject::new();
    args.insert("city".into(), json!("Tokyo"));
    p.feature(FeatureCommand::GetPrompt {
        name: "plan_trip".into(),
        arguments: args,
    });
    p.feature(FeatureCommand::UsePrompt);
    let request: Value = p
        .steps
        .iter()
        .find(|s| s.number == 3)
        .and_then(|s| {
            s.blocks
                .iter()
                .find_map(|b| serde_json::from_str(&b.json).ok())
        })
        .unwrap();
    assert_eq!(
        at(&request, "messages[0].content"),
        field(&typed, 3, "messages[0].content").as_ref()
    );
    assert_eq!(
        at(&request, "messages[0].content"),
        Some(&json!(l.setup.prompt))
    );
    assert!(
        p.steps.iter().any(|s| s.number == 6),
        "the loop ran to its end"
    );
}

#[test]
fn the_server_completes_the_city_the_lesson_uses() {
    let l = find("completions").unwrap().1;
    let mut p = Page::demo();
    p.feature(FeatureCommand::Complete {
        reference: CompletionReference::Resource {
            uri: "weather://{city}/today".into(),
        },
        argument: "city".into(),
        value: "Re".into(),
        context: JsonObject::new(),
    });
    let values = p.completion.unwrap().outcome.unwrap().unwrap().values;
    assert_eq!(values, ["Reykjavik"]);
    let played = play(&l.setup, l.setup.prompt);
    assert_eq!(
        field(&played, 4, "params.arguments.city"),
        Some(json!("Reykjavik"))
    );
    assert!(right_choice("completions").starts_with("Suggested values"));
}

#[test]
fn log_messages_reach_the_panel_and_not_the_model() {
    let l = find("logs").unwrap().1;
    let mut p = Page::demo();
    p.feature(FeatureCommand::SetLogLevel(
        LoggingLevel::parse("debug").unwrap(),
    ));
    p.cmd(Command::SetPrompt(l.setup.prompt.into()));
    p.cmd(Command::Run);
    assert!(p.steps.iter().any(|s| s.number == 6));
    assert!(!p.logs.is_empty(), "the demo logs during the call");
    assert!(p.logs.iter().all(|e| e.logger.as_deref() == Some("demo")));
    let fed_back = p.blocks(6);
    for e in &p.logs {
        assert!(!fed_back.contains(&e.data), "{} reached the model", e.data);
    }
}

/// What lesson `l` sees of `steps`, then of the wire log's rows (`(app lane, raw)`).
fn watch(
    l: &'static mcpg_lessons::Lesson,
    steps: &[mcpg_host::Step],
    rows: &[support::Row],
) -> mcpg_lessons::Watch {
    let mut w = mcpg_lessons::Watch::new(l);
    w.see_steps(l, steps);
    for (app, raw) in rows {
        if *app {
            w.see_app(l, raw);
        } else {
            w.see_wire(l, raw);
        }
    }
    w
}

#[test]
fn the_apps_lesson_is_met_by_a_view_that_calls_back_and_only_then() {
    let l = find("apps").unwrap().1;
    let see = |rows: &[support::Row]| watch(l, &[], rows);
    // The loop and the view's handshake: nothing called back yet.
    let quiet = see(&support::play_view(&l.setup, &[]));
    assert!(quiet.seen(1) && !quiet.seen(2), "{quiet:?}");
    // The forecast button's call, sent on by the host.
    let forecast = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Austin","days":3}}}"#;
    let w = see(&support::play_view(&l.setup, &[forecast]));
    assert!(w.all_seen(), "{w:?}");
    // A view that asks for a tool the server does not list gets no call sent.
    let unknown = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_forecasts","arguments":{}}}"#;
    let w = see(&support::play_view(&l.setup, &[unknown]));
    assert!(w.seen(1) && !w.seen(2), "{w:?}");
}

#[test]
fn the_app_only_lesson_is_met_when_the_view_calls_the_withheld_tool() {
    let l = find("app-only").unwrap().1;
    // Step 2 really withholds it: the model's tool list has 24 and not that one.
    let played = support::play(&l.setup, l.setup.prompt);
    let offered: String = played
        .steps
        .iter()
        .filter(|s| s.number == 2)
        .flat_map(|s| &s.blocks)
        .map(|b| b.json.to_string())
        .collect();
    assert!(!offered.contains("get_weather_details"), "{offered}");
    assert!(offered.contains("city_time_zone"), "{offered}");
    let see = |rows: &[support::Row]| watch(l, &played.steps, rows);
    // The loop alone lists the tool (step 1) but calls nothing app-only.
    let quiet = see(&support::play_view(&l.setup, &[]));
    assert!(quiet.seen(0) && !quiet.seen(1), "{quiet:?}");
    // The Details button's call, sent on by the host.
    let details = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather_details","arguments":{"city":"Austin"}}}"#;
    let w = see(&support::play_view(&l.setup, &[details]));
    assert!(w.all_seen(), "{w:?}");
}

#[test]
fn the_skills_lesson_is_met_by_a_verified_skill_in_use_and_only_then() {
    let l = find("skills").unwrap().1;
    // The panel's requests come first, then the loop's cards, as on the page.
    let watch = |_: &mcpg_lessons::Lesson, steps: &[Step], rows: &[support::Row]| {
        let mut w = mcpg_lessons::Watch::new(l);
        for (_, raw) in rows {
            w.see_wire(l, raw);
        }
        w.see_steps(l, steps);
        w
    };
    // Listed and verified, but not ticked: step 2 has no skill.
    let (steps, rows) = support::play_skill(&l.setup, "weather-report", false);
    let w = watch(l, &steps, &rows);
    assert!(w.seen(0) && w.seen(1) && !w.seen(2), "{w:?}");
    // Used: step 2 carries it, in the system prompt with its SKILL.md.
    let (steps, rows) = support::play_skill(&l.setup, "weather-report", true);
    let w = watch(l, &steps, &rows);
    assert!(w.all_seen(), "{w:?}");
    let step2: String = steps
        .iter()
        .filter(|s| s.number == 2)
        .flat_map(|s| &s.blocks)
        .map(|b| b.json.to_string())
        .collect();
    assert!(step2.contains("# Skill: weather-report"), "{step2}");
    assert!(step2.contains("name: weather-report"), "{step2}");
    // Not among the tools the model is given.
    let tools = steps
        .iter()
        .find(|s| s.number == 2)
        .and_then(|s| s.blocks.first())
        .map(|b| b.json.to_string())
        .unwrap();
    assert!(!tools.contains("weather-report"), "{tools}");
    // The right answer is what happened: the host handed SKILL.md on itself.
    assert!(right_choice("skills").contains("context the host gives the model"));
}
