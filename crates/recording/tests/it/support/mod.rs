//! Helpers shared by the session tests.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// A link fragment for `doc` as any deflater would make it (not the crate's own
/// encoder), so tests can hand-craft documents the encoder would never write.
pub fn pack(doc: &serde_json::Value) -> String {
    format!(
        "s1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(
            doc.to_string().as_bytes(),
            6
        ))
    )
}
