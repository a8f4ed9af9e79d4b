//! Numbers in the core's own messages (timeouts, progress), printed through
//! serde_json's shortest round-trip printer: `format!("{x}")` on an `f64` would link
//! `core::fmt`'s float printer into the page. The public, tested twin of these two
//! lives in `mcpg_text::num`; the core cannot depend on it (serde, serde_json,
//! thiserror and base64 only), so it keeps this copy of the two it needs.

use std::time::Duration;

/// A number as JSON would print it, whole numbers without `.0`.
pub(crate) fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    if x.fract() == 0.0 && x.abs() < 1e16 {
        return (x as i64).to_string();
    }
    serde_json::Number::from_f64(x).map_or_else(String::new, |n| n.to_string())
}

/// A duration in seconds: 1500 ms → "1.5".
pub(crate) fn fmt_secs(d: Duration) -> String {
    fmt_num(d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_and_progress_print_like_json() {
        assert_eq!(fmt_secs(Duration::from_millis(1500)), "1.5");
        assert_eq!(fmt_secs(Duration::from_secs(30)), "30");
        assert_eq!(fmt_num(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(fmt_num(f64::NEG_INFINITY), "-inf");
    }
}
