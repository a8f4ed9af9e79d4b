//! Numbers as text, without `core::fmt`'s float formatting.
//!
//! `format!("{x}")` on an `f64` links the standard library's float printer (Grisu and
//! Dragon4 with their tables) into the page. serde_json already carries a
//! shortest-round-trip printer for JSON numbers, so every number the playground shows
//! goes through it instead, and reads exactly as the same number in the wire JSON.
//! (Measured with the last typed `serde_json::from_str` gone too: 414.5 → 403.0 KB
//! gzipped.)

use std::time::Duration;

/// A number as JSON would print it, without a trailing `.0` when it is whole:
/// `3` → "3", `2.5` → "2.5", `-0.1` → "-0.1"; "NaN", "inf" and "-inf" for the values
/// JSON cannot carry.
pub fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        return "NaN".to_owned();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_owned();
    }
    if x.fract() == 0.0 && x.abs() < 1e15 {
        // Whole and exactly representable as an integer: print it as one.
        return (x as i64).to_string();
    }
    serde_json::Number::from_f64(x).map_or_else(String::new, |n| n.to_string())
}

/// `x` rounded to `places` decimals (at most 6), then printed by [`fmt_num`]:
/// `fmt_rounded(37.777, 2)` → "37.78", `fmt_fixed(3.5, 2)` → "3.5".
pub fn fmt_rounded(x: f64, places: u32) -> String {
    let scale = f64::from(10u32.pow(places.min(6)));
    fmt_num((x * scale).round() / scale)
}

/// A duration in seconds: `Duration::from_millis(1500)` → "1.5".
pub fn fmt_secs(d: Duration) -> String {
    fmt_num(d.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_have_no_fraction() {
        assert_eq!(fmt_num(3.0), "3");
        assert_eq!(fmt_num(-0.0), "0");
        assert_eq!(fmt_num(1e14), "100000000000000");
    }

    #[test]
    fn fractions_print_shortest() {
        assert_eq!(fmt_num(2.5), "2.5");
        assert_eq!(fmt_num(-0.1), "-0.1");
        assert_eq!(fmt_num(0.1 + 0.2), "0.30000000000000004");
    }

    #[test]
    fn values_json_cannot_carry_are_named() {
        assert_eq!(fmt_num(f64::NAN), "NaN");
        assert_eq!(fmt_num(f64::INFINITY), "inf");
        assert_eq!(fmt_num(f64::NEG_INFINITY), "-inf");
    }

    #[test]
    fn rounding_and_seconds() {
        assert_eq!(fmt_rounded(37.777, 2), "37.78");
        assert_eq!(fmt_rounded(3.5, 2), "3.5");
        assert_eq!(fmt_rounded(-1.234, 1), "-1.2");
        assert_eq!(fmt_secs(Duration::from_millis(1500)), "1.5");
        assert_eq!(fmt_secs(Duration::from_secs(30)), "30");
    }

    #[test]
    fn agrees_with_the_standard_printer() {
        for x in [0.5, 1.25, 123.456, 1e-7, 6.02e23, -42.125] {
            let ours: f64 = fmt_num(x).parse().unwrap();
            assert_eq!(ours, x, "{x}");
        }
    }
}
