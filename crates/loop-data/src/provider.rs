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

/// The provider's public API base URL (what the page prefills).
pub fn default_base(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "https://api.anthropic.com",
        Provider::OpenAiChat | Provider::OpenAiResponses => "https://api.openai.com",
        Provider::Gemini => "https://generativelanguage.googleapis.com",
        Provider::Ollama => "http://localhost:11434",
    }
}

/// A model name to prefill for each provider.
pub fn default_model(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => "claude-sonnet-4-5",
        Provider::OpenAiChat | Provider::OpenAiResponses => "gpt-4.1-mini",
        Provider::Gemini => "gemini-2.5-flash",
        Provider::Ollama => "llama3.2",
    }
}

/// Whether the provider needs a key (Ollama runs locally without one).
pub fn needs_key(provider: Provider) -> bool {
    provider != Provider::Ollama
}
