//! The page's clock: `performance.now()`, milliseconds since navigation. It is the
//! core's [`Timestamp`] and the time shown in the wire log.

use mcpg_core::Timestamp;

/// Milliseconds since navigation.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Records the time since navigation on `<body>` as `attribute`, for the e2e run to
/// print (the first tool list; the loop's controls once their chunk is in).
pub fn mark_body(attribute: &str) {
    if let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    {
        let _ = body.set_attribute(attribute, &mcpg_text::num::fmt_rounded(now_ms(), 1));
    }
}

/// The same instant as the core's timestamp (whole milliseconds).
pub fn now() -> Timestamp {
    Timestamp::from_millis(now_ms().max(0.0) as u64)
}

/// A fresh id for a bridge side channel: unique enough per page, no randomness crate.
pub fn channel_id() -> String {
    let r = (js_sys::Math::random() * 1e12) as u64;
    format!("page-{:x}-{:x}", now_ms() as u64, r)
}
