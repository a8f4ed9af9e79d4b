//! What every content block shares: its `annotations`, its members without the
//! `type` tag, and the members it ends with. Shared by the plain blocks
//! (`content.rs`) and the resource blocks (`resource.rs`).

use serde_json::Value;

use super::json::{self, Members, Out, via_json};
use super::{JsonObject, ModelError};

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

impl Annotations {
    /// Reads annotations from JSON.
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        Ok(Annotations {
            audience: m.opt("audience", json::strings, "an array of strings")?,
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

/// The members of a content block, without its `type` tag.
pub(super) fn block_members(v: Value) -> Result<Members, ModelError> {
    let mut m = Members::of(v)?;
    m.value("type");
    Ok(m)
}

impl Out {
    /// The members every content block ends with: `annotations`, `_meta`, the rest.
    pub(super) fn block_tail(
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
pub(super) fn annotations(m: &mut Members) -> Result<Option<Annotations>, ModelError> {
    m.value("annotations")
        .map(Annotations::from_value)
        .transpose()
        .map_err(|e| e.within("annotations"))
}

via_json!(Annotations);
