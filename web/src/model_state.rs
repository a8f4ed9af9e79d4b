//! Who answers for the model (steps 3 and 6), and the settings of a real model. The
//! API key is not here: it lives in its own signal ([`crate::state::AppState::api_keys`])
//! and is read only to build a request's headers, so no view of these settings can
//! show it.

use mcpg_host::provider::{Provider, default_base, default_model};

/// Who answers for the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelChoice {
    /// The deterministic mock model, in the browser.
    Mock,
    /// The learner writes the model's turns.
    Play,
    /// A real LLM API, called from the browser.
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

    /// Parses [`ModelChoice::id`].
    pub fn from_id(id: &str) -> ModelChoice {
        ModelChoice::ALL
            .into_iter()
            .find(|c| c.id() == id)
            .unwrap_or(ModelChoice::Mock)
    }
}

/// Where the API key is kept besides memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKeep {
    /// Memory only: gone when the tab closes or reloads.
    Nowhere,
    /// sessionStorage: survives a reload of this tab.
    Tab,
    /// localStorage: kept in this browser until removed.
    Browser,
}

impl KeyKeep {
    /// Every choice, in the selector's order.
    pub const ALL: [KeyKeep; 3] = [KeyKeep::Nowhere, KeyKeep::Tab, KeyKeep::Browser];

    /// A stable identifier for the selector.
    pub fn id(self) -> &'static str {
        match self {
            KeyKeep::Nowhere => "memory",
            KeyKeep::Tab => "tab",
            KeyKeep::Browser => "browser",
        }
    }

    /// A name for people.
    pub fn label(self) -> &'static str {
        match self {
            KeyKeep::Nowhere => "Not at all (memory only)",
            KeyKeep::Tab => "In this tab (sessionStorage)",
            KeyKeep::Browser => "In this browser (localStorage)",
        }
    }

    /// Parses [`KeyKeep::id`].
    pub fn from_id(id: &str) -> KeyKeep {
        KeyKeep::ALL
            .into_iter()
            .find(|k| k.id() == id)
            .unwrap_or(KeyKeep::Nowhere)
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

/// The index of `provider` in [`Provider::ALL`] (per-provider settings and keys).
pub fn slot(provider: Provider) -> usize {
    Provider::ALL
        .iter()
        .position(|p| *p == provider)
        .unwrap_or(0)
}
