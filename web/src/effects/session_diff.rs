//! Comparing two sessions (Share → Compare two sessions): both texts decoded as
//! an import decodes them (a session file or a link, inflated by the browser),
//! then compared by `mcpg_page_later::session_diff`, the comparison `mcpg diff`
//! prints. Only the session diff's panel calls these (`components/session_diff.rs`,
//! part of the later parts' chunk), so none of it is in the first load.

use mcpg_page_later::session_diff::{Compared, compare as compare_sessions};
use mcpg_recording::encode_file;

use super::share::{decode_file_in_browser, record};

/// Compares the session in text `a` with the one in text `b` (each a session
/// file's JSON or a link). `Err` is for the learner: which side, and why.
pub async fn compare(a: String, b: String) -> Result<Compared, String> {
    let read = |which: &'static str, e: mcpg_recording::LinkError| {
        format!("session {which} cannot be read: {e}")
    };
    let a = decode_file_in_browser(&a).await.map_err(|e| read("A", e))?;
    let b = decode_file_in_browser(&b).await.map_err(|e| read("B", e))?;
    compare_sessions(a, b)
}

/// This page's own session as a session file's text (what Export downloads).
pub fn page_session() -> String {
    encode_file(&record())
}

/// A picked session file's text, refused above the size a session may unpack to.
pub async fn file_text(file: web_sys::File) -> Result<String, String> {
    if file.size() > mcpg_recording::MAX_INFLATED_BYTES as f64 {
        return Err(format!(
            "this file is larger than {} bytes, more than any session",
            mcpg_recording::MAX_INFLATED_BYTES
        ));
    }
    wasm_bindgen_futures::JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|v| v.as_string())
        .ok_or_else(|| "the browser could not read this file as text".to_owned())
}
