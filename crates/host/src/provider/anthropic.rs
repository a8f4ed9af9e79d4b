//! Anthropic Messages: `tools[{name, description, input_schema}]`; the model replies
//! with `tool_use` blocks; results go back in a `user` message as `tool_result`
//! blocks with `is_error`.

use serde_json::{Map, Value, json};

use super::content::{self, Part};
use super::{
    HostError, ModelTurn, NameMap, RequestOptions, ShapedTools, ToolCall, ToolOutput, Turn,
};

const LABEL: &str = "Anthropic Messages";

pub(super) fn tool(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "description": description, "input_schema": schema})
}

pub(super) fn request(opts: &RequestOptions, turns: &[Turn], shaped: &ShapedTools) -> Value {
    let mut body = Map::new();
    body.insert("model".into(), Value::from(opts.model.as_str()));
    body.insert("max_tokens".into(), Value::from(opts.max_tokens));
    if let Some(s) = &opts.system {
        body.insert("system".into(), Value::from(s.as_str()));
    }
    body.insert("tools".into(), shaped.tools.clone());
    let messages: Vec<Value> = turns
        .iter()
        .map(|t| match t {
            Turn::User(text) => json!({"role": "user", "content": text}),
            Turn::Model(m) => {
                json!({"role": "assistant", "content": assistant_content(m, &shaped.names)})
            }
            Turn::Results(outputs) => results_message(outputs),
        })
        .collect();
    body.insert("messages".into(), Value::Array(messages));
    Value::Object(body)
}

fn assistant_content(turn: &ModelTurn, names: &NameMap) -> Value {
    let mut blocks = Vec::new();
    match turn {
        ModelTurn::Answer { text } => blocks.push(json!({"type": "text", "text": text})),
        ModelTurn::ToolCalls { text, calls } => {
            if let Some(t) = text {
                blocks.push(json!({"type": "text", "text": t}));
            }
            for c in calls {
                let name = names.to_provider(&c.name).unwrap_or(&c.name);
                blocks.push(
                    json!({"type": "tool_use", "id": c.id, "name": name, "input": c.arguments}),
                );
            }
        }
    }
    Value::Array(blocks)
}

pub(super) fn results_message(outputs: &[ToolOutput]) -> Value {
    let blocks: Vec<Value> = outputs
        .iter()
        .map(|o| {
            let parts: Vec<Value> = content::parts(&o.result, true)
                .into_iter()
                .map(|p| match p {
                    Part::Text(t) => json!({"type": "text", "text": t}),
                    Part::Image { mime, data } => json!({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}}),
                })
                .collect();
            let mut b = json!({"type": "tool_result", "tool_use_id": o.call.id, "content": parts});
            if content::is_error(&o.result) {
                b["is_error"] = Value::Bool(true);
            }
            b
        })
        .collect();
    json!({"role": "user", "content": blocks})
}

pub(super) fn parse_reply(reply: &Value, names: &NameMap) -> Result<ModelTurn, HostError> {
    let shape = |detail: &str| HostError::Shape {
        provider: LABEL,
        detail: detail.to_owned(),
    };
    if reply.get("type").and_then(Value::as_str) == Some("error") {
        return Err(HostError::ProviderError(
            reply["error"]["message"]
                .as_str()
                .unwrap_or("unknown error")
                .to_owned(),
        ));
    }
    let blocks = reply
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| shape("no \"content\" array"))?;
    let mut text = Vec::new();
    let mut calls = Vec::new();
    for b in blocks {
        match b.get("type").and_then(Value::as_str) {
            Some("text") => text.push(
                b.get("text")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
            ),
            Some("tool_use") => {
                let name = b
                    .get("name")
                    .and_then(Value::as_str)
                    .ok_or_else(|| shape("a tool_use block has no name"))?;
                let mcp = names
                    .to_mcp(name)
                    .ok_or_else(|| HostError::UnknownTool(name.to_owned()))?;
                let arguments = match b.get("input") {
                    Some(Value::Object(o)) => o.clone(),
                    None | Some(Value::Null) => Map::new(),
                    Some(other) => {
                        return Err(HostError::BadArguments {
                            call_id: b["id"].as_str().unwrap_or("?").to_owned(),
                            tool: name.to_owned(),
                            detail: "input is not an object".into(),
                            raw: other.to_string(),
                        });
                    }
                };
                let id = b
                    .get("id")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned();
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
    let stop = match turn {
        ModelTurn::Answer { .. } => "end_turn",
        ModelTurn::ToolCalls { .. } => "tool_use",
    };
    json!({
        "id": "msg_mock_0001",
        "type": "message",
        "role": "assistant",
        "model": opts.model,
        "content": assistant_content(turn, names),
        "stop_reason": stop,
        "stop_sequence": null,
        "usage": {"input_tokens": 0, "output_tokens": 0}
    })
}
