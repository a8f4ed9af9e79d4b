//! Provider formats: how a host reshapes MCP tools for a model's function-calling
//! API (step 2), reads the model's tool calls back (step 3), and hands tool results
//! back (step 6). Pure functions over JSON, the same natively and in the browser;
//! the page and the CLI do the HTTP.
//!
//! One neutral conversation ([`Turn`]) renders into every provider's request shape,
//! so the learner can switch provider on the same tools and conversation.

mod anthropic;
mod content;
mod endpoint;
mod error;
mod gemini;
mod names;
mod ollama;
mod openai_chat;
mod openai_responses;
mod rejection;
mod schema;

pub(crate) use content::structured_unmirrored;
pub use endpoint::{
    Endpoint, default_base, default_model, endpoint, key_header, mask_key, needs_key, shown_request,
};
pub use error::HostError;
pub use mcpg_loop_data::{ModelTurn, Provider, ResultView, ToolCall, ToolOutput, Turn};
pub use names::{NameChange, NameMap, NameRules};
pub use rejection::{Rejection, refused_names};
pub(crate) use schema::{GEMINI_KEYWORDS, GEMINI_STRING_FORMATS, STRICT_UNSUPPORTED};
pub use schema::{SchemaChange, adapt_schema};

use mcpg_core::model::Tool;
use serde_json::Value;

/// The tool-name rules of `provider`.
pub fn name_rules(provider: Provider) -> NameRules {
    match provider {
        Provider::Gemini => NameRules::GEMINI,
        _ => NameRules::OPENAI_ANTHROPIC,
    }
}

/// Options for building a request.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestOptions {
    /// Model name (`claude-…`, `gpt-…`, `gemini-…`, `llama3.2`…).
    pub model: String,
    /// System prompt (e.g. the server's instructions).
    pub system: Option<String>,
    /// OpenAI strict mode for function schemas.
    pub strict: bool,
    /// Token budget where the provider requires one (Anthropic).
    pub max_tokens: u32,
}

impl Default for RequestOptions {
    fn default() -> Self {
        RequestOptions {
            model: String::new(),
            system: None,
            strict: false,
            max_tokens: 1024,
        }
    }
}

/// Step 2, made visible: the MCP tools in the provider's shape, with every rewrite.
#[derive(Clone, Debug, PartialEq)]
pub struct ShapedTools {
    /// The provider's `tools` value, exactly as it goes into the request.
    pub tools: Value,
    /// MCP name ↔ provider name, with the reason for every rewrite.
    pub names: NameMap,
    /// Every schema change made for this provider.
    pub schema_changes: Vec<SchemaChange>,
}

/// Reshapes MCP tools for `provider`.
pub fn shape_tools(provider: Provider, tools: &[Tool], strict: bool) -> ShapedTools {
    let names = NameMap::build(tools.iter().map(|t| t.name.as_str()), name_rules(provider));
    shape_with(provider, tools, strict, names)
}

/// Reshapes MCP tools for `provider` as a naive host does: every name sent as it is,
/// even one the provider's rules refuse (see [`refused_names`]).
pub fn shape_tools_unrenamed(provider: Provider, tools: &[Tool], strict: bool) -> ShapedTools {
    let names = NameMap::unchanged(tools.iter().map(|t| t.name.as_str()));
    shape_with(provider, tools, strict, names)
}

fn shape_with(provider: Provider, tools: &[Tool], strict: bool, names: NameMap) -> ShapedTools {
    let mut schema_changes = Vec::new();
    let mut shaped = Vec::with_capacity(tools.len());
    for t in tools {
        let name = names.to_provider(&t.name).unwrap_or(&t.name).to_owned();
        let (schema, changes) = adapt_schema(&t.input_schema, provider, strict);
        schema_changes.extend(changes.into_iter().map(|mut c| {
            c.tool = t.name.clone();
            c
        }));
        let description = t.description.clone().unwrap_or_default();
        shaped.push(match provider {
            Provider::Anthropic => anthropic::tool(&name, &description, schema),
            Provider::OpenAiChat => openai_chat::tool(&name, &description, schema, strict),
            Provider::OpenAiResponses => {
                openai_responses::tool(&name, &description, schema, strict)
            }
            Provider::Gemini => gemini::declaration(&name, &description, schema),
            Provider::Ollama => ollama::tool(&name, &description, schema),
        });
    }
    let tools = match provider {
        Provider::Gemini => gemini::wrap_declarations(shaped),
        _ => Value::Array(shaped),
    };
    ShapedTools {
        tools,
        names,
        schema_changes,
    }
}

/// The whole request body for the provider: model, system prompt, conversation, tools.
pub fn build_request(
    provider: Provider,
    opts: &RequestOptions,
    turns: &[Turn],
    shaped: &ShapedTools,
) -> Value {
    match provider {
        Provider::Anthropic => anthropic::request(opts, turns, shaped),
        Provider::OpenAiChat => openai_chat::request(opts, turns, shaped),
        Provider::OpenAiResponses => openai_responses::request(opts, turns, shaped),
        Provider::Gemini => gemini::request(opts, turns, shaped),
        Provider::Ollama => ollama::request(opts, turns, shaped),
    }
}

/// Step 3: reads the model's reply (the provider's response body) into a neutral turn,
/// mapping tool names back to MCP names. Malformed replies are [`HostError`]s.
pub fn parse_reply(
    provider: Provider,
    reply: &Value,
    names: &NameMap,
) -> Result<ModelTurn, HostError> {
    match provider {
        Provider::Anthropic => anthropic::parse_reply(reply, names),
        Provider::OpenAiChat => openai_chat::parse_reply(reply, names),
        Provider::OpenAiResponses => openai_responses::parse_reply(reply, names),
        Provider::Gemini => gemini::parse_reply(reply, names),
        Provider::Ollama => ollama::parse_reply(reply, names),
    }
}

/// The reply a provider would send for `turn`: how the mock model answers in each
/// provider's exact shape, so the learner sees real shapes without a key.
pub fn reply_for(
    provider: Provider,
    opts: &RequestOptions,
    turn: &ModelTurn,
    names: &NameMap,
) -> Value {
    match provider {
        Provider::Anthropic => anthropic::reply(opts, turn, names),
        Provider::OpenAiChat => openai_chat::reply(opts, turn, names),
        Provider::OpenAiResponses => openai_responses::reply(opts, turn, names),
        Provider::Gemini => gemini::reply(opts, turn, names),
        Provider::Ollama => ollama::reply(opts, turn, names),
    }
}

/// Where the host finds the model's calls in this provider's reply (step 3's "how the
/// host reads it").
pub fn where_calls(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "the content[] blocks of type tool_use (input is already an object)",
        Provider::OpenAiChat => {
            "choices[0].message.tool_calls[] (function.arguments is a JSON string the host must parse)"
        }
        Provider::OpenAiResponses => {
            "the output[] items of type function_call (arguments is a JSON string the host must parse)"
        }
        Provider::Gemini => "candidates[0].content.parts[].functionCall (args is an object)",
        Provider::Ollama => "message.tool_calls[] (function.arguments is an object; no call ids)",
    }
}

/// Step 6: the exact message(s) the host appends to the conversation for these results.
pub fn result_messages(provider: Provider, outputs: &[ToolOutput], names: &NameMap) -> Vec<Value> {
    match provider {
        Provider::Anthropic => vec![anthropic::results_message(outputs)],
        Provider::OpenAiChat => openai_chat::results_messages(outputs),
        Provider::OpenAiResponses => openai_responses::results_items(outputs),
        Provider::Gemini => vec![gemini::results_content(outputs, names)],
        Provider::Ollama => ollama::results_messages(outputs, names),
    }
}
