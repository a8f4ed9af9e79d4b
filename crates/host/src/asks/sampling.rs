//! `sampling/createMessage`: the request read (`CreateMessageRequestParams`), the
//! answer (`CreateMessageResult`), and the deterministic mock that answers without
//! any model.

use mcpg_core::model::Tool;
use mcpg_loop_data::Sampled;
use serde_json::Value;

use super::{AskError, opt_str, params_object};

/// The model name the mock answers with, so a server (and the learner) can tell.
pub const MOCK_MODEL: &str = "mcpg-mock";

/// The model name on a reply whose text a person gave (`--on-sample TEXT`, or typed
/// in the page): no model wrote it, and the server should not be told one did.
pub const TYPED_MODEL: &str = "mcpg-typed";

/// One `SamplingMessage`: who speaks and what, as content blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingMessage {
    /// `"user"` or `"assistant"` (other strings kept as sent).
    pub role: String,
    /// The content blocks (a single block as sent becomes a list of one; from
    /// 2025-11-25 a list may mix text with `tool_use` / `tool_result`).
    pub content: Vec<Value>,
}

impl SamplingMessage {
    /// The text of its `text` blocks, joined by newlines.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// What a `sampling/createMessage` asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct SamplingAsk {
    /// The conversation to continue.
    pub messages: Vec<SamplingMessage>,
    /// `systemPrompt`, which the host may change or leave out.
    pub system_prompt: Option<String>,
    /// `modelPreferences` (hints and priorities), as sent.
    pub model_preferences: Option<Value>,
    /// `maxTokens`.
    pub max_tokens: u64,
    /// `temperature`.
    pub temperature: Option<f64>,
    /// `stopSequences`.
    pub stop_sequences: Vec<String>,
    /// `includeContext` (`none`, `thisServer`, `allServers`).
    pub include_context: Option<String>,
    /// `tools` the model may call (2025-11-25 and later).
    pub tools: Vec<Tool>,
    /// `toolChoice` (`{"mode": "auto" | "required" | "none"}`), as sent.
    pub tool_choice: Option<Value>,
    /// The params exactly as sent, for display.
    pub raw: Value,
}

impl SamplingAsk {
    /// The text of the last `user` message (empty when there is none).
    pub fn last_user_text(&self) -> String {
        self.messages
            .iter()
            .rev()
            .find(|m| m.role == "user")
            .map(SamplingMessage::text)
            .unwrap_or_default()
    }
}

/// The mock's answer: deterministic (the same ask gets the same answer), derived
/// from the last user message, and saying plainly that no model wrote it.
pub fn mock_sample(ask: &SamplingAsk) -> Sampled {
    let asked = ask.last_user_text();
    let asked = asked.trim();
    let text = if asked.is_empty() {
        "This is the playground's mock model (no LLM was called). The request had no user text to answer.".to_owned()
    } else {
        format!(
            "This is the playground's mock model (no LLM was called). You asked: \u{201c}{asked}\u{201d}"
        )
    };
    // A token is roughly a word; the mock never writes past the budget it was given.
    let words: Vec<&str> = text.split(' ').collect();
    let budget = usize::try_from(ask.max_tokens).unwrap_or(usize::MAX).max(1);
    let (text, stop) = if words.len() > budget {
        (words[..budget].join(" "), "maxTokens")
    } else {
        (text, "endTurn")
    };
    Sampled {
        stop_reason: Some(stop.into()),
        ..Sampled::text(text, MOCK_MODEL)
    }
}

pub(super) fn parse(params: Option<&Value>) -> Result<SamplingAsk, AskError> {
    let o = params_object(params)?;
    let messages = match o.get("messages") {
        Some(Value::Array(ms)) => ms
            .iter()
            .enumerate()
            .map(|(i, m)| message(i, m))
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(invalid("params.messages", "an array of messages")),
        None => return Err(AskError::Missing("params.messages".into())),
    };
    let max_tokens = match o.get("maxTokens") {
        Some(v) => v
            .as_u64()
            .ok_or_else(|| invalid("params.maxTokens", "a whole number of tokens"))?,
        None => return Err(AskError::Missing("params.maxTokens".into())),
    };
    let temperature = match o.get("temperature") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_f64()
                .ok_or_else(|| invalid("params.temperature", "a number"))?,
        ),
    };
    let stop_sequences = match o.get("stopSequences") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|s| s.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| invalid("params.stopSequences", "an array of strings"))?,
        Some(_) => return Err(invalid("params.stopSequences", "an array of strings")),
    };
    let tools = match o.get("tools") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, t)| {
                Tool::from_value(t.clone())
                    .map_err(|_| invalid(&format!("params.tools[{i}]"), "a tool"))
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => return Err(invalid("params.tools", "an array of tools")),
    };
    Ok(SamplingAsk {
        messages,
        system_prompt: opt_str(o, "systemPrompt")?,
        model_preferences: o.get("modelPreferences").filter(|v| !v.is_null()).cloned(),
        max_tokens,
        temperature,
        stop_sequences,
        include_context: opt_str(o, "includeContext")?,
        tools,
        tool_choice: o.get("toolChoice").filter(|v| !v.is_null()).cloned(),
        raw: Value::Object(o.clone()),
    })
}

fn message(i: usize, m: &Value) -> Result<SamplingMessage, AskError> {
    let at = |k: &str| format!("params.messages[{i}].{k}");
    let role = match m.get("role") {
        Some(Value::String(r)) => r.clone(),
        Some(_) => return Err(invalid(&at("role"), "a string")),
        None => return Err(AskError::Missing(at("role"))),
    };
    let content = match m.get("content") {
        Some(Value::Array(blocks)) => blocks.clone(),
        Some(b @ Value::Object(_)) => vec![b.clone()],
        Some(_) => return Err(invalid(&at("content"), "a content block or a list of them")),
        None => return Err(AskError::Missing(at("content"))),
    };
    Ok(SamplingMessage { role, content })
}

fn invalid(field: &str, expected: &'static str) -> AskError {
    AskError::Invalid {
        field: field.to_owned(),
        expected,
    }
}
