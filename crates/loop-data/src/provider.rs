//! The LLM APIs whose tool formats the host speaks, by name (their formats are
//! `mcpg_host::provider`'s).

/// An LLM API whose tool format the host can speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Provider {
    /// Anthropic Messages API (`/v1/messages`).
    Anthropic,
    /// OpenAI Chat Completions (`/v1/chat/completions`); also OpenAI-compatible servers.
    OpenAiChat,
    /// OpenAI Responses (`/v1/responses`).
    OpenAiResponses,
    /// Google Gemini (`generateContent`).
    Gemini,
    /// Ollama's native `/api/chat`.
    Ollama,
}

impl Provider {
    /// Every provider, in the order the page lists them.
    pub const ALL: [Provider; 5] = [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
        Provider::Ollama,
    ];

    /// A stable identifier (`anthropic`, `openai-chat`…), used in links and settings.
    pub fn id(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Gemini => "gemini",
            Provider::Ollama => "ollama",
        }
    }

    /// Parses [`Provider::id`].
    pub fn from_id(id: &str) -> Option<Provider> {
        Provider::ALL.into_iter().find(|p| p.id() == id)
    }

    /// A name for people.
    pub fn label(self) -> &'static str {
        match self {
            Provider::Anthropic => "Anthropic Messages",
            Provider::OpenAiChat => "OpenAI Chat Completions",
            Provider::OpenAiResponses => "OpenAI Responses",
            Provider::Gemini => "Google Gemini",
            Provider::Ollama => "Ollama /api/chat",
        }
    }

    /// Whether several tool calls may come in one reply.
    pub fn parallel_calls(self) -> bool {
        true
    }
}
