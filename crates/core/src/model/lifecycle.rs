//! `initialize` (≤2025-11-25) and `server/discover` (2026-07-28) results.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::JsonObject;

/// `Implementation`: a client's or server's name and version.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    /// Programmatic name.
    #[serde(default)]
    pub name: String,
    /// Version string.
    #[serde(default)]
    pub version: String,
    /// Display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Members this crate does not model (icons, websiteUrl, description…).
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl Implementation {
    /// Name and version only.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> Self {
        Implementation {
            name: name.into(),
            version: version.into(),
            ..Default::default()
        }
    }
}

/// `InitializeResult`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult {
    /// The revision the server chose.
    #[serde(default)]
    pub protocol_version: String,
    /// `ServerCapabilities`, kept as JSON.
    #[serde(default)]
    pub capabilities: JsonObject,
    /// Who the server is.
    #[serde(default)]
    pub server_info: Implementation,
    /// Hints for the model on how to use the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `DiscoverResult` (2026-07-28 `server/discover`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult {
    /// Revisions the server speaks.
    #[serde(default)]
    pub supported_versions: Vec<String>,
    /// `ServerCapabilities`, kept as JSON.
    #[serde(default)]
    pub capabilities: JsonObject,
    /// Hints for the model on how to use the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<String>,
    /// How long the answer may be cached, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<Value>,
    /// `"public"` or `"private"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<String>,
    /// `"complete"` (required on every 2026-07-28 result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<String>,
    /// `_meta` (carries `io.modelcontextprotocol/serverInfo`).
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}
