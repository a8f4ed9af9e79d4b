//! The neutral conversation that every provider format renders from.

use mcpg_core::model::{CallToolResult, JsonObject};

/// One tool call the model asked for, with the MCP tool name.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// The provider's call id (generated where the provider has none, e.g. Ollama).
    pub id: String,
    /// The MCP tool name (already mapped back from the provider's name).
    pub name: String,
    /// Arguments, as `tools/call` will send them.
    pub arguments: JsonObject,
}

/// What the model said in one turn.
#[derive(Clone, Debug, PartialEq)]
pub enum ModelTurn {
    /// It wants tools run (several at once where the provider allows).
    ToolCalls {
        /// Any text it said along with the calls.
        text: Option<String>,
        /// The calls, in the provider's order.
        calls: Vec<ToolCall>,
    },
    /// It answered; the loop ends.
    Answer {
        /// The answer.
        text: String,
    },
}

impl ModelTurn {
    /// The turn a reply makes: calls (with any text said alongside), or an answer.
    pub fn from_parts(text: &str, calls: Vec<ToolCall>) -> ModelTurn {
        if calls.is_empty() {
            ModelTurn::Answer {
                text: text.to_owned(),
            }
        } else {
            ModelTurn::ToolCalls {
                text: Some(text.to_owned()).filter(|t| !t.is_empty()),
                calls,
            }
        }
    }
}

/// How a call ended, as the host reports it to the model.
// One value per tool call, built once and kept in the conversation: boxing the big
// variant would cost an allocation and readability for no measurable gain.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum ResultView {
    /// The server returned a `CallToolResult` (check `is_error`: a tool failure the model should see).
    Result(CallToolResult),
    /// The server answered with a JSON-RPC error; the host still owes the model an answer.
    ProtocolError {
        /// JSON-RPC error code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No answer at all (timeout, transport failure, cancelled).
    Failed(String),
}

/// One call and its outcome.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolOutput {
    /// The call.
    pub call: ToolCall,
    /// Its outcome.
    pub result: ResultView,
}

/// One turn of the conversation, independent of any provider.
#[derive(Clone, Debug, PartialEq)]
pub enum Turn {
    /// The user's message.
    User(String),
    /// The model's turn.
    Model(ModelTurn),
    /// The host's tool results, in call order.
    Results(Vec<ToolOutput>),
}

impl Turn {
    /// The turn as words, for a seed (what `ToolLoop::from_turns` takes): the user's
    /// message (`true`) or the model's answer (`false`), with its text; `None` for
    /// tool calls and results.
    pub fn words(&self) -> Option<(bool, &str)> {
        match self {
            Turn::User(text) => Some((true, text)),
            Turn::Model(ModelTurn::Answer { text }) => Some((false, text)),
            Turn::Model(ModelTurn::ToolCalls { .. }) | Turn::Results(_) => None,
        }
    }
}
