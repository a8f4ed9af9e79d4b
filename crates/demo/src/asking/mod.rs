//! The tools that ask: what each one asks the client, and what it makes of the
//! answer. Pure and shared by both generations: up to 2025-11-25 the question goes
//! out as the server's own request (`drive.rs`), under 2026-07-28 inside an
//! `input_required` result whose answer comes back on the retry.

pub(crate) mod drive;
pub mod state;

use mcpg_core::model::{CallToolResult, JsonObject};
use mcpg_core::server::AskOutcome;
use mcpg_core::version::ProtocolVersion;
use serde_json::Value;

use crate::content::notes;

/// Which of the asking tools a call is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `reserve_table`: a form (elicitation).
    Booking,
    /// `summarize_note`: sampling.
    Summary,
    /// `show_roots`: `roots/list`.
    Roots,
    /// `link_account`: URL elicitation.
    Link,
    /// `count_task` half-way, when called with `ask`: whether to go on (a form,
    /// tied to its task by `_meta`; `tasks.rs`). No tool of its own.
    GoOn,
}

impl Kind {
    /// The asking tool called `name`, if it is one.
    pub fn of(name: &str) -> Option<Kind> {
        match name {
            "reserve_table" => Some(Kind::Booking),
            "summarize_note" => Some(Kind::Summary),
            "show_roots" => Some(Kind::Roots),
            "link_account" => Some(Kind::Link),
            _ => None,
        }
    }

    /// The key of its one entry in `inputRequests` (2026-07-28).
    pub fn key(self) -> &'static str {
        match self {
            Kind::Booking => "booking",
            Kind::Summary => "summary",
            Kind::Roots => "roots",
            Kind::Link => "link",
            Kind::GoOn => "go_on",
        }
    }

    /// The capability the client must declare (as `mcpg_core::server::declares` spells it).
    pub fn capability(self) -> &'static str {
        match self {
            Kind::Booking | Kind::GoOn => "elicitation",
            Kind::Summary => "sampling",
            Kind::Roots => "roots",
            Kind::Link => "elicitation.url",
        }
    }

    /// The method it sends.
    pub fn method(self) -> &'static str {
        match self {
            Kind::Booking | Kind::Link | Kind::GoOn => "elicitation/create",
            Kind::Summary => "sampling/createMessage",
            Kind::Roots => "roots/list",
        }
    }
}

/// The result a tool gives when the client cannot be asked.
pub fn missing_capability(kind: Kind, why: &str) -> CallToolResult {
    CallToolResult::tool_error(format!(
        "This tool must ask the client ({}) and cannot: {why}. A client that declares the {} capability can answer it.",
        kind.method(),
        kind.capability()
    ))
}

/// The questions as JSON text, patched where they vary: data costs the page far
/// less than `json!` code building the same values (see `catalogue.rs`). The URL is
/// on example.com, a domain reserved for examples (RFC 2606): nobody's site.
const QUESTIONS: &str = r#"{
"booking": {"mode": "form", "message": "How many people, and when?", "requestedSchema": {"type": "object", "required": ["party", "time"], "properties": {
  "party": {"type": "integer", "title": "Party size", "minimum": 1, "maximum": 12, "default": 2},
  "time": {"type": "string", "title": "Time", "default": "19:30", "oneOf": [{"const": "18:00", "title": "6 pm"}, {"const": "19:30", "title": "7:30 pm"}, {"const": "21:00", "title": "9 pm"}]}}}},
"time_before_2025_11_25": {"type": "string", "title": "Time", "default": "19:30", "enum": ["18:00", "19:30", "21:00"], "enumNames": ["6 pm", "7:30 pm", "9 pm"]},
"summary": {"messages": [{"role": "user", "content": {"type": "text", "text": "Summarize this note in one sentence:\n\n"}}],
  "systemPrompt": "You write one-sentence summaries.", "modelPreferences": {"hints": [{"name": "claude"}], "speedPriority": 0.8}, "maxTokens": 80},
"roots": {},
"link": {"mode": "url", "message": "Open this page to link your pretend account. Nothing is sent anywhere.", "url": "https://example.com/mcpg/link?id="},
"go_on": {"mode": "form", "message": "Half-way there: ", "requestedSchema": {"type": "object", "required": ["go_on"], "properties": {
  "go_on": {"type": "boolean", "title": "Go on counting", "default": true}}}}
}"#;

/// The `params` of the question `kind` asks; `link` is the URL step's elicitation id.
/// The booking form is an integer and an enum with titles, both with defaults:
/// titled enums are `oneOf` `const`/`title` from 2025-11-25, `enumNames` before.
pub fn params(kind: Kind, args: &JsonObject, version: ProtocolVersion, link: &str) -> Value {
    let mut all = serde_json::from_str::<Value>(QUESTIONS).unwrap_or_default();
    let legacy = all.get_mut("time_before_2025_11_25").map(Value::take);
    let Some(mut p) = all.get_mut(kind.key()).map(Value::take) else {
        return Value::Null;
    };
    let append = |v: Option<&mut Value>, tail: &str| {
        if let Some(Value::String(s)) = v {
            s.push_str(tail);
        }
    };
    match kind {
        // 2025-06-18 had no `mode` (form was the only one) and no titled `oneOf`.
        Kind::Booking if version < ProtocolVersion::V2025_11_25 => {
            if let (Some(t), Some(l)) = (p.pointer_mut("/requestedSchema/properties/time"), legacy)
            {
                *t = l;
            }
            if let Value::Object(o) = &mut p {
                o.remove("mode");
            }
        }
        Kind::Summary => {
            let note = notes::note(topic(args)).unwrap_or_default();
            append(p.pointer_mut("/messages/0/content/text"), note);
        }
        Kind::Link => {
            append(p.get_mut("url"), link);
            // 2026-07-28 has no elicitationId: the retry is the completion.
            if let (Value::Object(o), true) = (&mut p, version < ProtocolVersion::V2026_07_28) {
                o.insert("elicitationId".into(), Value::from(link));
            }
        }
        // `link` carries the task's progress ("counted 3 of 5").
        Kind::GoOn => append(p.get_mut("message"), &format!("{link}. Go on counting?")),
        Kind::Booking | Kind::Roots => {}
    }
    p
}

const TIMES: [&str; 3] = ["18:00", "19:30", "21:00"];

fn topic(args: &JsonObject) -> &str {
    args.get("topic")
        .and_then(Value::as_str)
        .filter(|t| notes::READ_NOTE_TOPICS.contains(t))
        .unwrap_or("pagination")
}

/// What a call does with its answer.
#[derive(Debug, PartialEq)]
pub enum Finish {
    /// Answer the call with this result.
    Done(Box<CallToolResult>),
    /// (URL step, up to 2025-11-25) the learner agreed to open the page: wait for
    /// the pretend site to finish, then send `notifications/elicitation/complete`.
    AwaitCompletion,
}

/// Turns the client's answer into the tool's result. `classic` says the URL step
/// waits for its completion notice (under 2026-07-28 the retry itself is the answer).
pub fn finish(kind: Kind, args: &JsonObject, outcome: &AskOutcome, classic: bool) -> Finish {
    let result = match outcome {
        AskOutcome::TimedOut => CallToolResult::tool_error(format!(
            "No answer to {} in time: the server gave up.",
            kind.method()
        )),
        AskOutcome::Error(e) if kind == Kind::Summary && e.code == -1 => {
            CallToolResult::tool_error("The host rejected the sampling request: no summary.")
        }
        AskOutcome::Error(e) => CallToolResult::tool_error(format!(
            "The client answered {} with error {}: {}",
            kind.method(),
            e.code,
            e.message
        )),
        AskOutcome::Result(v) => match kind {
            Kind::Booking | Kind::Link | Kind::GoOn => return elicited(kind, v, classic),
            Kind::Summary => sampled(args, v),
            Kind::Roots => roots(v),
        },
    };
    Finish::Done(Box::new(result))
}

fn elicited(kind: Kind, v: &Value, classic: bool) -> Finish {
    let text = match (kind, v.get("action").and_then(Value::as_str)) {
        (Kind::Booking, Some("accept")) => return Finish::Done(Box::new(booked(v.get("content")))),
        (Kind::Link, Some("accept")) if classic => return Finish::AwaitCompletion,
        (Kind::Link, Some("accept")) => linked(),
        (Kind::GoOn, Some("accept")) if go_on(v) => "You said go on.".to_owned(),
        (Kind::GoOn, Some("accept")) => "You said stop.".to_owned(),
        (_, Some("decline")) => "You declined (an explicit no): nothing happened.".to_owned(),
        (_, Some("cancel")) => {
            "You dismissed it without choosing (cancel): nothing happened.".to_owned()
        }
        _ => {
            return Finish::Done(Box::new(CallToolResult::tool_error(format!(
                "The client's ElicitResult has no valid action: {v}"
            ))));
        }
    };
    Finish::Done(Box::new(CallToolResult::text(text)))
}

/// Whether the answer to [`Kind::GoOn`] says go on: `Ok(true)` for an accepted
/// form whose `go_on` is not `false`, `Ok(false)` for no (declined, dismissed, or
/// `go_on: false`), and why not for no answer, an error or a malformed result.
pub fn go_on_answer(outcome: &AskOutcome) -> Result<bool, String> {
    let method = Kind::GoOn.method();
    match outcome {
        AskOutcome::TimedOut => Err(format!(
            "No answer to {method} in time: the server gave up."
        )),
        AskOutcome::Error(e) => Err(format!(
            "The client answered {method} with error {}: {}",
            e.code, e.message
        )),
        AskOutcome::Result(v) => match v.get("action").and_then(Value::as_str) {
            Some("accept") => Ok(go_on(v)),
            Some("decline" | "cancel") => Ok(false),
            _ => Err(format!(
                "The client's ElicitResult has no valid action: {v}"
            )),
        },
    }
}

/// An accepted form's `go_on`, `true` when left out (its default).
fn go_on(v: &Value) -> bool {
    v.pointer("/content/go_on").and_then(Value::as_bool) != Some(false)
}

/// What the URL step says once it is over.
pub fn linked() -> String {
    "Your pretend account is linked; what you typed on the page never passed through the client."
        .to_owned()
}

fn booked(content: Option<&Value>) -> CallToolResult {
    let party = content
        .and_then(|c| c.get("party"))
        .and_then(Value::as_i64)
        .filter(|n| (1..=12).contains(n));
    let time = content
        .and_then(|c| c.get("time"))
        .and_then(Value::as_str)
        .filter(|t| TIMES.contains(t));
    match (party, time) {
        (Some(p), Some(t)) => {
            CallToolResult::text(format!("Pretend-booked a table for {p} at {t}."))
        }
        _ => CallToolResult::tool_error(
            "The answer does not fit the form (party 1 to 12, time 18:00, 19:30 or 21:00).",
        ),
    }
}

fn sampled(args: &JsonObject, v: &Value) -> CallToolResult {
    let text = v.get("content").and_then(|c| {
        // One block, or (2025-11-25 with tools) an array of them: take the text.
        let block = c.as_array().and_then(|a| a.first()).unwrap_or(c);
        block.get("text").and_then(Value::as_str)
    });
    let model = v.get("model").and_then(Value::as_str).unwrap_or("?");
    match text {
        Some(t) => CallToolResult::text(format!(
            "Summary of the {} note by {model}: {t}",
            topic(args)
        )),
        None => CallToolResult::tool_error(format!(
            "The sampling result has no text content to use: {v}"
        )),
    }
}

fn roots(v: &Value) -> CallToolResult {
    let Some(list) = v.get("roots").and_then(Value::as_array) else {
        return CallToolResult::tool_error(format!(
            "The roots/list result has no roots array: {v}"
        ));
    };
    if list.is_empty() {
        return CallToolResult::text("The client shares no roots.");
    }
    let lines: Vec<String> = list
        .iter()
        .map(|r| {
            let uri = r.get("uri").and_then(Value::as_str).unwrap_or("?");
            match r.get("name").and_then(Value::as_str) {
                Some(n) => format!("- {uri} ({n})"),
                None => format!("- {uri}"),
            }
        })
        .collect();
    CallToolResult::text(format!(
        "The client shares {} root(s):\n{}",
        list.len(),
        lines.join("\n")
    ))
}
