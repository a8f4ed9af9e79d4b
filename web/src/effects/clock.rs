//! The page's clock: `performance.now()`, milliseconds since navigation. It is the
//! core's [`Timestamp`] and the time shown in the wire log.

use mcpg_core::Timestamp;

/// Milliseconds since navigation.
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
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
