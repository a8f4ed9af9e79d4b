//! Resources inside content: `resource_link` blocks and embedded `resource`
//! blocks with their text or blob contents.

use serde_json::Value;

use super::annotations::{Annotations, annotations, block_members};
use super::json::{Members, Out, via_json};
use super::{JsonObject, ModelError};

/// `ResourceLink` (2025-06-18+): a pointer to a resource the client may read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceLink {
    /// The resource URI.
    pub uri: String,
    /// Programmatic name.
    pub name: String,
    /// Display name.
    pub title: Option<String>,
    /// Description.
    pub description: Option<String>,
    /// MIME type.
    pub mime_type: Option<String>,
    /// Size in bytes.
    pub size: Option<u64>,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `TextResourceContents`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextResourceContents {
    /// Resource URI.
    pub uri: String,
    /// MIME type.
    pub mime_type: Option<String>,
    /// The text.
    pub text: String,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `BlobResourceContents`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlobResourceContents {
    /// Resource URI.
    pub uri: String,
    /// MIME type.
    pub mime_type: Option<String>,
    /// Base64-encoded bytes.
    pub blob: String,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// The `resource` member of an embedded resource: text or blob.
#[derive(Clone, Debug, PartialEq)]
pub enum ResourceContents {
    /// Text contents.
    Text(TextResourceContents),
    /// Binary contents.
    Blob(BlobResourceContents),
    /// Neither shape fits; the JSON is kept.
    Unknown(Value),
}

/// `EmbeddedResource`.
#[derive(Clone, Debug, PartialEq)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: ResourceContents,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

impl ResourceLink {
    /// Reads a resource link's members (a `type` member is ignored).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = block_members(v)?;
        Ok(ResourceLink {
            uri: m.req_string("uri")?,
            name: m.string("name")?.unwrap_or_default(),
            title: m.string("title")?,
            description: m.string("description")?,
            mime_type: m.string("mimeType")?,
            size: m.opt("size", |v| v.as_u64().ok_or(v), "a whole number")?,
            annotations: annotations(&mut m)?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The link's members as JSON, without `type`.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("uri", &self.uri)
            .str("name", &self.name)
            .string("title", &self.title)
            .string("description", &self.description)
            .string("mimeType", &self.mime_type)
            .opt("size", self.size.map(Value::from))
            .block_tail(&self.annotations, &self.meta, &self.extra)
    }
}

impl TextResourceContents {
    /// Reads text resource contents.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(TextResourceContents {
            uri: m.req_string("uri")?,
            mime_type: m.string("mimeType")?,
            text: m.req_string("text")?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The contents as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("uri", &self.uri)
            .string("mimeType", &self.mime_type)
            .str("text", &self.text)
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl BlobResourceContents {
    /// Reads binary resource contents.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(BlobResourceContents {
            uri: m.req_string("uri")?,
            mime_type: m.string("mimeType")?,
            blob: m.req_string("blob")?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The contents as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("uri", &self.uri)
            .string("mimeType", &self.mime_type)
            .str("blob", &self.blob)
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl ResourceContents {
    /// Text when it has `text`, a blob when it has `blob`, else kept as JSON. (A
    /// shape that does not fit is kept whole, so it is read from a copy.)
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let parsed = if v.get("text").is_some() {
            TextResourceContents::from_json(&v)
                .map(ResourceContents::Text)
                .ok()
        } else if v.get("blob").is_some() {
            BlobResourceContents::from_json(&v)
                .map(ResourceContents::Blob)
                .ok()
        } else {
            None
        };
        Ok(parsed.unwrap_or(ResourceContents::Unknown(v)))
    }

    /// The contents as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            ResourceContents::Text(t) => t.to_json(),
            ResourceContents::Blob(b) => b.to_json(),
            ResourceContents::Unknown(v) => v.clone(),
        }
    }
}

impl EmbeddedResource {
    /// Reads an embedded resource's members (a `type` member is ignored).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = block_members(v)?;
        let resource = m
            .value("resource")
            .ok_or_else(|| ModelError::missing("resource"))?;
        Ok(EmbeddedResource {
            resource: ResourceContents::from_value(resource)?,
            annotations: annotations(&mut m)?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The block's members as JSON, without `type`.
    pub fn to_json(&self) -> Value {
        Out::default()
            .put("resource", self.resource.to_json())
            .block_tail(&self.annotations, &self.meta, &self.extra)
    }
}

via_json!(
    ResourceLink,
    TextResourceContents,
    BlobResourceContents,
    ResourceContents,
    EmbeddedResource
);
