//! OpenAI Chat Completions: `tools[{type:"function", function{name, description,
//! parameters, strict}}]`; calls arrive as `tool_calls` whose `arguments` is a JSON
//! *string* (which may be invalid); results go back as `role:"tool"` messages. There is
//! no error flag, so the host's convention is an `Error:` prefix in the text.

use serde_json::{Map, Value, json};

use super::content;
use super::{
    HostError, ModelTurn, NameMap, RequestOptions, ShapedTools, ToolCall, ToolOutput, Turn,
};

const LABEL: &str = "OpenAI Chat Completions";

pub(super) fn tool(name: &str, description: &str, schema: Value, strict: bool) -> Value {
    let mut f = json!({"name": name, "description": description, "parameters": schema});
    if strict {
        f["strict"] = Value::Bool(true);
    }
    json!({"type": "function", "function": f})
}

pub(super) fn request(opts: &RequestOptions, turns: &[Turn], shaped: &ShapedTools) -> Value {
    let mut messages = Vec::new();
    if let Some(s) = &opts.system {
        messages.push(json!({"role": "system", "content": s}));
    }
    for t in turns {
        match t {
            Turn::User(text) => messages.push(json!({"role": "user", "content": text})),
            Turn::Model(m) => messages.push(assistant_message(m, &shaped.names)),
            Turn::Results(outputs) => messages.extend(results_messages(outputs)),
        }
    }
    json!({"model": opts.model, "messages": messages, "tools": shaped.tools})
}

fn assistant_message(turn: &ModelTurn, names: &NameMap) -> Value {
    match turn {
        ModelTurn::Answer { text } => json!({"role": "assistant", "content": text}),
        ModelTurn::ToolCalls { text, calls } => {
            let calls: Vec<Value> = calls
                .iter()
                .map(|c| {
                    let name = names.to_provider(&c.name).unwrap_or(&c.name);
                    json!({"id": c.id, "type": "function", "function": {"name": name, "arguments": Value::Object(c.arguments.clone()).to_string()}})
                })
                .collect();
            json!({"role": "assistant", "content": text, "tool_calls": calls})
        }
    }
}

/// The tool-result text with the error convention applied.
pub(super) fn result_text(o: &ToolOutput) -> String {
    let text = content::text(&o.result);
    if content::is_error(&o.result) && !text.starts_with("Error:") {
        format!("Error: {text}")
    } else {
        text
    }
}

pub(super) fn results_messages(outputs: &[ToolOutput]) -> Vec<Value> {
    outputs
        .iter()
        .map(|o| json!({"role": "tool", "tool_call_id": o.call.id, "content": result_text(o)}))
        .collect()
}

/// Reads `arguments`, which OpenAI sends as a JSON string.
pub(super) fn parse_arguments(
    raw: &Value,
    call_id: &str,
    tool: &str,
) -> Result<Map<String, Value>, HostError> {
    let bad = |detail: String, raw: String| HostError::BadArguments {
        call_id: call_id.to_owned(),
        tool: tool.to_owned(),
        detail,
        raw,
    };
    match raw {
        Value::String(s) if s.trim().is_empty() => Ok(Map::new()),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(o)) => Ok(o),
            Ok(other) => Err(bad(format!("expected an object, got {other}"), s.clone())),
            Err(e) => Err(bad(e.to_string(), s.clone())),
        },
        Value::Object(o) => Ok(o.clone()),
        Value::Null => Ok(Map::new()),
        other => Err(bad(
            "arguments are neither a string nor an object".into(),
            other.to_string(),
        )),
    }
}

pub(super) fn parse_reply(reply: &Value, names: &NameMap) -> Result<ModelTurn, HostError> {
    if let Some(e) = HostError::from_error_body(reply) {
        return Err(e);
    }
    let message = reply
        .get("choices")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("message"))
        .ok_or_else(|| HostError::Shape {
            provider: LABEL,
            detail: "no choices[0].message".into(),
        })?;
    parse_message(message, names)
}

/// Shared with Ollama, whose `message` has the same shape.
pub(super) fn parse_message(message: &Value, names: &NameMap) -> Result<ModelTurn, HostError> {
    let text = message
        .get("content")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_owned();
    let mut calls = Vec::new();
    for (i, c) in message
        .get("tool_calls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let f = c.get("function").unwrap_or(&Value::Null);
        let name = f
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| HostError::Shape {
                provider: LABEL,
                detail: format!("tool_calls[{i}] has no function.name"),
            })?;
        let id = c
            .get("id")
            .and_then(Value::as_str)
            .map_or_else(|| format!("call_{i}"), str::to_owned);
        let mcp = names
            .to_mcp(name)
            .ok_or_else(|| HostError::UnknownTool(name.to_owned()))?;
        let arguments = parse_arguments(f.get("arguments").unwrap_or(&Value::Null), &id, name)?;
        calls.push(ToolCall {
            id,
            name: mcp.to_owned(),
            arguments,
        });
    }
    Ok(ModelTurn::from_parts(&text, calls))
}

pub(super) fn reply(opts: &RequestOptions, turn: &ModelTurn, names: &NameMap) -> Value {
    let finish = match turn {
        ModelTurn::Answer { .. } => "stop",
        ModelTurn::ToolCalls { .. } => "tool_calls",
    };
    json!({
        "id": "chatcmpl-mock-0001",
        "object": "chat.completion",
        "created": 0,
        "model": opts.model,
        "choices": [{"index": 0, "message": assistant_message(turn, names), "finish_reason": finish}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}
    })
}
