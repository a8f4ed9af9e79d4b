//! One page of `skills/list` (or a `skills/get` answer): each entry checked on its
//! own, so one invalid entry does not hide the others.

use serde_json::Value;

use crate::entry::{EntryError, Skill};

/// A page of `skills/list`, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    /// Every entry in order: checked, or why it must not be loaded (with the
    /// entry's `uri` when it had one).
    pub entries: Vec<Result<Skill, (Option<String>, EntryError)>>,
    /// The cursor of the next page.
    pub next_cursor: Option<String>,
    /// The freshness hint (`ttlMs`), required by the spec.
    pub ttl_ms: Option<u64>,
}

/// Why an answer is not a `skills/list` or `skills/get` result at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ListError {
    /// No `skills` array (or no `skill` object).
    #[error("the result has no {0}")]
    Missing(&'static str),
    /// The cursor is not a string.
    #[error("nextCursor is not a string")]
    BadCursor,
}

impl Listing {
    /// Reads a `skills/list` result.
    pub fn from_result(result: &Value) -> Result<Listing, ListError> {
        let skills = result
            .get("skills")
            .and_then(Value::as_array)
            .ok_or(ListError::Missing("skills array"))?;
        let next_cursor = match result.get("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c.clone()),
            Some(_) => return Err(ListError::BadCursor),
        };
        Ok(Listing {
            entries: skills.iter().map(checked).collect(),
            next_cursor,
            ttl_ms: result.get("ttlMs").and_then(Value::as_u64),
        })
    }

    /// Reads a `skills/get` result: its one entry.
    pub fn skill_of(result: &Value) -> Result<Result<Skill, EntryError>, ListError> {
        let skill = result
            .get("skill")
            .filter(|s| s.is_object())
            .ok_or(ListError::Missing("skill object"))?;
        Ok(Skill::from_value(skill))
    }
}

fn checked(v: &Value) -> Result<Skill, (Option<String>, EntryError)> {
    Skill::from_value(v).map_err(|e| {
        let uri = v.get("uri").and_then(Value::as_str).map(str::to_owned);
        (uri, e)
    })
}
