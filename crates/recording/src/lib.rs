//! A recording: everything needed to replay a playground session exactly,
//! and nothing secret. Shared in a link (compressed, base64url, in the URL fragment,
//! which never reaches a server) or as a file.
//!
//! A link is untrusted input. Decoding checks size before and after inflating,
//! refuses future versions, migrates old ones, and validates every field, so a bad
//! link gives one clear [`LinkError`] and nothing else happens. Nothing here does I/O.

mod codec;
pub mod diff;
mod doc;
mod json;
pub mod mock;
mod rehydrate;
mod secret;
mod seed;
mod validate;

pub use codec::{
    Imported, LINK_PREFIX, MAX_INFLATED_BYTES, MAX_LINK_CHARS, decode_file, decode_json,
    decode_link, encode_file, encode_link, link_body, link_from_deflated, link_payload,
    read_imported,
};
pub use doc::{
    Connection, Direction, ModelChoice, Recording, SCHEMA_VERSION, WireRecord, fingerprint,
};
pub use rehydrate::rehydrate_with;
pub use secret::SECRET_KEYS;
pub use seed::{SeedRole, SeedTurn};
pub use validate::LinkError;
