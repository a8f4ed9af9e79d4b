//! The prompts' messages and the completions of their arguments and of the
//! templates' variables.

use mcpg_core::jsonrpc::{RpcError, code};
use mcpg_core::model::{JsonObject, Tool};
use serde_json::{Value, json};

use super::{notes, starting_with};
use crate::weather::{WEATHER, find_city};

fn user_text(text: &str) -> Value {
    json!({"role": "user", "content": {"type": "text", "text": text}})
}

fn invalid(message: String) -> RpcError {
    RpcError::new(code::INVALID_PARAMS, message)
}

/// `(description, messages)` of prompt `name` (the server has checked that it exists
/// and that its required arguments are there).
pub fn get_prompt(
    name: &str,
    args: &JsonObject,
    tools: &[Tool],
) -> Result<(String, Vec<Value>), RpcError> {
    let arg = |k: &str| args.get(k).and_then(Value::as_str).unwrap_or_default();
    match name {
        "plan_trip" => {
            // The table's spelling when the demo knows the city, as get_weather answers.
            let typed = arg("city").trim();
            let city = find_city(typed).map_or(typed, |(c, _, _)| c);
            // Worded like the loop's own example, so the mock model calls get_weather
            // with this city (checked with the host's mock when this was written).
            let text = match arg("days") {
                "" => format!("What's the weather in {city}? Tell me what to pack."),
                days => format!(
                    "What's the weather in {city}? Tell me what to pack for {days} days there."
                ),
            };
            Ok((format!("A trip to {city}"), vec![user_text(&text)]))
        }
        "study_note" => {
            let topic = arg("topic");
            let body =
                notes::note(topic).ok_or_else(|| invalid(format!("no note about {topic:?}")))?;
            let resource = json!({"role": "user", "content": {"type": "resource", "resource": {
                "uri": format!("note://playground/{topic}"), "mimeType": "text/plain", "text": body}}});
            let ask = user_text("Explain this note in one sentence, with an example.");
            Ok((format!("The note about {topic}"), vec![resource, ask]))
        }
        "explain_tool" => {
            let wanted = arg("tool");
            let tool = tools
                .iter()
                .find(|t| t.name == wanted)
                .ok_or_else(|| invalid(format!("this server has no tool {wanted:?}")))?;
            let text = format!(
                "Explain what the {} tool of this server does and when a model should call it. Its description: {}",
                tool.name,
                tool.description.as_deref().unwrap_or("(none)")
            );
            Ok((format!("About {wanted}"), vec![user_text(&text)]))
        }
        _ => Ok((
            "A greeting".into(),
            vec![
                user_text("Say hello to the MCP Playground."),
                json!({"role": "assistant", "content": {"type": "text", "text": "Hello, playground!"}}),
            ],
        )),
    }
}

/// Completions of `argument` (a prompt argument or template variable) for what
/// the user typed; `context` holds the arguments already filled in. Each name
/// means the same in every prompt and template of the demo (`city` in
/// `plan_trip` and in `weather://{city}/today`), so the reference is not needed.
pub fn complete(argument: &str, typed: &str, context: &JsonObject, tools: &[Tool]) -> Vec<String> {
    match argument {
        "city" => starting_with(WEATHER.iter().map(|(c, _, _)| *c), typed),
        // A forecast for a city the demo does not know has no days to offer.
        "days" => {
            let city = context.get("city").and_then(Value::as_str);
            if city.is_some_and(|c| find_city(c).is_none()) {
                return Vec::new();
            }
            starting_with(["1", "2", "3", "4", "5"], typed)
        }
        "topic" => starting_with(notes::NOTES.iter().map(|(t, _)| *t), typed),
        "tool" => starting_with(tools.iter().map(|t| t.name.as_str()), typed),
        _ => Vec::new(),
    }
}
