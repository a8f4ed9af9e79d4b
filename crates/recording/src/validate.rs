//! Everything a link or file must satisfy before the page uses it.

use serde_json::Value;

use crate::doc::{Connection, Recording};
use crate::secret::is_secret_key;
use crate::seed::check_seeds;

/// Why a link or file cannot be opened. Each message says what happened in words a
/// learner can act on.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum LinkError {
    /// Not a playground session link at all.
    #[error("this is not a playground session link")]
    NotASession,
    /// Too long to be a link this playground made.
    #[error("the link is too large ({0} characters); sessions this large travel as files")]
    TooLarge(usize),
    /// The base64 text is damaged.
    #[error("the link is corrupted (it is not valid base64url): it may have been cut or changed")]
    Corrupted,
    /// The compressed data ends early or is damaged.
    #[error("the link is truncated or damaged: its compressed data does not unpack")]
    Truncated,
    /// Unpacks to more than the limit (a compression bomb or a huge session).
    #[error("the session unpacks to more than {0} bytes; it was refused")]
    Bomb(usize),
    /// Not the session format.
    #[error("the session could not be read: {0}")]
    Malformed(String),
    /// Written by a newer playground.
    #[error(
        "this session was made by a newer playground (format version {found}; this one reads up to {supported}); please update"
    )]
    FutureVersion {
        /// The document's version.
        found: u32,
        /// The newest this build reads.
        supported: u32,
    },
    /// A field breaks a rule.
    #[error("the session has an invalid field: {0}")]
    Invalid(String),
}

/// Limits on what a session may hold, against hostile links.
const MAX_ITEMS: usize = 10_000;
const MAX_NAME: usize = 128;

/// Checks every field of a decoded session.
pub(crate) fn check(s: &Recording) -> Result<(), LinkError> {
    let bad = |m: String| Err(LinkError::Invalid(m));
    match &s.connection {
        Connection::Embedded => {}
        Connection::Bridge { server: name } | Connection::Relay { remote: name } => {
            let server = name;
            let ok = !server.is_empty()
                && server.len() <= MAX_NAME
                && server
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b));
            if !ok {
                return bad(
                    "the bridge server or remote name must be 1–128 characters of A–Z, a–z, 0–9, _ - ."
                        .into(),
                );
            }
        }
        Connection::Url { url } => {
            let lower = url.to_ascii_lowercase();
            if !(lower.starts_with("http://") || lower.starts_with("https://"))
                || url.len() > 2048
                || url.chars().any(char::is_control)
            {
                return bad("the server URL must be an http:// or https:// URL".into());
            }
        }
    }
    if let Some(k) = s.model.settings.keys().find(|k| is_secret_key(k)) {
        return bad(format!(
            "model setting {k:?} looks like a secret; sessions never carry secrets"
        ));
    }
    if s.model.kind.len() > MAX_NAME
        || !s
            .model
            .kind
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
    {
        return bad("the model kind must be a short identifier".into());
    }
    if s.messages.len() > MAX_ITEMS
        || s.wire.len() > MAX_ITEMS
        || s.steps.len() > MAX_ITEMS
        || s.script.len() > MAX_ITEMS
    {
        return bad(format!("more than {MAX_ITEMS} entries in one list"));
    }
    check_seeds(&s.seeds, s.messages.len()).map_err(LinkError::Invalid)?;
    for (i, w) in s.wire.iter().enumerate() {
        match (&w.text, &w.hash) {
            (Some(_), _) => {}
            (None, Some(h)) if h.len() == 16 && h.bytes().all(|b| b.is_ascii_hexdigit()) => {}
            _ => {
                return bad(format!(
                    "wire message {i} has neither its text nor a valid fingerprint"
                ));
            }
        }
    }
    if s.cursor > s.steps.len() {
        return bad(format!(
            "the current step ({}) is past the last step ({})",
            s.cursor,
            s.steps.len()
        ));
    }
    Ok(())
}

/// Brings an older document up to [`crate::SCHEMA_VERSION`]. Version 2 only added
/// `seeds`, which version 1 never wrote: a version-1 document loses any `seeds`
/// member (it was an unknown member then, so it means nothing) and becomes version 2.
pub(crate) fn migrate(mut doc: Value) -> Result<Value, LinkError> {
    let v = doc
        .get("v")
        .and_then(Value::as_u64)
        .ok_or(LinkError::NotASession)?;
    let v = u32::try_from(v).unwrap_or(u32::MAX);
    if v > crate::SCHEMA_VERSION {
        return Err(LinkError::FutureVersion {
            found: v,
            supported: crate::SCHEMA_VERSION,
        });
    }
    if v == 0 {
        return Err(LinkError::Invalid("format version 0 does not exist".into()));
    }
    if v == 1
        && let Some(o) = doc.as_object_mut()
    {
        o.remove("seeds");
        o.insert("v".into(), Value::from(crate::SCHEMA_VERSION));
    }
    Ok(doc)
}
