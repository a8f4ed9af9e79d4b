//! Sampling through a real model: the ask as the provider's request body (through
//! the same provider formats as the tool loop), and the provider's reply as the
//! `CreateMessageResult`. The page or the CLI does the HTTP and adds the key
//! (`provider::key_header`): no value built here ever holds it.

use mcpg_core::model::CallToolResult;
use serde_json::{Value, json};

use super::{Sampled, SamplingAsk};
use crate::provider::{
    self, HostError, ModelTurn, NameMap, Provider, RequestOptions, ResultView, ToolCall,
    ToolOutput, Turn,
};

/// Why a provider's reply cannot be the sampled message.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SampleError {
    /// The reply is not the provider's shape, or is its error body.
    #[error(transparent)]
    Reply(#[from] HostError),
}

/// The provider's exact request body for `ask`, sent to `model`: the messages
/// (tool uses and results included), system prompt, token budget, temperature,
/// stop sequences, and the tools with the tool choice when the ask offers tools.
pub fn sampling_request(provider: Provider, ask: &SamplingAsk, model: &str) -> Value {
    let opts = RequestOptions {
        model: model.to_owned(),
        system: ask.system_prompt.clone(),
        strict: false,
        max_tokens: u32::try_from(ask.max_tokens).unwrap_or(u32::MAX),
    };
    let shaped = provider::shape_tools(provider, &ask.tools, false);
    let mut body = provider::build_request(provider, &opts, &turns(ask), &shaped);
    let Some(o) = body.as_object_mut() else {
        return body;
    };
    if ask.tools.is_empty() {
        // An empty tool list is an error for some providers; no tools means none.
        o.remove("tools");
    }
    let mode = ask
        .tool_choice
        .as_ref()
        .and_then(|c| c.get("mode"))
        .and_then(Value::as_str)
        .filter(|_| !ask.tools.is_empty());
    let temp = ask.temperature;
    let stops = (!ask.stop_sequences.is_empty()).then(|| json!(ask.stop_sequences));
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            o.insert(k.to_owned(), v);
        }
    };
    match provider {
        Provider::Anthropic => {
            put("temperature", temp.map(Value::from));
            put("stop_sequences", stops);
            let kind = |m: &str| if m == "required" { "any" } else { m }.to_owned();
            put("tool_choice", mode.map(|m| json!({"type": kind(m)})));
        }
        Provider::OpenAiChat => {
            put("max_completion_tokens", Some(Value::from(opts.max_tokens)));
            put("temperature", temp.map(Value::from));
            put("stop", stops);
            put("tool_choice", mode.map(Value::from));
        }
        Provider::OpenAiResponses => {
            put("max_output_tokens", Some(Value::from(opts.max_tokens)));
            put("temperature", temp.map(Value::from));
            put("tool_choice", mode.map(Value::from));
        }
        Provider::Gemini => {
            let cfg = json!({"maxOutputTokens": opts.max_tokens});
            let cfg = tuned(cfg, temp, ("stopSequences", stops));
            put("generationConfig", Some(cfg));
            let gmode = |m: &str| {
                if m == "required" {
                    "ANY".to_owned()
                } else {
                    m.to_ascii_uppercase()
                }
            };
            put(
                "toolConfig",
                mode.map(|m| json!({"functionCallingConfig": {"mode": gmode(m)}})),
            );
        }
        Provider::Ollama => {
            let options = json!({"num_predict": opts.max_tokens});
            put("options", Some(tuned(options, temp, ("stop", stops))));
        }
    }
    body
}

/// A generation-settings object with the temperature and the stop sequences
/// (under the provider's name for them) added when the ask has them.
fn tuned(mut cfg: Value, temp: Option<f64>, (stop_key, stops): (&str, Option<Value>)) -> Value {
    if let Some(t) = temp {
        cfg["temperature"] = Value::from(t);
    }
    if let Some(s) = stops {
        cfg[stop_key] = s;
    }
    cfg
}

/// The sampling messages as the neutral conversation the provider formats render.
fn turns(ask: &SamplingAsk) -> Vec<Turn> {
    let mut calls: Vec<ToolCall> = Vec::new();
    let mut out = Vec::new();
    for m in &ask.messages {
        let text = m.text();
        let of = |kind: &str| {
            m.content
                .iter()
                .filter(move |b| b.get("type").and_then(Value::as_str) == Some(kind))
                .cloned()
                .collect::<Vec<_>>()
        };
        if m.role == "assistant" {
            let uses: Vec<ToolCall> = of("tool_use").iter().map(tool_call).collect();
            calls.extend(uses.iter().cloned());
            out.push(Turn::Model(ModelTurn::from_parts(&text, uses)));
            continue;
        }
        let results: Vec<ToolOutput> = of("tool_result")
            .iter()
            .map(|r| tool_output(r, &calls))
            .collect();
        if !results.is_empty() {
            out.push(Turn::Results(results));
        }
        if !text.is_empty() || m.content.is_empty() {
            out.push(Turn::User(text));
        }
    }
    out
}

fn tool_call(block: &Value) -> ToolCall {
    let s = |k: &str| {
        block
            .get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned()
    };
    ToolCall {
        id: s("id"),
        name: s("name"),
        arguments: block
            .get("input")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default(),
    }
}

fn tool_output(block: &Value, calls: &[ToolCall]) -> ToolOutput {
    let id = block
        .get("toolUseId")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let call = calls
        .iter()
        .find(|c| c.id == id)
        .cloned()
        .unwrap_or_else(|| ToolCall {
            id: id.to_owned(),
            name: String::new(),
            arguments: Default::default(),
        });
    let mut result = json!({"content": block.get("content").cloned().unwrap_or(json!([]))});
    if let Some(e) = block.get("isError") {
        result["isError"] = e.clone();
    }
    let result = match CallToolResult::from_value(result) {
        Ok(r) => ResultView::Result(r),
        Err(e) => ResultView::Failed(e.to_string()),
    };
    ToolOutput { call, result }
}

/// The provider's reply (its response body) as the sampled message: text, or the
/// tool uses it asked for (`stopReason` `toolUse`), with the model the reply names.
pub fn sampled_from_reply(
    provider: Provider,
    ask: &SamplingAsk,
    reply: &Value,
) -> Result<Sampled, SampleError> {
    let names = NameMap::build(
        ask.tools.iter().map(|t| t.name.as_str()),
        crate::provider::name_rules(provider),
    );
    let turn = provider::parse_reply(provider, reply, &names)?;
    let (content, stop) = match turn {
        ModelTurn::Answer { text } => (json!({"type": "text", "text": text}), "endTurn"),
        ModelTurn::ToolCalls { text, calls } => {
            let mut blocks: Vec<Value> = text
                .map(|t| json!({"type": "text", "text": t}))
                .into_iter()
                .collect();
            blocks.extend(calls.into_iter().map(
                |c| json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.arguments}),
            ));
            let content = match <[Value; 1]>::try_from(blocks) {
                Ok([one]) => one,
                Err(many) => Value::Array(many),
            };
            (content, "toolUse")
        }
    };
    let stop = if hit_token_limit(reply) {
        "maxTokens"
    } else {
        stop
    };
    let model = ["model", "modelVersion"]
        .iter()
        .find_map(|k| reply.get(*k).and_then(Value::as_str))
        .unwrap_or(provider.id());
    Ok(Sampled {
        role: "assistant".into(),
        content,
        model: model.to_owned(),
        stop_reason: Some(stop.into()),
    })
}

/// Whether the reply says it stopped at the token budget, in any provider's words.
fn hit_token_limit(reply: &Value) -> bool {
    let at = |p: &str| reply.pointer(p).and_then(Value::as_str);
    at("/stop_reason") == Some("max_tokens")
        || at("/choices/0/finish_reason") == Some("length")
        || at("/candidates/0/finishReason") == Some("MAX_TOKENS")
        || at("/done_reason") == Some("length")
        || at("/incomplete_details/reason") == Some("max_output_tokens")
}
