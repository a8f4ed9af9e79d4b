//! Resources as `resources/list`, `resources/templates/list` and `resources/read`
//! return them. (The contents types, shared with embedded resources in tool
//! results, live in `resource.rs`.)

use serde_json::Value;

use super::annotations::{Annotations, annotations};
use super::json::{Members, Out, array, via_json};
use super::{JsonObject, ModelError, ResourceContents};

/// `Resource`: a resource the server can read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Resource {
    /// The resource's URI.
    pub uri: String,
    /// Programmatic name (required by the schema; empty when the server left it out).
    pub name: String,
    /// Display name (2025-06-18+).
    pub title: Option<String>,
    /// What it is, for people and models.
    pub description: Option<String>,
    /// MIME type, when known.
    pub mime_type: Option<String>,
    /// Size in bytes before any encoding, when known (2025-03-26+ in `Resource`).
    pub size: Option<u64>,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// Icons (2025-11-25+), kept as JSON.
    pub icons: Option<Value>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `ResourceTemplate`: an RFC 6570 URI template the server can read resources at.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResourceTemplate {
    /// The URI template (RFC 6570), kept as sent.
    pub uri_template: String,
    /// Programmatic name.
    pub name: String,
    /// Display name (2025-06-18+).
    pub title: Option<String>,
    /// What it is for.
    pub description: Option<String>,
    /// MIME type of every resource it matches, when they share one.
    pub mime_type: Option<String>,
    /// Optional annotations.
    pub annotations: Option<Annotations>,
    /// Icons (2025-11-25+), kept as JSON.
    pub icons: Option<Value>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members.
    pub extra: JsonObject,
}

/// `ReadResourceResult`: what `resources/read` returned.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadResourceResult {
    /// Text or blob contents (odd entries kept as [`ResourceContents::Unknown`]).
    pub contents: Vec<ResourceContents>,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members (`resultType`, `ttlMs`, `cacheScope`…).
    pub extra: JsonObject,
}

/// `title`, else a non-empty `name`, else `fallback`.
fn display<'a>(title: &'a Option<String>, name: &'a str, fallback: &'a str) -> &'a str {
    match (title, name) {
        (Some(t), _) => t,
        (None, "") => fallback,
        (None, n) => n,
    }
}

fn size(v: Value) -> Result<u64, Value> {
    v.as_u64().ok_or(v)
}

impl Resource {
    /// The name to show a person: `title`, then `name`, then the URI.
    pub fn display_name(&self) -> &str {
        display(&self.title, &self.name, &self.uri)
    }

    /// Reads a resource from JSON (`uri` is required).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(Resource {
            uri: m.req_string("uri")?,
            name: m.string("name")?.unwrap_or_default(),
            title: m.string("title")?,
            description: m.string("description")?,
            mime_type: m.string("mimeType")?,
            size: m.opt("size", size, "a whole number")?,
            annotations: annotations(&mut m)?,
            icons: m.value("icons"),
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The resource as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("uri", &self.uri)
            .str("name", &self.name)
            .string("title", &self.title)
            .string("description", &self.description)
            .string("mimeType", &self.mime_type)
            .opt("size", self.size.map(Value::from))
            .opt(
                "annotations",
                self.annotations.as_ref().map(Annotations::to_json),
            )
            .opt("icons", self.icons.clone())
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl ResourceTemplate {
    /// The name to show a person: `title`, then `name`, then the template.
    pub fn display_name(&self) -> &str {
        display(&self.title, &self.name, &self.uri_template)
    }

    /// Reads a template from JSON (`uriTemplate` is required).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(ResourceTemplate {
            uri_template: m.req_string("uriTemplate")?,
            name: m.string("name")?.unwrap_or_default(),
            title: m.string("title")?,
            description: m.string("description")?,
            mime_type: m.string("mimeType")?,
            annotations: annotations(&mut m)?,
            icons: m.value("icons"),
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The template as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .str("uriTemplate", &self.uri_template)
            .str("name", &self.name)
            .string("title", &self.title)
            .string("description", &self.description)
            .string("mimeType", &self.mime_type)
            .opt(
                "annotations",
                self.annotations.as_ref().map(Annotations::to_json),
            )
            .opt("icons", self.icons.clone())
            .meta(&self.meta)
            .with(&self.extra)
    }
}

impl ReadResourceResult {
    /// Reads a `resources/read` result; contents that fit neither text nor blob are
    /// kept as [`ResourceContents::Unknown`].
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let contents = m.opt("contents", array, "an array")?.unwrap_or_default();
        Ok(ReadResourceResult {
            contents: contents
                .into_iter()
                .map(|c| {
                    // Never fails (odd contents become `Unknown`); the `Result` is
                    // the shape every reader shares.
                    ResourceContents::from_value(c)
                        .unwrap_or_else(|e| ResourceContents::Unknown(Value::String(e.to_string())))
                })
                .collect(),
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> Value {
        Out::default()
            .put(
                "contents",
                Value::Array(
                    self.contents
                        .iter()
                        .map(ResourceContents::to_json)
                        .collect(),
                ),
            )
            .meta(&self.meta)
            .with(&self.extra)
    }
}

via_json!(Resource, ResourceTemplate, ReadResourceResult);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_resource_round_trips_with_unknown_members() {
        let raw = json!({
            "uri": "note://playground/1", "name": "one", "zeta": true,
            "mimeType": "text/plain", "size": 12, "_meta": {"k": 1}
        });
        let r = Resource::from_json(&raw).unwrap();
        assert_eq!((r.size, r.display_name()), (Some(12), "one"));
        assert_eq!(r.to_json(), raw);
        assert!(Resource::from_json(&json!({"name": "x"})).is_err());
        assert!(Resource::from_json(&json!({"uri": "a", "size": -1})).is_err());
    }

    #[test]
    fn read_results_keep_odd_contents() {
        let raw = json!({"contents": [
            {"uri": "a", "text": "hi"},
            {"uri": "b", "blob": "AAAA", "mimeType": "image/png"},
            {"uri": "c"}
        ], "resultType": "complete"});
        let r = ReadResourceResult::from_json(&raw).unwrap();
        assert!(matches!(r.contents[0], ResourceContents::Text(_)));
        assert!(matches!(r.contents[1], ResourceContents::Blob(_)));
        assert!(matches!(r.contents[2], ResourceContents::Unknown(_)));
        assert_eq!(r.to_json(), raw);
    }
}
