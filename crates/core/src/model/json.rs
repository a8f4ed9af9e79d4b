//! The model's JSON, read and written by hand.
//!
//! Every model type keeps its unknown members (`#[serde(flatten)]` in a derive), and a
//! derived `Deserialize` with `flatten` buffers through serde's private `Content` type
//! and is instantiated again for each input (`Value`, `&Value`, text): tens of
//! kilobytes of the page's wasm. These few helpers over `serde_json::Value`, which the
//! page has anyway, do the same job once. The serde traits stay (implemented through
//! [`via_json!`]), so `serde_json::from_value::<Tool>` and friends work as before.
//! Readers take the JSON by value (`from_value`): a decoded message's result moves
//! into the typed view instead of being copied.

use serde_json::Value;

use super::{JsonObject, ModelError, ModelErrorKind};
use crate::validate::kind_of as kind;

/// The members of one JSON object, taken one by one; what is left is the `extra`.
pub(crate) struct Members(JsonObject);

impl Members {
    /// The members of `v`, which must be an object. Taken by value: each member then
    /// moves into its typed field, so reading copies nothing.
    pub(crate) fn of(v: Value) -> Result<Self, ModelError> {
        match v {
            Value::Object(m) => Ok(Members(m)),
            other => Err(ModelError::new(ModelErrorKind::NotAnObject {
                found: kind(&other),
            })),
        }
    }

    /// Member `key` read by `read`: `None` when absent or `null` (as serde reads an
    /// `Option`), an error naming the member when it has the wrong type.
    pub(crate) fn opt<T>(
        &mut self,
        key: &str,
        read: fn(Value) -> Result<T, Value>,
        expected: &'static str,
    ) -> Result<Option<T>, ModelError> {
        // `shift_remove` keeps the order of what is left, so `extra` re-serializes
        // in the order the server sent it.
        match self.0.shift_remove(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => read(v).map(Some).map_err(|v| {
                ModelError::new(ModelErrorKind::WrongType {
                    member: key.to_owned(),
                    expected,
                    found: kind(&v),
                })
            }),
        }
    }

    /// A required member.
    pub(crate) fn req<T>(
        &mut self,
        key: &str,
        read: fn(Value) -> Result<T, Value>,
        expected: &'static str,
    ) -> Result<T, ModelError> {
        self.opt(key, read, expected)?
            .ok_or_else(|| ModelError::missing(key))
    }

    /// A required string.
    pub(crate) fn req_string(&mut self, key: &str) -> Result<String, ModelError> {
        self.req(key, string, "a string")
    }

    /// An optional string.
    pub(crate) fn string(&mut self, key: &str) -> Result<Option<String>, ModelError> {
        self.opt(key, string, "a string")
    }

    /// An optional boolean.
    pub(crate) fn boolean(&mut self, key: &str) -> Result<Option<bool>, ModelError> {
        self.opt(key, boolean, "a boolean")
    }

    /// An optional object.
    pub(crate) fn object(&mut self, key: &str) -> Result<Option<JsonObject>, ModelError> {
        self.opt(key, object, "an object")
    }

    /// An optional value of any type (`null` counts as absent).
    pub(crate) fn value(&mut self, key: &str) -> Option<Value> {
        match self.0.shift_remove(key) {
            None | Some(Value::Null) => None,
            v => v,
        }
    }

    /// Member `key` exactly as sent, `null` included (for members whose type
    /// reads any JSON, as a content block does).
    pub(crate) fn raw(&mut self, key: &str) -> Option<Value> {
        self.0.shift_remove(key)
    }

    /// `_meta`, as every model type has it.
    pub(crate) fn meta(&mut self) -> Result<Option<JsonObject>, ModelError> {
        self.object("_meta")
    }

    /// The members not taken.
    pub(crate) fn rest(self) -> JsonObject {
        self.0
    }
}

/// A string, or the value back.
pub(crate) fn string(v: Value) -> Result<String, Value> {
    match v {
        Value::String(s) => Ok(s),
        other => Err(other),
    }
}

/// A boolean, or the value back.
pub(crate) fn boolean(v: Value) -> Result<bool, Value> {
    v.as_bool().ok_or(v)
}

/// An object, or the value back.
pub(crate) fn object(v: Value) -> Result<JsonObject, Value> {
    match v {
        Value::Object(m) => Ok(m),
        other => Err(other),
    }
}

/// An array, or the value back.
pub(crate) fn array(v: Value) -> Result<Vec<Value>, Value> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(other),
    }
}

/// An array of strings, or the value back.
pub(crate) fn strings(v: Value) -> Result<Vec<String>, Value> {
    match &v {
        Value::Array(a) if a.iter().all(Value::is_string) => Ok(a
            .iter()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()),
        _ => Err(v),
    }
}

/// A JSON object being written member by member, in declaration order.
#[derive(Default)]
pub(crate) struct Out(JsonObject);

impl Out {
    /// Writes `key`.
    pub(crate) fn put(&mut self, key: &str, v: Value) -> &mut Self {
        self.0.insert(key.to_owned(), v);
        self
    }

    /// Writes `key` unless `v` is `None` (serde's `skip_serializing_if = "Option::is_none"`).
    pub(crate) fn opt(&mut self, key: &str, v: Option<Value>) -> &mut Self {
        if let Some(v) = v {
            self.0.insert(key.to_owned(), v);
        }
        self
    }

    /// Writes a string.
    pub(crate) fn str(&mut self, key: &str, v: &str) -> &mut Self {
        self.put(key, Value::from(v))
    }

    /// Writes an optional string.
    pub(crate) fn string(&mut self, key: &str, v: &Option<String>) -> &mut Self {
        self.opt(key, v.clone().map(Value::String))
    }

    /// Writes `_meta` when present.
    pub(crate) fn meta(&mut self, meta: &Option<JsonObject>) -> &mut Self {
        self.opt("_meta", meta.clone().map(Value::Object))
    }

    /// The object, with `extra` appended (serde's `flatten` puts it last too).
    pub(crate) fn with(&mut self, extra: &JsonObject) -> Value {
        let mut m = std::mem::take(&mut self.0);
        m.extend(extra.iter().map(|(k, v)| (k.clone(), v.clone())));
        Value::Object(m)
    }
}

/// Implements `from_json` (borrowed: one copy, then `from_value`) and serde's traits
/// for a model type through its `from_value` / `to_json`.
macro_rules! via_json {
    ($($t:ty),*) => {$(
        impl $t {
            /// Reads it from borrowed JSON: one copy, then `from_value` (which takes
            /// the JSON by value and copies nothing).
            pub fn from_json(v: &Value) -> Result<Self, $crate::model::ModelError> {
                <$t>::from_value(v.clone())
            }
        }

        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                serde::Serialize::serialize(&self.to_json(), s)
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let v = <Value as serde::Deserialize>::deserialize(d)?;
                <$t>::from_value(v).map_err(serde::de::Error::custom)
            }
        }
    )*};
}
pub(crate) use via_json;
