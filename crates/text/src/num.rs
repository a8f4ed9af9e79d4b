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
    if x.fract() == 0.0 && x.abs() < 1e16 {
        // Whole: print it as an integer. serde_json would add ".0" below 1e16 (and
        // switch to "1e16" above, where std too would differ only in notation).
        return (x as i64).to_string();
    }
    serde_json::Number::from_f64(x).map_or_else(String::new, |n| n.to_string())
}

/// `x` rounded to `places` decimals (at most 6), then printed by [`fmt_num`]:
/// `fmt_rounded(37.777, 2)` → "37.78", `fmt_rounded(3.5, 2)` → "3.5". The rounding
/// is std's (`format!("{:.2}")`): of the exact binary value, ties to even, so
/// `fmt_rounded(0.125, 2)` → "0.12".
pub fn fmt_rounded(x: f64, places: u32) -> String {
    fmt_num(round_to(x, places.min(6)))
}

/// `x` rounded to `places` (≤ 6) decimals exactly. `(x * scale).round()` is not
/// enough: the product is itself rounded (1.0049999… × 100 can land on 100.5) and
/// `round` breaks ties away from zero where std breaks them to even.
fn round_to(x: f64, places: u32) -> f64 {
    let scale = 10u64.pow(places);
    // A double is m · 2^e with m < 2^53; scaled, m · scale < 2^73 fits in a u128.
    let bits = x.abs().to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (m, e) = match biased {
        0x7ff => return x, // NaN and the infinities
        0 => (fraction, -1074),
        _ => (fraction | (1 << 52), biased - 1075),
    };
    if e >= 0 {
        return x; // already whole
    }
    let shift = e.unsigned_abs();
    if shift > 74 {
        // m · scale < 2^73 is below half a unit: rounds to zero.
        return 0.0_f64.copysign(x);
    }
    let n = u128::from(m) * u128::from(scale);
    let mut k = n >> shift;
    let rest = n - (k << shift);
    // Nothing past `places`; or k ≥ 2^53, where x's own spacing (2^e > 1/scale) is
    // coarser than the rounding, so x is already the double nearest to k / scale.
    if rest == 0 || k >= 1 << 53 {
        return x;
    }
    let half = 1u128 << (shift - 1);
    if rest > half || (rest == half && k & 1 == 1) {
        k += 1;
    }
    // k ≤ 2^53: both conversions are exact and the division gives the double
    // nearest to k / scale, which is what std's decimal text reads back as.
    (k as f64 / scale as f64).copysign(x)
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
        assert_eq!(fmt_num(1345858684543510.0), "1345858684543510");
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
        assert_eq!(fmt_rounded(0.125, 2), "0.12");
        assert_eq!(fmt_rounded(0.375, 2), "0.38");
        assert_eq!(fmt_rounded(2.5, 0), "2");
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
