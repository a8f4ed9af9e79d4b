//! What each demo tool does. Pure functions of their arguments (no clock, no
//! randomness), so a recorded session replays to the same bytes.

use base64::Engine as _;
use mcpg_core::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::{Value, json};

use crate::assets;
use crate::content::notes;
use crate::weather::{self, find_city};

/// What a call turns into: an answer now, or a slow job driven by the clock.
pub enum Reply {
    /// Answer at once.
    Now(Box<CallToolResult>),
    /// Count to `to`, one step every `step_ms`, with progress.
    Slow {
        /// Steps.
        to: u32,
        /// Milliseconds per step.
        step_ms: u64,
    },
    /// Count as a task (2025-11-25): like `Slow`, answered at once with a task
    /// handle, the result through `tasks/result` (`tasks.rs`).
    Task {
        /// Steps.
        to: u32,
        /// Milliseconds per step.
        step_ms: u64,
        /// Whether to stop half-way and ask whether to go on.
        ask: bool,
    },
    /// Add or remove the bonus tool.
    Toggle,
    /// Ask the client first (the tools in `asking`).
    Ask(crate::asking::Kind),
}

fn string_arg<'a>(args: &'a JsonObject, key: &str) -> Result<&'a str, String> {
    match args.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(format!("argument {key:?} must be a string, got {other}")),
        None => Err(format!("missing required argument {key:?}")),
    }
}

fn number_arg(args: &JsonObject, key: &str) -> Result<f64, String> {
    args.get(key)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("argument {key:?} must be a number"))
}

fn int_arg(args: &JsonObject, key: &str, default: i64, min: i64, max: i64) -> Result<i64, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => match v.as_i64() {
            Some(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!(
                "argument {key:?} must be an integer from {min} to {max}"
            )),
        },
    }
}

/// A result number: rounded to two decimals, no trailing zeros ("37.78", "3.5", "4").
fn num(x: f64) -> String {
    mcpg_text::num::fmt_rounded(x, 2)
}

fn now(r: CallToolResult) -> Reply {
    Reply::Now(Box::new(r))
}

/// Runs tool `name` with `args`.
pub fn run(name: &str, args: &JsonObject) -> Reply {
    // Bad arguments are tool errors (isError), as 2025-11-25 asks (SEP-1303), so the
    // model can read the message and try again.
    match run_inner(name, args) {
        Ok(r) => r,
        Err(e) => now(CallToolResult::tool_error(e)),
    }
}

fn run_inner(name: &str, args: &JsonObject) -> Result<Reply, String> {
    let text = |s: String| Ok(now(CallToolResult::text(s)));
    match name {
        "get_weather" => {
            let city = string_arg(args, "city")?;
            match find_city(city) {
                Some(found) => text(weather::today(found)),
                None => Ok(now(CallToolResult::tool_error(format!(
                    "city not found: {city}"
                )))),
            }
        }
        "get_forecast" => {
            let city = string_arg(args, "city")?;
            let days = int_arg(args, "days", 3, 1, 5)?;
            let Some(found) = find_city(city) else {
                return Ok(now(CallToolResult::tool_error(format!(
                    "city not found: {city}"
                ))));
            };
            let structured = weather::forecast(found, days);
            let mut r = CallToolResult::text(structured.to_string());
            r.structured_content = Some(structured);
            Ok(now(r))
        }
        "get_weather_icon" => {
            let city = string_arg(args, "city")?;
            let Some((c, _, _)) = find_city(city) else {
                return Ok(now(CallToolResult::tool_error(format!(
                    "city not found: {city}"
                ))));
            };
            let mut r = CallToolResult::text(format!("Icon for {c}:"));
            r.content.push(ContentBlock::from_value(
                json!({"type": "image", "data": assets::SUN_PNG_BASE64, "mimeType": "image/png"}),
            ));
            Ok(now(r))
        }
        "say_hello" => {
            let data = base64::engine::general_purpose::STANDARD.encode(assets::beep_wav());
            let mut r = CallToolResult::text("Hello! (a 0.2 s beep)");
            r.content.push(ContentBlock::from_value(
                json!({"type": "audio", "data": data, "mimeType": "audio/wav"}),
            ));
            Ok(now(r))
        }
        "read_note" => {
            let topic = string_arg(args, "topic")?;
            let body = notes::note(topic)
                .filter(|_| notes::READ_NOTE_TOPICS.contains(&topic))
                .ok_or_else(|| {
                    format!("no note about {topic:?}; try pagination, errors or progress")
                })?;
            let uri = format!("note://playground/{topic}");
            let r = CallToolResult {
                content: vec![
                    ContentBlock::from_value(
                        json!({"type": "resource", "resource": {"uri": uri, "mimeType": "text/plain", "text": body}}),
                    ),
                    ContentBlock::from_value(
                        json!({"type": "resource_link", "uri": "note://playground/", "name": "notebook", "title": "All notes", "mimeType": "text/plain"}),
                    ),
                ],
                ..Default::default()
            };
            Ok(now(r))
        }
        "count_slowly" => {
            let to = int_arg(args, "to", 5, 1, 20)?;
            let step_ms = int_arg(args, "step_ms", 500, 50, 5000)?;
            Ok(Reply::Slow {
                to: u32::try_from(to).unwrap_or(5),
                step_ms: u64::try_from(step_ms).unwrap_or(500),
            })
        }
        "count_task" => {
            let to = int_arg(args, "to", 5, 1, 20)?;
            let step_ms = int_arg(args, "step_ms", 500, 50, 5000)?;
            Ok(Reply::Task {
                to: u32::try_from(to).unwrap_or(5),
                step_ms: u64::try_from(step_ms).unwrap_or(500),
                ask: args.get("ask").and_then(Value::as_bool).unwrap_or(false),
            })
        }
        "toggle_bonus_tool" => Ok(Reply::Toggle),
        crate::catalogue::BONUS => text("Secret recipe: equal parts curiosity and JSON.".into()),
        "add_numbers" => text(num(number_arg(args, "a")? + number_arg(args, "b")?)),
        "multiply_numbers" => text(num(number_arg(args, "a")? * number_arg(args, "b")?)),
        "math.square" => {
            let x = number_arg(args, "x")?;
            text(num(x * x))
        }
        "reverse_text" => text(string_arg(args, "text")?.chars().rev().collect()),
        "count_words" => text(
            string_arg(args, "text")?
                .split_whitespace()
                .count()
                .to_string(),
        ),
        "shout" => text(mcpg_text::case::to_upper(string_arg(args, "text")?)),
        "celsius_to_fahrenheit" => text(format!(
            "{}F",
            num(number_arg(args, "celsius")? * 9.0 / 5.0 + 32.0)
        )),
        "fahrenheit_to_celsius" => text(format!(
            "{}C",
            num((number_arg(args, "fahrenheit")? - 32.0) * 5.0 / 9.0)
        )),
        "km_to_miles" => text(format!(
            "{} miles",
            num(number_arg(args, "km")? * 0.621_371)
        )),
        "get_weather_details" => {
            let city = string_arg(args, "city")?;
            Ok(now(match find_city(city) {
                Some(c) => CallToolResult::text(weather::details(c)),
                None => CallToolResult::tool_error(format!("city not found: {city}")),
            }))
        }
        "city_time_zone" => {
            let c = string_arg(args, "city")?;
            let table = [
                ("Austin", "America/Chicago"),
                ("Paris", "Europe/Paris"),
                ("Tokyo", "Asia/Tokyo"),
                ("London", "Europe/London"),
                ("Reykjavik", "Atlantic/Reykjavik"),
            ];
            match table.iter().find(|(k, _)| k.eq_ignore_ascii_case(c.trim())) {
                Some((k, v)) => text(format!("{k}: {v}")),
                None => Err(format!("city not found: {c}")),
            }
        }
        "pick_color" => {
            let color = match string_arg(args, "mood")? {
                "calm" => "sea green",
                "happy" => "sunflower yellow",
                "angry" => "brick red",
                "sad" => "slate blue",
                other => {
                    return Err(format!(
                        "mood must be calm, happy, angry or sad, not {other:?}"
                    ));
                }
            };
            text(color.to_owned())
        }
        "make_list" => {
            let items = args
                .get("items")
                .and_then(Value::as_array)
                .ok_or("argument \"items\" must be an array of strings")?;
            let numbered = args
                .get("numbered")
                .and_then(Value::as_bool)
                .unwrap_or(true);
            let lines: Vec<String> = items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let s = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
                    if numbered {
                        format!("{}. {s}", i + 1)
                    } else {
                        format!("• {s}")
                    }
                })
                .collect();
            text(lines.join("\n"))
        }
        "book_table" => {
            let restaurant = string_arg(args, "restaurant")?;
            let date = string_arg(args, "date")?;
            let party = args
                .get("party")
                .and_then(Value::as_object)
                .ok_or("argument \"party\" must be an object")?;
            let adults = int_arg(party, "adults", 2, 1, 50)?;
            let children = int_arg(party, "children", 0, 0, 50)?;
            text(format!(
                "Pretend-booked {restaurant} on {date} for {adults} adult(s) and {children} child(ren). Nothing was really booked."
            ))
        }
        other => Err(format!("the demo has no logic for {other}")),
    }
}
