//! The mock model: a deterministic stand-in for an LLM, so the loop runs with no
//! account, no network and the same bytes every time.
//!
//! It picks a tool by matching the user's words against tool names (worth most),
//! titles, then descriptions; fills arguments from the tool's `inputSchema` and the
//! words ([`args`]); and after a result writes its answer from the result text
//! ([`answer`]), saying so plainly when the tool failed instead of inventing one.

mod answer;
mod args;

pub use args::{Filled, fill_arguments};

use mcpg_core::model::{JsonObject, Tool};
use mcpg_text::case::{is_word_char, to_lower};

use crate::provider::{ModelTurn, ToolCall, Turn};
use crate::text::{self, identifier_words, is_stop_word, same_word};

/// The deterministic mock model.
#[derive(Clone, Copy, Debug, Default)]
pub struct MockModel;

/// One turn of the mock model: what it said, and in plain words why (shown on the
/// page, so a learner sees what the model did with the tools it was given).
#[derive(Clone, Debug, PartialEq)]
pub struct MockTurn {
    /// The turn, in the provider-neutral shape.
    pub turn: ModelTurn,
    /// Why, in one or two sentences.
    pub why: String,
}

fn answer_turn(text: String, why: String) -> MockTurn {
    MockTurn {
        turn: ModelTurn::Answer { text },
        why,
    }
}

fn call_turn(call: ToolCall, why: String) -> MockTurn {
    MockTurn {
        turn: ModelTurn::ToolCalls {
            text: None,
            calls: vec![call],
        },
        why,
    }
}

/// How well one tool matched the message.
#[derive(Debug)]
struct Score<'a> {
    tool: &'a Tool,
    points: u32,
    /// Words of the tool's name that the message did not mention (fewer is better).
    unmatched_name_words: usize,
    /// Whether the name's words appear in the message in the name's order
    /// ("fahrenheit to celsius" is not `celsius_to_fahrenheit`).
    in_order: bool,
    /// What matched where, for the explanation.
    hits: Vec<String>,
}

/// Below this, no tool fits: one description word is not enough evidence.
const MIN_POINTS: u32 = 2;

impl MockModel {
    /// The model's next turn for this conversation and these tools.
    pub fn respond(&self, turns: &[Turn], tools: &[Tool]) -> MockTurn {
        match turns.last() {
            Some(Turn::Results(outputs)) => answer::after_results(outputs),
            Some(Turn::User(text)) => {
                let n = turns
                    .iter()
                    .filter(|t| matches!(t, Turn::Model(ModelTurn::ToolCalls { .. })))
                    .count();
                choose(text, tools, &format!("call_{}", n + 1))
            }
            Some(Turn::Model(_)) | None => answer_turn(
                "Ask me something, for example: what's the weather in Austin?".into(),
                "There is no user message to answer.".into(),
            ),
        }
    }
}

/// Picks a tool for `message` (or none) and fills its arguments.
fn choose(message: &str, tools: &[Tool], call_id: &str) -> MockTurn {
    if let Some(turn) = explicit(message, tools, call_id) {
        return turn;
    }
    if let Some(turn) = several(message, tools, call_id) {
        return turn;
    }
    let Some(best) = best_tool(message, tools) else {
        return answer_turn(
            format!(
                "None of the {} tools fits that, so I'm answering without one: I can't help with it here. Try “what's the weather in Austin?”.",
                tools.len()
            ),
            format!(
                "No tool's name, title or description shares enough words with the message, so the mock model answers without a call{}.",
                if tools.is_empty() {
                    " (the host gave it no tools)"
                } else {
                    ""
                }
            ),
        );
    };
    let filled = fill_arguments(best.tool, message);
    let matched = best.hits.join(", ");
    call_or_ask(best.tool, filled, call_id, &format!("matched {matched}"))
}

/// The tool that best matches `message`, if any matches well enough.
fn best_tool<'a>(message: &str, tools: &'a [Tool]) -> Option<Score<'a>> {
    let user: Vec<String> = text::words(message)
        .into_iter()
        .map(|w| w.lower)
        .filter(|w| !is_stop_word(w) && !w.chars().all(|c| c.is_ascii_digit()))
        .collect();
    tools
        .iter()
        .map(|t| score(t, &user))
        .filter(|s| s.points >= MIN_POINTS)
        // Highest score; then the tool whose name the message covers best; then list order.
        .reduce(|a, b| {
            let key = |s: &Score| {
                (
                    s.points,
                    std::cmp::Reverse(s.unmatched_name_words),
                    s.in_order,
                )
            };
            if key(&b) > key(&a) { b } else { a }
        })
}

/// "weather in Paris and Austin", "weather in Paris and the time zone of Tokyo": one
/// call per part joined by "and", as real models make parallel calls. Each part after
/// the first may name its own tool or reuse the one before; every part must give every
/// required argument, and the calls must differ, or it is one request after all ("add
/// 2 and 3" is one call). Lists (a colon, commas, quotes) stay one request.
fn several(message: &str, tools: &[Tool], call_id: &str) -> Option<MockTurn> {
    if message.contains([':', ',', '"', '“']) {
        return None;
    }
    let parts: Vec<&str> = message
        .split(" and ")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    if parts.len() < 2 {
        return None;
    }
    let mut calls: Vec<ToolCall> = Vec::new();
    let mut notes = Vec::new();
    let mut tool = best_tool(parts[0], tools)?.tool;
    for (i, part) in parts.iter().enumerate() {
        if let Some(s) = best_tool(part, tools) {
            tool = s.tool;
        }
        let filled = fill_arguments(tool, part);
        let required = tool
            .input_schema
            .get("required")
            .and_then(serde_json::Value::as_array)
            .is_some_and(|r| !r.is_empty());
        if !filled.missing.is_empty() || !required {
            return None;
        }
        let id = if i == 0 {
            call_id.to_owned()
        } else {
            format!("{call_id}_{}", i + 1)
        };
        if calls
            .iter()
            .any(|c| c.name == tool.name && c.arguments == filled.arguments)
        {
            return None;
        }
        notes.push(format!("{} ({})", tool.name, filled.notes.join("; ")));
        calls.push(ToolCall {
            id,
            name: tool.name.clone(),
            arguments: filled.arguments,
        });
    }
    let why = format!(
        "Your message asks for {} things joined by “and”, so the mock model makes {} calls in one turn, as real models make parallel calls: {}.",
        calls.len(),
        calls.len(),
        notes.join(", ")
    );
    Some(MockTurn {
        turn: ModelTurn::ToolCalls { text: None, calls },
        why,
    })
}

/// "call nonexistent_tool": the user names a tool; the model obeys, even when the
/// server has no such tool (real models invent names too; a careful host refuses the
/// call, a naive one sends it and the server answers with a JSON-RPC error).
/// `call add_numbers {"a": "two", "b": 3}`: arguments given as a JSON object are
/// copied as they are, so a learner can make the model send a wrong type.
fn explicit(message: &str, tools: &[Tool], call_id: &str) -> Option<MockTurn> {
    let mut it = message.split_whitespace().peekable();
    while let Some(w) = it.next() {
        let verb = to_lower(w.trim_matches(|c: char| !is_word_char(c)));
        if !matches!(verb.as_str(), "call" | "use" | "run" | "invoke") {
            continue;
        }
        let Some(next) = it.peek() else { break };
        let name = next.trim_matches(|c: char| !(is_word_char(c) || matches!(c, '_' | '-' | '.')));
        let name = name.trim_end_matches('.');
        if name.is_empty() {
            continue;
        }
        if let Some(tool) = tools.iter().find(|t| t.name == name) {
            if let Some(arguments) = given_arguments(message) {
                let why = format!(
                    "You named the tool {name:?} and gave its arguments as JSON, so the mock model copies them exactly, right or wrong (real models make type mistakes too; the server judges them)."
                );
                let call = ToolCall {
                    id: call_id.to_owned(),
                    name: tool.name.clone(),
                    arguments,
                };
                return Some(call_turn(call, why));
            }
            let filled = fill_arguments(tool, message);
            return Some(call_or_ask(tool, filled, call_id, "you named the tool"));
        }
        if name.contains(['_', '-', '.']) {
            return Some(call_turn(
                ToolCall {
                    id: call_id.to_owned(),
                    name: name.to_owned(),
                    arguments: JsonObject::new(),
                },
                format!(
                    "You named the tool {name:?}, so the mock model calls it as asked, although the server never listed it (real models invent tool names too: whether the call goes out is the host's choice)."
                ),
            ));
        }
    }
    None
}

/// The JSON object a message gives as the arguments: from its first `{` to its
/// last `}`, when that parses as an object.
fn given_arguments(message: &str) -> Option<JsonObject> {
    let start = message.find('{')?;
    let end = message.rfind('}')?;
    match serde_json::from_str::<serde_json::Value>(message.get(start..=end)?) {
        Ok(serde_json::Value::Object(o)) => Some(o),
        _ => None,
    }
}

fn call_or_ask(tool: &Tool, filled: Filled, call_id: &str, reason: &str) -> MockTurn {
    if !filled.missing.is_empty() {
        let list = filled.missing.join(", ");
        return answer_turn(
            format!("To use {} I need {list}. Could you tell me?", tool.name),
            format!(
                "The mock model {reason} to {}, but could not find a value for the required {list} in your message, so it asks instead of guessing.",
                tool.name
            ),
        );
    }
    let notes = if filled.notes.is_empty() {
        "no arguments".to_owned()
    } else {
        filled.notes.join("; ")
    };
    call_turn(
        ToolCall {
            id: call_id.to_owned(),
            name: tool.name.clone(),
            arguments: filled.arguments,
        },
        format!(
            "The mock model {reason} to {} and filled its arguments from the schema and your words: {notes}.",
            tool.name
        ),
    )
}

fn score<'a>(tool: &'a Tool, user: &[String]) -> Score<'a> {
    let name_words: Vec<String> = identifier_words(&tool.name)
        .into_iter()
        .filter(|w| !is_stop_word(w))
        .collect();
    let title_words: Vec<String> = [
        tool.title.as_deref(),
        tool.annotations.as_ref().and_then(|a| a.title.as_deref()),
    ]
    .into_iter()
    .flatten()
    .flat_map(|t| text::words(t).into_iter().map(|w| w.lower))
    .collect();
    let description_words: Vec<String> = text::words(tool.description.as_deref().unwrap_or(""))
        .into_iter()
        .map(|w| w.lower)
        .filter(|w| !is_stop_word(w))
        .collect();
    let has = |list: &[String], u: &str| list.iter().any(|w| same_word(w, u));
    let mut points = 0;
    let mut hits = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for u in user {
        if seen.contains(&u.as_str()) {
            continue;
        }
        seen.push(u);
        // Each word counts once, where it says the most.
        if has(&name_words, u) {
            points += 3;
            hits.push(format!("“{u}” (tool name)"));
        } else if has(&title_words, u) {
            points += 2;
            hits.push(format!("“{u}” (title)"));
        } else if has(&description_words, u) {
            points += 1;
            hits.push(format!("“{u}” (description)"));
        }
    }
    let unmatched_name_words = name_words.iter().filter(|n| !has(user, n)).count();
    let positions: Vec<usize> = name_words
        .iter()
        .filter_map(|n| user.iter().position(|u| same_word(n, u)))
        .collect();
    let in_order = positions.windows(2).all(|w| w[0] < w[1]);
    Score {
        tool,
        points,
        unmatched_name_words,
        in_order,
        hits,
    }
}
