//! Ollama `/api/chat`: OpenAI-shaped tools; the reply's `tool_calls[].function.arguments`
//! is an *object*; results go back as `{role:"tool", tool_name, content}`.

use serde_json::{Value, json};

use super::openai_chat;
use super::{HostError, ModelTurn, NameMap, RequestOptions, ShapedTools, ToolOutput, Turn};

pub(super) fn tool(name: &str, description: &str, schema: Value) -> Value {
    json!({"type": "function", "function": {"name": name, "description": description, "parameters": schema}})
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
            Turn::Results(outputs) => messages.extend(results_messages(outputs, &shaped.names)),
        }
    }
    json!({"model": opts.model, "messages": messages, "tools": shaped.tools, "stream": false})
}

fn assistant_message(turn: &ModelTurn, names: &NameMap) -> Value {
    match turn {
        ModelTurn::Answer { text } => json!({"role": "assistant", "content": text}),
        ModelTurn::ToolCalls { text, calls } => {
            let calls: Vec<Value> = calls
                .iter()
                .map(|c| {
                    let name = names.to_provider(&c.name).unwrap_or(&c.name);
                    json!({"function": {"name": name, "arguments": c.arguments}})
                })
                .collect();
            json!({"role": "assistant", "content": text.clone().unwrap_or_default(), "tool_calls": calls})
        }
    }
}

pub(super) fn results_messages(outputs: &[ToolOutput], names: &NameMap) -> Vec<Value> {
    outputs
        .iter()
        .map(|o| {
            let name = names.to_provider(&o.call.name).unwrap_or(&o.call.name);
            json!({"role": "tool", "tool_name": name, "content": openai_chat::result_text(o)})
        })
        .collect()
}

pub(super) fn parse_reply(reply: &Value, names: &NameMap) -> Result<ModelTurn, HostError> {
    if let Some(e) = reply.get("error").and_then(Value::as_str) {
        return Err(HostError::ProviderError(e.to_owned()));
    }
    let message = reply.get("message").ok_or_else(|| HostError::Shape {
        provider: "Ollama /api/chat",
        detail: "no \"message\"".into(),
    })?;
    openai_chat::parse_message(message, names)
}

pub(super) fn reply(opts: &RequestOptions, turn: &ModelTurn, names: &NameMap) -> Value {
    json!({
        "model": opts.model,
        "created_at": "1970-01-01T00:00:00Z",
        "message": assistant_message(turn, names),
        "done": true,
        "done_reason": "stop"
    })
}
