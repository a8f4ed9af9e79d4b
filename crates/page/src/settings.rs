//! Who answers for the model, and a real model's non-secret settings. No key lives
//! here: the driver sees at most a masked hint (see [`crate::Command::SetKeyHint`]).

use mcpg_core::ProtocolVersion;
use mcpg_loop_data::{Provider, default_base, default_model};

/// Who answers for the model (steps 3 and 6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ModelChoice {
    /// The deterministic mock model.
    #[default]
    Mock,
    /// The learner writes the model's turns.
    Play,
    /// A real LLM API, called by the shell.
    Real,
}

impl ModelChoice {
    /// Every choice, in the selector's order.
    pub const ALL: [ModelChoice; 3] = [ModelChoice::Mock, ModelChoice::Play, ModelChoice::Real];

    /// A stable identifier for the selector.
    pub fn id(self) -> &'static str {
        match self {
            ModelChoice::Mock => "mock",
            ModelChoice::Play => "play",
            ModelChoice::Real => "real",
        }
    }

    /// A name for people.
    pub fn label(self) -> &'static str {
        match self {
            ModelChoice::Mock => "Mock model (no key, deterministic)",
            ModelChoice::Play => "Play the model yourself",
            ModelChoice::Real => "A real LLM (your key)",
        }
    }

    /// Parses [`ModelChoice::id`] (anything unknown is the mock).
    pub fn from_id(id: &str) -> ModelChoice {
        ModelChoice::ALL
            .into_iter()
            .find(|c| c.id() == id)
            .unwrap_or(ModelChoice::Mock)
    }
}

/// Base URL and model name of a real model, per provider (no key).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LlmSettings {
    /// API base URL (`https://api.openai.com`, `http://localhost:1234/v1`…).
    pub base: String,
    /// Model name.
    pub model: String,
}

impl LlmSettings {
    /// The prefilled settings for `provider`.
    pub fn default_for(provider: Provider) -> LlmSettings {
        LlmSettings {
            base: default_base(provider).to_owned(),
            model: default_model(provider).to_owned(),
        }
    }
}

/// The index of `provider` in [`Provider::ALL`] (per-provider settings).
pub fn slot(provider: Provider) -> usize {
    Provider::ALL
        .iter()
        .position(|p| *p == provider)
        .unwrap_or(0)
}

/// Which protocol revision the client may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Pin {
    /// Negotiate (probe `server/discover`, fall back to `initialize`).
    #[default]
    Auto,
    /// Only this revision, in its generation's mode.
    Revision(ProtocolVersion),
}

impl Pin {
    /// A stable id for a selector: `auto` or the revision's date.
    pub fn id(self) -> &'static str {
        match self {
            Pin::Auto => "auto",
            Pin::Revision(v) => v.as_str(),
        }
    }

    /// Parses [`Pin::id`]; anything unknown is `Auto`.
    pub fn from_id(id: &str) -> Pin {
        ProtocolVersion::parse(id).map_or(Pin::Auto, Pin::Revision)
    }
}
