//! Who answers for the model (steps 3 and 6), and the settings of a real model. The
//! API key is not here: it lives in its own signal ([`crate::state::AppState::api_keys`])
//! and is read only to build a request's headers, so no view of these settings can
//! show it.

pub use mcpg_page::{LlmSettings, ModelChoice, slot};

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
