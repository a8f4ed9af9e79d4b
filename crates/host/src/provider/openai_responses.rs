//! OpenAI Responses: flat tools `{type:"function", name, description, parameters,
//! strict}`; the model outputs `function_call` items (`arguments` is a string);
//! results go back as `function_call_output` items, whose `output` may carry images.

use serde_json::{Value, json};

use super::content::{self, Part};
use super::openai_chat::parse_arguments;
use super::{
    HostError, ModelTurn, NameMap, RequestOptions, ShapedTools, ToolCall, ToolOutput, Turn,
};

const LABEL: &str = "OpenAI Responses";

pub(super) fn tool(name: &str, description: &str, schema: Value, strict: bool) -> Value {
    json!({"type": "function", "name": name, "description": description, "parameters": schema, "strict": strict})
}

pub(super) fn request(opts: &RequestOptions, turns: &[Turn], shaped: &ShapedTools) -> Value {
    let mut input = Vec::new();
    for t in turns {
        match t {
            Turn::User(text) => input.push(json!({"role": "user", "content": text})),
            Turn::Model(m) => input.extend(output_items(m, &shaped.names)),
            Turn::Results(outputs) => input.extend(results_items(outputs)),
        }
    }
    let mut body = json!({"model": opts.model, "input": input, "tools": shaped.tools});
    if let Some(s) = &opts.system {
        body["instructions"] = Value::from(s.as_str());
    }
    body
}

fn output_items(turn: &ModelTurn, names: &NameMap) -> Vec<Value> {
    let message = |text: &str| json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]});
    match turn {
        ModelTurn::Answer { text } => vec![message(text)],
        ModelTurn::ToolCalls { text, calls } => {
            let mut items: Vec<Value> = text.iter().map(|t| message(t)).collect();
            for c in calls {
                let name = names.to_provider(&c.name).unwrap_or(&c.name);
                items.push(json!({"type": "function_call", "call_id": c.id, "name": name, "arguments": Value::Object(c.arguments.clone()).to_string()}));
            }
            items
        }
    }
}

pub(super) fn results_items(outputs: &[ToolOutput]) -> Vec<Value> {
    outputs
        .iter()
        .map(|o| {
            let parts = content::parts(&o.result, true);
            let has_image = parts.iter().any(|p| matches!(p, Part::Image { .. }));
            let output = if has_image {
                // Images need the list form of `output`.
                let error_note = content::is_error(&o.result).then(|| json!({"type": "input_text", "text": "Error: the tool reported a failure."}));
                let list: Vec<Value> = error_note
                    .into_iter()
                    .chain(parts.into_iter().map(|p| match p {
                        Part::Text(t) => json!({"type": "input_text", "text": t}),
                        Part::Image { mime, data } => json!({"type": "input_image", "image_url": format!("data:{mime};base64,{data}")}),
                    }))
                    .collect();
                Value::Array(list)
            } else {
                let text = content::text(&o.result);
                let text = if content::is_error(&o.result) && !text.starts_with("Error:") { format!("Error: {text}") } else { text };
                Value::from(text)
            };
            json!({"type": "function_call_output", "call_id": o.call.id, "output": output})
        })
        .collect()
}

pub(super) fn parse_reply(reply: &Value, names: &NameMap) -> Result<ModelTurn, HostError> {
    if let Some(e) = HostError::from_error_body(reply) {
        return Err(e);
    }
    let items = reply
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| HostError::Shape {
            provider: LABEL,
            detail: "no \"output\" array".into(),
        })?;
    let mut text = Vec::new();
    let mut calls = Vec::new();
    for item in items {
        match item.get("type").and_then(Value::as_str) {
            Some("message") => {
                for c in item
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    if let Some(t) = c.get("text").and_then(Value::as_str) {
                        text.push(t.to_owned());
                    }
                }
            }
            Some("function_call") => {
                let name =
                    item.get("name")
                        .and_then(Value::as_str)
                        .ok_or_else(|| HostError::Shape {
                            provider: LABEL,
                            detail: "a function_call has no name".into(),
                        })?;
                let id = item
                    .get("call_id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
                let mcp = names
                    .to_mcp(name)
                    .ok_or_else(|| HostError::UnknownTool(name.to_owned()))?;
                let arguments =
                    parse_arguments(item.get("arguments").unwrap_or(&Value::Null), &id, name)?;
                calls.push(ToolCall {
                    id,
                    name: mcp.to_owned(),
                    arguments,
                });
            }
            _ => {}
        }
    }
    Ok(ModelTurn::from_parts(&text.join("\n"), calls))
}

pub(super) fn reply(opts: &RequestOptions, turn: &ModelTurn, names: &NameMap) -> Value {
    json!({
        "id": "resp_mock_0001",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "model": opts.model,
        "output": output_items(turn, names),
        "usage": {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}
    })
}
