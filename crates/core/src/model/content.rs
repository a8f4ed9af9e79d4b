//! Content blocks: `text`, `image`, `audio`, `resource_link` and embedded `resource`.
//!
//! Decoding is lenient: a block whose `type` this crate does not know, or whose
//! members do not fit its type, becomes [`ContentBlock::Unknown`] with its JSON intact,
//! so one odd block never loses the rest of a result.

use serde_json::Value;

use super::JsonObject;
use super::json::{Members, Out, via_json};

/// `Annotations` on content: audience, priority, lastModified.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Annotations {
    /// `"user"` and/or `"assistant"`.
    pub audience: Option<Vec<String>>,
    /// 0 (least) to 1 (most important).
    pub priority: Option<f64>,
    /// Unknown members (`lastModified`…).
    pub extra: JsonObject,
}

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
            Some("text") => TextContent::from_json(&v).map(ContentBlock::Text),
            Some("image") => ImageContent::from_json(&v).map(ContentBlock::Image),
            Some("audio") => ImageContent::from_json(&v).map(ContentBlock::Audio),
            Some("resource_link") => ResourceLink::from_json(&v).map(ContentBlock::ResourceLink),
            Some("resource") => EmbeddedResource::from_json(&v).map(ContentBlock::Resource),
            _ => Err(String::new()),
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

/// The members of a content block, without its `type` tag.
fn block_members(v: Value) -> Result<Members, String> {
    let mut m = Members::of(v)?;
    m.value("type");
    Ok(m)
}

impl Out {
    /// The members every content block ends with: `annotations`, `_meta`, the rest.
    fn block_tail(
        &mut self,
        annotations: &Option<Annotations>,
        meta: &Option<JsonObject>,
        extra: &JsonObject,
    ) -> Value {
        self.opt(
            "annotations",
            annotations.as_ref().map(Annotations::to_json),
        )
        .meta(meta)
        .with(extra)
    }
}

/// Optional `annotations`.
fn annotations(m: &mut Members) -> Result<Option<Annotations>, String> {
    m.value("annotations")
        .map(Annotations::from_value)
        .transpose()
        .map_err(|e| format!("annotations: {e}"))
}

impl Annotations {
    /// Reads annotations from JSON.
    pub fn from_value(v: Value) -> Result<Self, String> {
        let mut m = Members::of(v)?;
        Ok(Annotations {
            audience: m.opt("audience", super::json::strings, "an array of strings")?,
            priority: m.opt("priority", |v| v.as_f64().ok_or(v), "a number")?,
            extra: m.rest(),
        })
    }

    /// The annotations as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .opt("audience", self.audience.clone().map(Value::from))
            .opt("priority", self.priority.map(Value::from))
            .with(&self.extra)
    }
}

impl TextContent {
    /// Reads a text block's members (a `type` member is ignored).
    pub fn from_value(v: Value) -> Result<Self, String> {
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
    pub fn from_value(v: Value) -> Result<Self, String> {
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

impl ResourceLink {
    /// Reads a resource link's members (a `type` member is ignored).
    pub fn from_value(v: Value) -> Result<Self, String> {
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
    pub fn from_value(v: Value) -> Result<Self, String> {
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
    pub fn from_value(v: Value) -> Result<Self, String> {
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
    pub fn from_value(v: Value) -> Result<Self, String> {
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
    pub fn from_value(v: Value) -> Result<Self, String> {
        let mut m = block_members(v)?;
        let resource = m
            .value("resource")
            .ok_or_else(|| "missing field `resource`".to_owned())?;
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
    Annotations,
    TextContent,
    ImageContent,
    ResourceLink,
    TextResourceContents,
    BlobResourceContents,
    ResourceContents,
    EmbeddedResource
);

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
