//! What a model API answers when the request's tool names break its rules: the
//! HTTP 400 each provider really sends, in its own error shape. The mock model
//! stands behind no API, so for a naive host that sends MCP names unchanged the
//! host builds this answer itself, and the learner sees what a real API would say.

use mcpg_core::model::Tool;
use serde_json::{Value, json};

use super::{Provider, name_rules};

/// A request the provider refuses before any model reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Rejection {
    /// The HTTP status (400).
    pub status: u16,
    /// The error body, in the provider's shape.
    pub body: Value,
    /// The first tool name the provider refuses (an MCP name).
    pub name: String,
    /// Its index in the request's tool list.
    pub index: usize,
}

/// The provider's answer to a request whose tools carry these names unchanged, when
/// one breaks its naming rules; `None` when it would accept them all. Ollama checks
/// no names, so it never refuses (a model behind it may still stumble on them).
pub fn refused_names(provider: Provider, tools: &[Tool]) -> Option<Rejection> {
    if provider == Provider::Ollama {
        return None;
    }
    let rules = name_rules(provider);
    let (index, tool) = tools
        .iter()
        .enumerate()
        .find(|(_, t)| !rules.accepts(&t.name))?;
    let pattern = rules.pattern();
    // Each provider's real wording and shape for this refusal.
    let body = match provider {
        Provider::Anthropic => json!({
            "type": "error",
            "error": {
                "type": "invalid_request_error",
                "message": format!("tools.{index}.custom.name: String should match pattern '{pattern}'")
            }
        }),
        Provider::OpenAiChat | Provider::OpenAiResponses => {
            let param = if provider == Provider::OpenAiChat {
                format!("tools[{index}].function.name")
            } else {
                format!("tools[{index}].name")
            };
            json!({
                "error": {
                    "message": format!("Invalid '{param}': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'."),
                    "type": "invalid_request_error",
                    "param": param,
                    "code": "invalid_value"
                }
            })
        }
        // (Ollama returned above.)
        Provider::Gemini | Provider::Ollama => json!({
            "error": {
                "code": 400,
                "message": format!("* GenerateContentRequest.tools[0].function_declarations[{index}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of {}.\n", rules.max_len),
                "status": "INVALID_ARGUMENT"
            }
        }),
    };
    Some(Rejection {
        status: 400,
        body,
        name: tool.name.clone(),
        index,
    })
}
