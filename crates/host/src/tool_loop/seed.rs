//! A loop seeded with a conversation instead of one user message: what a prompt
//! (`prompts/get`) returns is how hosts start a conversation, so the page's **Use in
//! the loop** starts the six steps from those messages.

use mcpg_core::model::{ContentBlock, PromptMessage, ResourceContents, Role};

use super::ToolLoop;
use crate::provider::{ModelTurn, Provider, RequestOptions, Turn};

/// Why a conversation cannot seed a loop.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// There are no messages at all.
    #[error("the conversation is empty: there is nothing to send the model")]
    Empty,
    /// Only user text and the model's words can come before the loop's first step.
    #[error("turn {0} is not a message (tool calls and results come from the loop itself)")]
    NotAMessage(usize),
}

impl ToolLoop {
    /// A loop whose conversation starts with `turns`: user messages
    /// ([`Turn::User`]) and the model's earlier words (`Turn::Model` with
    /// [`ModelTurn::Answer`]), in order, as a prompt returned them. Steps 1 and 2
    /// run as usual; step 2 also shows the seeded conversation in the provider's
    /// shape, and every model request carries it.
    pub fn from_turns(
        turns: Vec<Turn>,
        provider: Provider,
        opts: RequestOptions,
    ) -> Result<Self, SeedError> {
        if turns.is_empty() {
            return Err(SeedError::Empty);
        }
        if let Some(i) = turns
            .iter()
            .position(|t| !matches!(t, Turn::User(_) | Turn::Model(ModelTurn::Answer { .. })))
        {
            return Err(SeedError::NotAMessage(i));
        }
        let mut run = ToolLoop::new("", provider, opts);
        run.turns = turns;
        run.seeded = true;
        Ok(run)
    }

    /// Whether the loop started from a given conversation (a prompt) rather than one
    /// user message.
    pub fn is_seeded(&self) -> bool {
        self.seeded
    }
}

/// A prompt's messages (`prompts/get`) as the neutral conversation: user messages
/// become [`Turn::User`], assistant messages the model's earlier words. Content that
/// is not text is described in words (the neutral conversation carries text), so the
/// model is told an image or a resource was there.
pub fn prompt_turns(messages: &[PromptMessage]) -> Vec<Turn> {
    messages
        .iter()
        .map(|m| {
            let text = content_text(&m.content);
            match m.role {
                Role::Assistant => Turn::Model(ModelTurn::Answer { text }),
                _ => Turn::User(text),
            }
        })
        .collect()
}

/// One content block as text for the conversation.
fn content_text(block: &ContentBlock) -> String {
    match block {
        ContentBlock::Text(t) => t.text.clone(),
        ContentBlock::Image(i) => format!("[an image, {}]", i.mime_type),
        ContentBlock::Audio(a) => format!("[audio, {}]", a.mime_type),
        ContentBlock::ResourceLink(l) => format!("[a link to the resource {}]", l.uri),
        ContentBlock::Resource(e) => match &e.resource {
            ResourceContents::Text(t) => format!("[the resource {}]\n{}", t.uri, t.text),
            ResourceContents::Blob(b) => format!("[the resource {}, binary]", b.uri),
            ResourceContents::Unknown(v) => v.to_string(),
        },
        ContentBlock::Unknown(v) => v.to_string(),
    }
}
