//! Link and file encodings. A link fragment is `#s1.` followed by the session JSON,
//! deflated (raw, level 9) and base64url-encoded without padding. A file is the
//! session as pretty JSON.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::Value;

use crate::doc::Recording;
use crate::validate::{LinkError, check, migrate};

/// What a session fragment starts with (`s` + the link encoding's version + `.`).
pub const LINK_PREFIX: &str = "s1.";

/// The longest link fragment accepted (browsers and chat apps cut long URLs).
pub const MAX_LINK_CHARS: usize = 64 * 1024;

/// The most a link or file may unpack to.
pub const MAX_INFLATED_BYTES: usize = 4 * 1024 * 1024;

/// Encodes `session` as a URL fragment (without the `#`). Secrets are stripped first.
pub fn encode_link(session: &Recording) -> String {
    link_from_deflated(&miniz_oxide::deflate::compress_to_vec(
        &link_payload(session),
        9,
    ))
}

/// What a link compresses: the session, secrets stripped, as compact JSON. With
/// [`link_from_deflated`], lets a page deflate with the browser's own
/// `CompressionStream("deflate-raw")` instead of carrying a compressor.
pub fn link_payload(session: &Recording) -> Vec<u8> {
    let mut s = session.clone();
    s.redact();
    serde_json::to_vec(&s.to_json()).unwrap_or_default()
}

/// The link fragment (without `#`) for a [`link_payload`] compressed with raw deflate.
pub fn link_from_deflated(packed: &[u8]) -> String {
    [LINK_PREFIX, &URL_SAFE_NO_PAD.encode(packed)].concat()
}

/// Decodes a URL fragment (with or without `#`, with or without a `s=` key).
pub fn decode_link(fragment: &str) -> Result<Recording, LinkError> {
    let body = link_body(fragment)?;
    let packed = URL_SAFE_NO_PAD
        .decode(body)
        .map_err(|_| LinkError::Truncated)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => LinkError::Bomb(MAX_INFLATED_BYTES),
            _ => LinkError::Truncated,
        })?;
    decode_json(&json)
}

/// The first half of [`decode_link`]: checks a fragment's size, prefix and alphabet and
/// returns its base64url body. A page can then decode and inflate with the browser's
/// own `atob` and `DecompressionStream` (at most [`MAX_INFLATED_BYTES`]; a base64 or
/// inflate failure is [`LinkError::Truncated`], a larger result [`LinkError::Bomb`])
/// and finish with [`decode_json`].
pub fn link_body(fragment: &str) -> Result<&str, LinkError> {
    let f = fragment.trim();
    let f = f.strip_prefix('#').unwrap_or(f);
    let f = f.strip_prefix("s=").unwrap_or(f);
    if f.len() > MAX_LINK_CHARS {
        return Err(LinkError::TooLarge(f.len()));
    }
    let body = f.strip_prefix(LINK_PREFIX).ok_or(LinkError::NotASession)?;
    let body = body.trim_end_matches('=');
    // With every character base64url, only the length or the last character's spare
    // bits can be wrong, which means the link was cut: that is worth saying.
    if body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(body)
    } else {
        Err(LinkError::Corrupted)
    }
}

/// Encodes `session` as a file (pretty JSON). Secrets are stripped first.
pub fn encode_file(session: &Recording) -> String {
    let mut s = session.clone();
    s.redact();
    serde_json::to_string_pretty(&s.to_json()).unwrap_or_default()
}

/// What an imported or pasted text holds.
#[derive(Debug)]
pub enum Imported<'a> {
    /// A session file, decoded.
    File(Box<Recording>),
    /// A link's fragment (after `#`, or the whole text), still to decode.
    Link(&'a str),
}

/// Tells a session file from a link and decodes the file; a link's fragment is
/// returned for the caller's link decoder (the page inflates with the browser's own).
pub fn read_imported(text: &str) -> Result<Imported<'_>, LinkError> {
    let t = text.trim();
    if t.starts_with('{') {
        if t.len() > MAX_INFLATED_BYTES {
            return Err(LinkError::Bomb(MAX_INFLATED_BYTES));
        }
        return decode_json(t.as_bytes()).map(|s| Imported::File(Box::new(s)));
    }
    Ok(Imported::Link(t.rsplit_once('#').map_or(t, |(_, f)| f)))
}

/// Decodes a session file (or a pasted link: both are accepted).
pub fn decode_file(text: &str) -> Result<Recording, LinkError> {
    match read_imported(text)? {
        Imported::File(s) => Ok(*s),
        Imported::Link(fragment) => decode_link(fragment),
    }
}

/// Reads a session from the JSON a link unpacks to or a file holds: migrated from an
/// older version, refused when newer, every field validated.
pub fn decode_json(bytes: &[u8]) -> Result<Recording, LinkError> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| LinkError::Malformed("the session is not UTF-8 text".into()))?;
    // `from_str`, not `from_slice`: the page already carries that parser.
    let doc: Value = serde_json::from_str(text).map_err(|e| LinkError::Malformed(e.to_string()))?;
    if !doc.is_object() {
        return Err(LinkError::NotASession);
    }
    let doc = migrate(doc)?;
    let s = Recording::from_json(&doc).map_err(LinkError::Malformed)?;
    check(&s)?;
    Ok(s)
}
