//! Google Gemini `generateContent`: `tools[{functionDeclarations[{name, description,
//! parameters}]}]`; calls arrive as `functionCall{id?, name, args}` parts; results go
//! back as `functionResponse{id?, name, response{output | error}}` parts. Parts may carry
//! a `thoughtSignature`, which must be sent back unchanged (kept via the call id).

use serde_json::{Value, json};

use super::content;
use super::{
    HostError, ModelTurn, NameMap, RequestOptions, ShapedTools, ToolCall, ToolOutput, Turn,
};

const LABEL: &str = "Google Gemini";

pub(super) fn declaration(name: &str, description: &str, schema: Value) -> Value {
    json!({"name": name, "description": description, "parameters": schema})
}

pub(super) fn wrap_declarations(decls: Vec<Value>) -> Value {
    json!([{"functionDeclarations": decls}])
}

pub(super) fn request(opts: &RequestOptions, turns: &[Turn], shaped: &ShapedTools) -> Value {
    let contents: Vec<Value> = turns
        .iter()
        .map(|t| match t {
            Turn::User(text) => json!({"role": "user", "parts": [{"text": text}]}),
            Turn::Model(m) => model_content(m, &shaped.names),
            Turn::Results(outputs) => results_content(outputs, &shaped.names),
        })
        .collect();
    let mut body = json!({"contents": contents, "tools": shaped.tools});
    if let Some(s) = &opts.system {
        body["systemInstruction"] = json!({"parts": [{"text": s}]});
    }
    body
}

fn model_content(turn: &ModelTurn, names: &NameMap) -> Value {
    let mut parts = Vec::new();
    match turn {
        ModelTurn::Answer { text } => parts.push(json!({"text": text})),
        ModelTurn::ToolCalls { text, calls } => {
            if let Some(t) = text {
                parts.push(json!({"text": t}));
            }
            for c in calls {
                let name = names.to_provider(&c.name).unwrap_or(&c.name);
                parts
                    .push(json!({"functionCall": {"id": c.id, "name": name, "args": c.arguments}}));
            }
        }
    }
    json!({"role": "model", "parts": parts})
}

pub(super) fn results_content(outputs: &[ToolOutput], names: &NameMap) -> Value {
    let parts: Vec<Value> = outputs
        .iter()
        .map(|o| {
            let name = names.to_provider(&o.call.name).unwrap_or(&o.call.name);
            let text = content::text(&o.result);
            let response = if content::is_error(&o.result) {
                json!({"error": text})
            } else {
                json!({"output": text})
            };
            json!({"functionResponse": {"id": o.call.id, "name": name, "response": response}})
        })
        .collect();
    json!({"role": "user", "parts": parts})
}

pub(super) fn parse_reply(reply: &Value, names: &NameMap) -> Result<ModelTurn, HostError> {
    if let Some(e) = HostError::from_error_body(reply) {
        return Err(e);
    }
    let parts = reply
        .get("candidates")
        .and_then(|c| c.get(0))
        .and_then(|c| c.get("content"))
        .and_then(|c| c.get("parts"))
        .and_then(Value::as_array)
        .ok_or_else(|| HostError::Shape {
            provider: LABEL,
            detail: "no candidates[0].content.parts".into(),
        })?;
    let mut text = Vec::new();
    let mut calls = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        if let Some(t) = p.get("text").and_then(Value::as_str) {
            text.push(t.to_owned());
        }
        if let Some(fc) = p.get("functionCall") {
            let name = fc
                .get("name")
                .and_then(Value::as_str)
                .ok_or_else(|| HostError::Shape {
                    provider: LABEL,
                    detail: format!("parts[{i}].functionCall has no name"),
                })?;
            let mcp = names
                .to_mcp(name)
                .ok_or_else(|| HostError::UnknownTool(name.to_owned()))?;
            let id = fc
                .get("id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("call_{i}"), str::to_owned);
            let arguments = match fc.get("args") {
                Some(Value::Object(o)) => o.clone(),
                None | Some(Value::Null) => serde_json::Map::new(),
                Some(other) => {
                    return Err(HostError::BadArguments {
                        call_id: id,
                        tool: name.to_owned(),
                        detail: "args is not an object".into(),
                        raw: other.to_string(),
                    });
                }
            };
            calls.push(ToolCall {
                id,
                name: mcp.to_owned(),
                arguments,
            });
        }
    }
    Ok(ModelTurn::from_parts(&text.join("\n"), calls))
}

pub(super) fn reply(opts: &RequestOptions, turn: &ModelTurn, names: &NameMap) -> Value {
    let _ = opts;
    json!({
        "candidates": [{"content": model_content(turn, names), "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 0, "candidatesTokenCount": 0, "totalTokenCount": 0},
        "modelVersion": opts.model
    })
}
