//! The host's answer to an ask, as the exact JSON-RPC result the spec names.

use mcpg_core::jsonrpc::RpcError;
use mcpg_core::model::JsonObject;
use serde_json::{Value, json};

use crate::Root;

/// The code and message the spec gives for a sampling request the user rejected.
pub const SAMPLING_REJECTED: (i64, &str) = (-1, "User rejected sampling request");

/// The host's answer to a server's question (`mcpg_host::asks::Ask`).
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// A sampled message (`CreateMessageResult`).
    Sampled(Sampled),
    /// The user rejected the sampling request (or its reply): the spec's error.
    SamplingRejected,
    /// The user's answer to an elicitation (`ElicitResult`).
    Elicited(ElicitAction),
    /// The roots the server may see (`ListRootsResult`).
    Roots(Vec<Root>),
}

/// `ElicitResult.action`, with the content when accepted.
#[derive(Clone, Debug, PartialEq)]
pub enum ElicitAction {
    /// Submitted: the form's content (empty for a URL elicitation, which sends none).
    Accept(JsonObject),
    /// Explicitly declined.
    Decline,
    /// Dismissed without a choice.
    Cancel,
}

impl Reply {
    /// The exact result to send (through `Client::answer`, or as one entry of
    /// `inputResponses`), or the error the spec names for a rejected sampling
    /// request (code -1).
    pub fn to_result(&self) -> Result<Value, RpcError> {
        match self {
            Reply::Sampled(s) => Ok(s.to_json()),
            Reply::SamplingRejected => Err(RpcError::new(SAMPLING_REJECTED.0, SAMPLING_REJECTED.1)),
            Reply::Elicited(ElicitAction::Accept(content)) if content.is_empty() => {
                // A URL elicitation is accepted without content; an empty form sends `{}`
                // only when it had fields, which the caller decides by passing them.
                Ok(json!({"action": "accept"}))
            }
            Reply::Elicited(ElicitAction::Accept(content)) => {
                Ok(json!({"action": "accept", "content": content}))
            }
            Reply::Elicited(ElicitAction::Decline) => Ok(json!({"action": "decline"})),
            Reply::Elicited(ElicitAction::Cancel) => Ok(json!({"action": "cancel"})),
            Reply::Roots(roots) => {
                Ok(json!({"roots": roots.iter().map(Root::to_json).collect::<Vec<_>>()}))
            }
        }
    }
}

/// The sampled message the host sends back (`CreateMessageResult`).
#[derive(Clone, Debug, PartialEq)]
pub struct Sampled {
    /// Always `"assistant"` for what a model wrote.
    pub role: String,
    /// One content block (a list of blocks when a model asked for several tools).
    pub content: Value,
    /// The model that wrote it.
    pub model: String,
    /// `stopReason` (`endTurn`, `maxTokens`, `stopSequence`, `toolUse`…).
    pub stop_reason: Option<String>,
}

impl Sampled {
    /// A text answer from `model`.
    pub fn text(text: impl Into<String>, model: impl Into<String>) -> Sampled {
        Sampled {
            role: "assistant".into(),
            content: json!({"type": "text", "text": text.into()}),
            model: model.into(),
            stop_reason: Some("endTurn".into()),
        }
    }

    /// The `CreateMessageResult` JSON.
    pub fn to_json(&self) -> Value {
        let mut r = json!({"role": self.role, "content": self.content, "model": self.model});
        if let Some(s) = &self.stop_reason {
            r["stopReason"] = Value::from(s.as_str());
        }
        r
    }
}
