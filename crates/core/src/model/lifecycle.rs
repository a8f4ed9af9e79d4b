//! `initialize` (≤2025-11-25) and `server/discover` (2026-07-28) results.

use serde_json::Value;

use super::json::{Members, Out, strings, via_json};
use super::{JsonObject, ModelError};

/// `Implementation`: a client's or server's name and version.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    pub version: String,
    /// Display name (2025-06-18+).
    pub title: Option<String>,
    /// Members this crate does not model (icons, websiteUrl, description…).
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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InitializeResult {
    /// The revision the server chose.
    pub protocol_version: String,
    /// `ServerCapabilities`, kept as JSON.
    pub capabilities: JsonObject,
    /// Who the server is.
    pub server_info: Implementation,
    /// Hints for the model on how to use the server.
    pub instructions: Option<String>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `DiscoverResult` (2026-07-28 `server/discover`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DiscoverResult {
    /// Revisions the server speaks.
    pub supported_versions: Vec<String>,
    /// `ServerCapabilities`, kept as JSON.
    pub capabilities: JsonObject,
    /// Hints for the model on how to use the server.
    pub instructions: Option<String>,
    /// How long the answer may be cached, in milliseconds.
    pub ttl_ms: Option<Value>,
    /// `"public"` or `"private"`.
    pub cache_scope: Option<String>,
    /// `"complete"` (required on every 2026-07-28 result).
    pub result_type: Option<String>,
    /// `_meta` (carries `io.modelcontextprotocol/serverInfo`).
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

impl Implementation {
    /// Reads a name and version from JSON.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(Implementation {
            name: m.string("name")?.unwrap_or_default(),
            version: m.string("version")?.unwrap_or_default(),
            title: m.string("title")?,
            extra: m.rest(),
        })
    }

    /// The name and version as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("name", &self.name)
            .str("version", &self.version)
            .string("title", &self.title)
            .with(&self.extra)
    }
}

impl InitializeResult {
    /// Reads an `initialize` result.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(InitializeResult {
            protocol_version: m.string("protocolVersion")?.unwrap_or_default(),
            capabilities: m.object("capabilities")?.unwrap_or_default(),
            server_info: m
                .value("serverInfo")
                .map(Implementation::from_value)
                .transpose()
                .map_err(|e| e.within("serverInfo"))?
                .unwrap_or_default(),
            instructions: m.string("instructions")?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .put(
                "protocolVersion",
                Value::from(self.protocol_version.as_str()),
            )
            .put("capabilities", Value::Object(self.capabilities.clone()))
            .put("serverInfo", self.server_info.to_json())
            .string("instructions", &self.instructions)
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl DiscoverResult {
    /// Reads a `server/discover` result.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(DiscoverResult {
            supported_versions: m
                .opt("supportedVersions", strings, "an array of strings")?
                .unwrap_or_default(),
            capabilities: m.object("capabilities")?.unwrap_or_default(),
            instructions: m.string("instructions")?,
            ttl_ms: m.value("ttlMs"),
            cache_scope: m.string("cacheScope")?,
            result_type: m.string("resultType")?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .put(
                "supportedVersions",
                Value::from(self.supported_versions.clone()),
            )
            .put("capabilities", Value::Object(self.capabilities.clone()))
            .string("instructions", &self.instructions)
            .opt("ttlMs", self.ttl_ms.clone())
            .string("cacheScope", &self.cache_scope)
            .string("resultType", &self.result_type)
            .meta(&self.meta)
            .with(&self.extra)
    }
}

via_json!(Implementation, InitializeResult, DiscoverResult);
