//! Content blocks: `text`, `image`, `audio`, `resource_link` and embedded `resource`.
//!
//! Decoding is lenient: a block whose `type` this crate does not know, or whose
//! members do not fit its type, becomes [`ContentBlock::Unknown`] with its JSON intact,
//! so one odd block never loses the rest of a result.

use serde_json::Value;

use super::annotations::{Annotations, annotations, block_members};
use super::json::{Out, via_json};
use super::resource::{EmbeddedResource, ResourceLink};
use super::{JsonObject, ModelError};

/// `TextContent`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `ImageContent`: base64 data and a MIME type.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImageContent {
    /// Base64-encoded image bytes.
    pub data: String,
    /// e.g. `image/png`.
    pub mime_type: String,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `AudioContent` (2025-03-26+): base64 data and a MIME type.
pub type AudioContent = ImageContent;

/// `ContentBlock`, tagged by `type`.
#[derive(Clone, Debug, PartialEq)]
pub enum ContentBlock {
    /// `type: "text"`.
    Text(TextContent),
    /// `type: "image"`.
    Image(ImageContent),
    /// `type: "audio"` (2025-03-26+).
    Audio(AudioContent),
    /// `type: "resource_link"` (2025-06-18+).
    ResourceLink(ResourceLink),
    /// `type: "resource"`.
    Resource(EmbeddedResource),
    /// A block this crate cannot read; its JSON is kept as sent.
    Unknown(Value),
}

impl ContentBlock {
    /// A text block.
    pub fn text(text: impl Into<String>) -> Self {
        ContentBlock::Text(TextContent {
            text: text.into(),
            ..Default::default()
        })
    }

    /// The `type` tag as sent (or `"?"` for untagged junk).
    pub fn kind(&self) -> &str {
        match self {
            ContentBlock::Text(_) => "text",
            ContentBlock::Image(_) => "image",
            ContentBlock::Audio(_) => "audio",
            ContentBlock::ResourceLink(_) => "resource_link",
            ContentBlock::Resource(_) => "resource",
            ContentBlock::Unknown(v) => v.get("type").and_then(Value::as_str).unwrap_or("?"),
        }
    }
}

impl ContentBlock {
    /// Reads a block from JSON, falling back to [`ContentBlock::Unknown`] when its
    /// `type` is unknown or its members do not fit that type.
    pub fn from_value(v: Value) -> Self {
        let typed = match v.get("type").and_then(Value::as_str) {
            Some("text") => TextContent::from_json(&v).map(ContentBlock::Text).ok(),
            Some("image") => ImageContent::from_json(&v).map(ContentBlock::Image).ok(),
            Some("audio") => ImageContent::from_json(&v).map(ContentBlock::Audio).ok(),
            Some("resource_link") => ResourceLink::from_json(&v)
                .map(ContentBlock::ResourceLink)
                .ok(),
            Some("resource") => EmbeddedResource::from_json(&v)
                .map(ContentBlock::Resource)
                .ok(),
            _ => None,
        };
        typed.unwrap_or(ContentBlock::Unknown(v))
    }

    /// The block as JSON, `type` first as servers write it.
    pub fn to_json(&self) -> Value {
        let (tag, inner) = match self {
            ContentBlock::Text(c) => ("text", c.to_json()),
            ContentBlock::Image(c) => ("image", c.to_json()),
            ContentBlock::Audio(c) => ("audio", c.to_json()),
            ContentBlock::ResourceLink(c) => ("resource_link", c.to_json()),
            ContentBlock::Resource(c) => ("resource", c.to_json()),
            ContentBlock::Unknown(v) => return v.clone(),
        };
        let mut out = JsonObject::new();
        out.insert("type".into(), Value::from(tag));
        if let Value::Object(m) = inner {
            out.extend(m);
        }
        Value::Object(out)
    }
}

// By hand rather than through `via_json!`: reading a block never fails.
impl serde::Serialize for ContentBlock {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serde::Serialize::serialize(&self.to_json(), s)
    }
}

impl<'de> serde::Deserialize<'de> for ContentBlock {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <Value as serde::Deserialize>::deserialize(d).map(ContentBlock::from_value)
    }
}

impl TextContent {
    /// Reads a text block's members (a `type` member is ignored).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = block_members(v)?;
        Ok(TextContent {
            text: m.req_string("text")?,
            annotations: annotations(&mut m)?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The block's members as JSON, without `type`.
    pub fn to_json(&self) -> Value {
        Out::default().str("text", &self.text).block_tail(
            &self.annotations,
            &self.meta,
            &self.extra,
        )
    }
}

impl ImageContent {
    /// Reads an image or audio block's members (a `type` member is ignored).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = block_members(v)?;
        Ok(ImageContent {
            data: m.req_string("data")?,
            mime_type: m.req_string("mimeType")?,
            annotations: annotations(&mut m)?,
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The block's members as JSON, without `type`.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("data", &self.data)
            .str("mimeType", &self.mime_type)
            .block_tail(&self.annotations, &self.meta, &self.extra)
    }
}

via_json!(TextContent, ImageContent);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ResourceContents;
    use serde_json::json;

    #[test]
    fn every_kind_round_trips() {
        let blocks = json!([
            {"type":"text","text":"hi","annotations":{"audience":["user"],"lastModified":"x"}},
            {"type":"image","data":"AAAA","mimeType":"image/png"},
            {"type":"audio","data":"AAAA","mimeType":"audio/wav"},
            {"type":"resource_link","uri":"file:///a","name":"a","mimeType":"text/plain"},
            {"type":"resource","resource":{"uri":"file:///b","text":"body"}},
            {"type":"resource","resource":{"uri":"file:///c","blob":"AAAA","mimeType":"x/y"}},
            {"type":"hologram","depth":3},
            {"type":"text"}
        ]);
        let parsed: Vec<ContentBlock> = serde_json::from_value(blocks.clone()).unwrap();
        let kinds: Vec<&str> = parsed.iter().map(ContentBlock::kind).collect();
        assert_eq!(
            kinds,
            [
                "text",
                "image",
                "audio",
                "resource_link",
                "resource",
                "resource",
                "hologram",
                "text"
            ]
        );
        assert!(
            matches!(parsed[7], ContentBlock::Unknown(_)),
            "text without text is kept raw"
        );
        assert!(
            matches!(&parsed[5], ContentBlock::Resource(r) if matches!(r.resource, ResourceContents::Blob(_)))
        );
        assert_eq!(serde_json::to_value(&parsed).unwrap(), blocks);
    }
}
