//! `num` against std's float printer, over generated doubles: the hand-written
//! printer must say the same number std says, in the same words where it claims to.
#![cfg(not(target_arch = "wasm32"))]

use mcpg_text::num::{fmt_num, fmt_rounded};
use proptest::prelude::*;

/// Any finite double, from its bits (subnormals, huge and tiny magnitudes included).
fn finite() -> impl Strategy<Value = f64> {
    any::<u64>()
        .prop_map(f64::from_bits)
        .prop_filter("finite", |x| x.is_finite())
}

/// Doubles of the sizes people see (temperatures, timestamps, progress).
fn everyday() -> impl Strategy<Value = f64> {
    prop_oneof![
        (-1e9..1e9f64),
        (-1000i64..1000).prop_map(|k| k as f64 / 8.0), // exact binary ties
        (-100_000i64..100_000).prop_map(|k| k as f64 / 1000.0),
    ]
}

/// (negative, significant digits, exponent of the first digit) of std's `{:e}`.
fn std_digits(x: f64) -> (bool, String, i32) {
    let s = format!("{x:e}");
    let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    (negative, digits, exp.parse().unwrap_or(0))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Same value, and the same shortest digits, as std prints.
    #[test]
    fn fmt_num_says_the_number_std_says(x in finite()) {
        let ours = fmt_num(x);
        let back: f64 = ours.parse().map_err(|e| TestCaseError::fail(format!("{ours}: {e}")))?;
        prop_assert_eq!(back, x, "{} read back as {}", ours, back);
        let ours_digits = std_digits(back);
        prop_assert_eq!(ours_digits, std_digits(x));
        // Where ours has no exponent, it must be std's Display text (but negative
        // zero, which ours prints as "0" on purpose). When the value lies exactly
        // between two shortest spellings (…715.25 at a 0.25 spacing), serde_json's
        // printer takes the even digit and std the other: equally short, and both
        // read back as x, which is the claim.
        let theirs = format!("{x}");
        if !ours.contains('e') && x != 0.0 && ours != theirs {
            prop_assert_eq!(ours.len(), theirs.len(), "{} vs std {}", ours, theirs);
            prop_assert_eq!(theirs.parse::<f64>().ok(), Some(x));
        }
    }

    /// Everyday numbers print exactly as std's Display does, but for a value that
    /// lies exactly between two shortest spellings (-692840364.31640625 is
    /// both …3164062 and …3164063 at 17 digits): serde_json's printer takes the even
    /// digit and std the other, so there ours must be as short, differ only in the
    /// last digit, and read back as x.
    #[test]
    fn fmt_num_matches_std_display_on_everyday_numbers(x in everyday()) {
        let expected = if x == 0.0 { "0".to_owned() } else { format!("{x}") };
        let ours = fmt_num(x);
        if ours != expected {
            let (a, b) = (ours.as_bytes(), expected.as_bytes());
            prop_assert_eq!(a.len(), b.len(), "{} vs std {}", ours, expected);
            prop_assert_eq!(&a[..a.len() - 1], &b[..b.len() - 1], "{} vs std {}", ours, expected);
            prop_assert_eq!(ours.parse::<f64>().ok(), Some(x), "{} does not read back", ours);
        }
    }

    /// Rounding is std's `{:.N}`: same value (ours drops trailing zeros).
    #[test]
    fn fmt_rounded_rounds_like_std(x in prop_oneof![finite(), everyday()], places in 0u32..=6) {
        let ours = fmt_rounded(x, places);
        let theirs = format!("{x:.prec$}", prec = places as usize);
        let a: f64 = ours.parse().map_err(|e| TestCaseError::fail(format!("{ours}: {e}")))?;
        let b: f64 = theirs.parse().map_err(|e| TestCaseError::fail(format!("{theirs}: {e}")))?;
        prop_assert_eq!(a, b, "{} vs std {}", ours, theirs);
    }
}

/// The tie `fmt_num_matches_std_display_on_everyday_numbers` allows, pinned so it
/// cannot widen unnoticed (a proptest failure with a random seed found it).
#[test]
fn a_tie_differs_only_in_its_last_digit() {
    let x = -692840364.3164063f64;
    assert_eq!(format!("{x}"), "-692840364.3164063");
    assert_eq!(fmt_num(x), "-692840364.3164062");
    assert_eq!(fmt_num(x).parse::<f64>().ok(), Some(x));
}
