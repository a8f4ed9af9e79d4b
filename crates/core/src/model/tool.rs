//! `Tool`, `ListToolsResult` and `CallToolResult`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{ContentBlock, JsonObject};

/// `ToolAnnotations` (2025-03-26+). Hints only: untrusted unless the server is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// Display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not modify its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may perform destructive updates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling twice with the same arguments has no extra effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to an open world of external entities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `Tool`: a tool's definition as `tools/list` returns it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// Programmatic name, unique per server.
    pub name: String,
    /// Display name (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments; must be an object schema (`type: "object"`).
    /// Kept as raw JSON: the core checks it, the host adapts it.
    #[serde(default)]
    pub input_schema: Value,
    /// JSON Schema of `structuredContent` (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons (2025-11-25+), kept as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Value>,
    /// `execution` (2025-11-25 tasks), kept as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution: Option<Value>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl Tool {
    /// The name to show a person: `title`, then `annotations.title`, then `name`.
    pub fn display_name(&self) -> &str {
        self.title
            .as_deref()
            .or_else(|| self.annotations.as_ref().and_then(|a| a.title.as_deref()))
            .unwrap_or(&self.name)
    }
}

/// `ListToolsResult`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    /// The tools of this page.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Opaque cursor for the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members (`ttlMs`, `cacheScope`, `resultType`…).
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `CallToolResult`: what a tool returned.
///
/// `is_error: Some(true)` is a *tool* failure the model should see; a JSON-RPC
/// error is a *protocol* failure and never becomes a `CallToolResult`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// Unstructured content blocks.
    #[serde(default)]
    pub content: Vec<ContentBlock>,
    /// Structured result, checked against the tool's `outputSchema` (2025-06-18+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// Whether the tool failed; absent means false.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members (`resultType`…).
    #[serde(flatten)]
    pub extra: JsonObject,
}

impl CallToolResult {
    /// A successful result with one text block.
    pub fn text(text: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![ContentBlock::text(text)],
            ..Default::default()
        }
    }

    /// A tool failure (`isError: true`) with one text block.
    pub fn tool_error(text: impl Into<String>) -> Self {
        CallToolResult {
            content: vec![ContentBlock::text(text)],
            is_error: Some(true),
            ..Default::default()
        }
    }

    /// Whether this result reports a tool failure.
    pub fn failed(&self) -> bool {
        self.is_error == Some(true)
    }
}
