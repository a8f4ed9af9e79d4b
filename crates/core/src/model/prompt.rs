//! Prompts: `Prompt` as `prompts/list` returns it, and `GetPromptResult` with its
//! messages as `prompts/get` returns them.

use serde_json::Value;

use super::json::{Members, Out, array, via_json};
use super::{ContentBlock, JsonObject, ModelError};

/// `PromptArgument`: one argument a prompt takes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PromptArgument {
    /// Its name.
    pub name: String,
    /// Display name (2025-06-18+).
    pub title: Option<String>,
    /// What it is for.
    pub description: Option<String>,
    /// Whether it must be given.
    pub required: Option<bool>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `Prompt`: a prompt or prompt template the server offers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Prompt {
    /// Programmatic name.
    pub name: String,
    /// Display name (2025-06-18+).
    pub title: Option<String>,
    /// What it provides.
    pub description: Option<String>,
    /// Its arguments, when it takes any.
    pub arguments: Option<Vec<PromptArgument>>,
    /// Icons (2025-11-25+), kept as JSON.
    pub icons: Option<Value>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `Role`: who a message is from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// `"user"`.
    User,
    /// `"assistant"`.
    Assistant,
    /// Any other string, kept as sent (the schema allows only the two above).
    Other(String),
}

/// `PromptMessage`: one message of a prompt.
#[derive(Clone, Debug, PartialEq)]
pub struct PromptMessage {
    /// Who it is from.
    pub role: Role,
    /// What it says (odd blocks kept as [`ContentBlock::Unknown`]).
    pub content: ContentBlock,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `GetPromptResult`: a prompt, filled in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GetPromptResult {
    /// A description of the prompt.
    pub description: Option<String>,
    /// The messages.
    pub messages: Vec<PromptMessage>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members (`resultType`…).
    pub extra: JsonObject,
}

impl Role {
    /// The wire string.
    pub fn as_str(&self) -> &str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Other(s) => s,
        }
    }

    /// Reads a role; strings other than the two known ones are kept as [`Role::Other`].
    pub fn parse(s: &str) -> Self {
        match s {
            "user" => Role::User,
            "assistant" => Role::Assistant,
            other => Role::Other(other.to_owned()),
        }
    }
}

impl PromptArgument {
    /// Reads an argument from JSON.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(PromptArgument {
            name: m.req_string("name")?,
            title: m.string("title")?,
            description: m.string("description")?,
            required: m.boolean("required")?,
            extra: m.rest(),
        })
    }

    /// The argument as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("name", &self.name)
            .string("title", &self.title)
            .string("description", &self.description)
            .opt("required", self.required.map(Value::from))
            .with(&self.extra)
    }
}

impl Prompt {
    /// The name to show a person: `title`, then `name`.
    pub fn display_name(&self) -> &str {
        self.title.as_deref().unwrap_or(&self.name)
    }

    /// Reads a prompt from JSON (every argument must be readable).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let name = m.req_string("name")?;
        let title = m.string("title")?;
        let description = m.string("description")?;
        let arguments = m
            .opt("arguments", array, "an array")?
            .map(|a| {
                a.into_iter()
                    .enumerate()
                    .map(|(i, a)| {
                        PromptArgument::from_value(a)
                            .map_err(|e| e.within(format!("arguments[{i}]")))
                    })
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        Ok(Prompt {
            name,
            title,
            description,
            arguments,
            icons: m.value("icons"),
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The prompt as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("name", &self.name)
            .string("title", &self.title)
            .string("description", &self.description)
            .opt(
                "arguments",
                self.arguments
                    .as_ref()
                    .map(|a| Value::Array(a.iter().map(PromptArgument::to_json).collect())),
            )
            .opt("icons", self.icons.clone())
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl PromptMessage {
    /// Reads a message: `role` must be a string and `content` present; the content
    /// itself is read leniently.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let role = Role::parse(&m.req_string("role")?);
        // Any JSON is a content block (odd ones `Unknown`), `null` too.
        let content = m
            .raw("content")
            .ok_or_else(|| ModelError::missing("content"))?;
        Ok(PromptMessage {
            role,
            content: ContentBlock::from_value(content),
            extra: m.rest(),
        })
    }

    /// The message as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("role", self.role.as_str())
            .put("content", self.content.to_json())
            .with(&self.extra)
    }
}

impl GetPromptResult {
    /// Reads a `prompts/get` result (every message must be readable; the client's
    /// reader is more lenient and skips odd ones with a diagnostic).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let description = m.string("description")?;
        let messages = m.opt("messages", array, "an array")?.unwrap_or_default();
        Ok(GetPromptResult {
            description,
            messages: messages
                .into_iter()
                .enumerate()
                .map(|(i, x)| {
                    PromptMessage::from_value(x).map_err(|e| e.within(format!("messages[{i}]")))
                })
                .collect::<Result<_, _>>()?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .string("description", &self.description)
            .put(
                "messages",
                Value::Array(self.messages.iter().map(PromptMessage::to_json).collect()),
            )
            .meta(&self.meta)
            .with(&self.extra)
    }
}

via_json!(PromptArgument, Prompt, PromptMessage, GetPromptResult);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_prompt_round_trips_and_names_a_bad_argument() {
        let raw = json!({"name": "greet", "arguments": [
            {"name": "who", "required": true, "x": 1}
        ], "future": [1]});
        let p = Prompt::from_json(&raw).unwrap();
        assert_eq!(p.arguments.as_ref().unwrap()[0].required, Some(true));
        assert_eq!(p.to_json(), raw);
        let e = Prompt::from_json(&json!({"name": "g", "arguments": [{}]})).unwrap_err();
        assert_eq!(e.to_string(), "arguments[0]: missing field `name`");
    }

    #[test]
    fn messages_keep_odd_roles_and_blocks() {
        let raw = json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "hi"}},
            {"role": "system", "content": {"type": "hologram"}}
        ]});
        let r = GetPromptResult::from_json(&raw).unwrap();
        assert_eq!(r.messages[1].role, Role::Other("system".into()));
        assert!(matches!(r.messages[1].content, ContentBlock::Unknown(_)));
        assert_eq!(r.to_json(), raw);
        assert!(GetPromptResult::from_json(&json!({"messages": [{"role": "user"}]})).is_err());
    }
}
