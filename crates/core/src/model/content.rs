//! Content blocks: `text`, `image`, `audio`, `resource_link` and embedded `resource`.
//!
//! Decoding is lenient: a block whose `type` this crate does not know, or whose
//! members do not fit its type, becomes [`ContentBlock::Unknown`] with its JSON intact,
//! so one odd block never loses the rest of a result.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::JsonObject;

/// `Annotations` on content: audience, priority, lastModified.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotations {
    /// `"user"` and/or `"assistant"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Vec<String>>,
    /// 0 (least) to 1 (most important).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<f64>,
    /// Unknown members (`lastModified`…).
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `TextContent`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TextContent {
    /// The text.
    pub text: String,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `ImageContent`: base64 data and a MIME type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageContent {
    /// Base64-encoded image bytes.
    pub data: String,
    /// e.g. `image/png`.
    pub mime_type: String,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `AudioContent` (2025-03-26+): base64 data and a MIME type.
pub type AudioContent = ImageContent;

/// `ResourceLink` (2025-06-18+): a pointer to a resource the client may read.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLink {
    /// The resource URI.
    pub uri: String,
    /// Programmatic name.
    #[serde(default)]
    pub name: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `TextResourceContents`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextResourceContents {
    /// Resource URI.
    pub uri: String,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// The text.
    pub text: String,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

/// `BlobResourceContents`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BlobResourceContents {
    /// Resource URI.
    pub uri: String,
    /// MIME type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Base64-encoded bytes.
    pub blob: String,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EmbeddedResource {
    /// The contents.
    pub resource: ResourceContents,
    /// Optional annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations>,
    /// `_meta`.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<JsonObject>,
    /// Unknown members.
    #[serde(flatten)]
    pub extra: JsonObject,
}

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

fn tagged<T: Serialize>(tag: &str, inner: &T) -> Result<Value, serde_json::Error> {
    let mut v = serde_json::to_value(inner)?;
    if let Value::Object(m) = &mut v {
        // Put `type` first, as servers do, so re-serialized blocks read naturally.
        let mut out = JsonObject::new();
        out.insert("type".into(), Value::from(tag));
        out.extend(std::mem::take(m));
        return Ok(Value::Object(out));
    }
    Ok(v)
}

impl Serialize for ContentBlock {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let v = match self {
            ContentBlock::Text(c) => tagged("text", c),
            ContentBlock::Image(c) => tagged("image", c),
            ContentBlock::Audio(c) => tagged("audio", c),
            ContentBlock::ResourceLink(c) => tagged("resource_link", c),
            ContentBlock::Resource(c) => tagged("resource", c),
            ContentBlock::Unknown(v) => Ok(v.clone()),
        }
        .map_err(serde::ser::Error::custom)?;
        v.serialize(s)
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(ContentBlock::from_value(v))
    }
}

impl ContentBlock {
    /// Reads a block from JSON, falling back to [`ContentBlock::Unknown`].
    pub fn from_value(v: Value) -> Self {
        fn strip(v: &Value) -> Value {
            let mut v = v.clone();
            if let Value::Object(m) = &mut v {
                m.remove("type");
            }
            v
        }
        let typed = match v.get("type").and_then(Value::as_str) {
            Some("text") => serde_json::from_value(strip(&v))
                .map(ContentBlock::Text)
                .ok(),
            Some("image") => serde_json::from_value(strip(&v))
                .map(ContentBlock::Image)
                .ok(),
            Some("audio") => serde_json::from_value(strip(&v))
                .map(ContentBlock::Audio)
                .ok(),
            Some("resource_link") => serde_json::from_value(strip(&v))
                .map(ContentBlock::ResourceLink)
                .ok(),
            Some("resource") => serde_json::from_value(strip(&v))
                .map(ContentBlock::Resource)
                .ok(),
            _ => None,
        };
        typed.unwrap_or(ContentBlock::Unknown(v))
    }
}

impl Serialize for ResourceContents {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ResourceContents::Text(t) => t.serialize(s),
            ResourceContents::Blob(b) => b.serialize(s),
            ResourceContents::Unknown(v) => v.serialize(s),
        }
    }
}

impl<'de> Deserialize<'de> for ResourceContents {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        let parsed = if v.get("text").is_some() {
            serde_json::from_value(v.clone())
                .map(ResourceContents::Text)
                .ok()
        } else if v.get("blob").is_some() {
            serde_json::from_value(v.clone())
                .map(ResourceContents::Blob)
                .ok()
        } else {
            None
        };
        Ok(parsed.unwrap_or(ResourceContents::Unknown(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
