//! `completion/complete`: what is being completed (`CompletionReference`) and the
//! suggestions (`CompleteResult`).

use serde_json::Value;

use super::json::{Members, Out, object, strings, via_json};
use super::{JsonObject, ModelError};

/// What a completion is for: a prompt's argument or a resource template's variable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CompletionReference {
    /// `{"type": "ref/prompt", "name": …}`.
    Prompt {
        /// The prompt's name.
        name: String,
    },
    /// `{"type": "ref/resource", "uri": …}`: `uri` is the template (or a URI).
    Resource {
        /// The URI template.
        uri: String,
    },
}

impl CompletionReference {
    /// The reference as it goes in `params.ref`.
    pub fn to_json(&self) -> Value {
        match self {
            CompletionReference::Prompt { name } => Out::default()
                .str("type", "ref/prompt")
                .str("name", name)
                .with(&JsonObject::new()),
            CompletionReference::Resource { uri } => Out::default()
                .str("type", "ref/resource")
                .str("uri", uri)
                .with(&JsonObject::new()),
        }
    }
}

/// `CompleteResult`: the suggestions (at most 100 per the schema).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompleteResult {
    /// The suggested values.
    pub values: Vec<String>,
    /// How many there are in all, when known.
    pub total: Option<u64>,
    /// Whether there are more than those sent.
    pub has_more: Option<bool>,
    /// Unknown members of the `completion` object.
    pub completion_extra: JsonObject,
    /// `_meta`.
    pub meta: Option<JsonObject>,
    /// Unknown members of the result (`resultType`…).
    pub extra: JsonObject,
}

impl CompleteResult {
    /// Reads a `completion/complete` result (`completion.values` is required).
    pub fn from_value(v: Value) -> Result<Self, ModelError> {
        let mut m = Members::of(v)?;
        let completion = m
            .opt("completion", object, "an object")?
            .ok_or_else(|| ModelError::missing("completion"))?;
        let mut c = Members::of(Value::Object(completion))?;
        let values = c
            .req("values", strings, "an array of strings")
            .map_err(|e| e.within("completion"))?;
        let total = c
            .opt("total", |v| v.as_u64().ok_or(v), "a whole number")
            .map_err(|e| e.within("completion"))?;
        let has_more = c.boolean("hasMore").map_err(|e| e.within("completion"))?;
        Ok(CompleteResult {
            values,
            total,
            has_more,
            completion_extra: c.rest(),
            meta: m.meta()?,
            extra: m.rest(),
        })
    }

    /// The result as JSON.
    pub fn to_json(&self) -> Value {
        let completion = Out::default()
            .put("values", Value::from(self.values.clone()))
            .opt("total", self.total.map(Value::from))
            .opt("hasMore", self.has_more.map(Value::from))
            .with(&self.completion_extra);
        Out::default()
            .put("completion", completion)
            .meta(&self.meta)
            .with(&self.extra)
    }
}

via_json!(CompleteResult);

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn references_and_results_have_their_wire_shape() {
        let r = CompletionReference::Prompt { name: "p".into() };
        assert_eq!(r.to_json(), json!({"type": "ref/prompt", "name": "p"}));
        let r = CompletionReference::Resource {
            uri: "w://{c}".into(),
        };
        assert_eq!(
            r.to_json(),
            json!({"type": "ref/resource", "uri": "w://{c}"})
        );
        let raw = json!({"completion": {"values": ["a"], "total": 3, "hasMore": true, "x": 1}, "resultType": "complete"});
        let c = CompleteResult::from_json(&raw).unwrap();
        assert_eq!((c.total, c.has_more), (Some(3), Some(true)));
        assert_eq!(c.to_json(), raw);
        let e = CompleteResult::from_json(&json!({"completion": {"values": [1]}})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "completion: `values` must be an array of strings, not an array"
        );
        assert!(CompleteResult::from_json(&json!({})).is_err());
    }
}
