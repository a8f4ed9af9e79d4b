//! Small readers shared by the types of this crate.

use serde_json::{Map, Value};

/// Why a side-channel event or a server list could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WireError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// The JSON is not an object.
    #[error("expected a JSON object")]
    NotObject,
    /// A member is missing or has the wrong type.
    #[error("`{member}` must be {expected}")]
    Member {
        /// The member's name.
        member: &'static str,
        /// What it must be, in words ("a string").
        expected: &'static str,
    },
    /// A side event of a `type` this version does not know.
    #[error("unknown side-channel event type {0:?}")]
    UnknownType(String),
}

pub(crate) fn object(v: &Value) -> Result<&Map<String, Value>, WireError> {
    v.as_object().ok_or(WireError::NotObject)
}

pub(crate) fn string(o: &Map<String, Value>, member: &'static str) -> Result<String, WireError> {
    o.get(member)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or(WireError::Member {
            member,
            expected: "a string",
        })
}

/// An optional integer member: absent and `null` read as `None`.
pub(crate) fn opt_int<T: TryFrom<i64>>(
    o: &Map<String, Value>,
    member: &'static str,
) -> Result<Option<T>, WireError> {
    match o.get(member) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .and_then(|n| T::try_from(n).ok())
            .map(Some)
            .ok_or(WireError::Member {
                member,
                expected: "an integer in range",
            }),
    }
}

pub(crate) fn int<T: TryFrom<i64>>(
    o: &Map<String, Value>,
    member: &'static str,
) -> Result<T, WireError> {
    opt_int(o, member)?.ok_or(WireError::Member {
        member,
        expected: "an integer",
    })
}

pub(crate) fn parse(text: &str) -> Result<Value, WireError> {
    serde_json::from_str(text).map_err(|e| WireError::NotJson(e.to_string()))
}
