//! Letter case and word characters without the standard library's Unicode tables.
//!
//! `str::to_lowercase`, `to_uppercase` and `char::is_alphanumeric` link Unicode tables
//! of about 35 KB, which cost the page ~19 KB of gzipped wasm (measured: 450.6 →
//! 431.5 KB). The playground only needs case to match words loosely (the mock model,
//! the tools filter) and to shout in the demo, so these functions map case by
//! arithmetic for the scripts a workshop is likely to type: ASCII, Latin-1, Latin
//! Extended-A, basic Greek and basic Cyrillic. Other letters keep their case, and
//! every non-ASCII character that is not whitespace or punctuation counts as a letter.

/// `c` in lower case where this module knows its case (see the module doc), else `c`.
pub fn lower_char(c: char) -> char {
    let u = c as u32;
    let even = u & 1 == 0;
    let mapped = match u {
        0x41..=0x5A | 0xC0..=0xD6 | 0xD8..=0xDE | 0x391..=0x3A1 | 0x3A3..=0x3AB => u + 0x20,
        // 0x130 (İ) lowers to two characters.
        0x100..=0x137 | 0x14A..=0x177 if even && u != 0x130 => u + 1,
        0x139..=0x148 | 0x179..=0x17E if !even => u + 1,
        0x178 => 0xFF,
        0x386 => 0x3AC,
        0x388..=0x38A => u + 0x25,
        0x38C => 0x3CC,
        0x38E..=0x38F => u + 0x3F,
        0x400..=0x40F => u + 0x50,
        0x410..=0x42F => u + 0x20,
        _ => u,
    };
    char::from_u32(mapped).unwrap_or(c)
}

/// `c` in upper case where this module knows its case (see the module doc), else `c`.
/// Letters whose capital is two letters (`ß` → `SS`) keep their case.
pub fn upper_char(c: char) -> char {
    let u = c as u32;
    let even = u & 1 == 0;
    let mapped = match u {
        0x61..=0x7A | 0xE0..=0xF6 | 0xF8..=0xFE | 0x3B1..=0x3C1 | 0x3C3..=0x3CB => u - 0x20,
        0x3C2 => 0x3A3, // final sigma
        0xB5 => 0x39C,  // micro sign → capital mu, as Unicode says
        0xFF => 0x178,
        0x131 => 0x49, // dotless i
        0x17F => 0x53, // long s
        0x101..=0x138 | 0x14B..=0x178 if !even && u != 0x131 && u != 0x138 => u - 1,
        0x13A..=0x149 | 0x17A..=0x17F if even && u != 0x149 && u != 0x17F => u - 1,
        0x3AC => 0x386,
        0x3AD..=0x3AF => u - 0x25,
        0x3CC => 0x38C,
        0x3CD..=0x3CE => u - 0x3F,
        0x430..=0x44F => u - 0x20,
        0x450..=0x45F => u - 0x50,
        _ => u,
    };
    char::from_u32(mapped).unwrap_or(c)
}

/// `s` in lower case, letter by letter ([`lower_char`]).
pub fn to_lower(s: &str) -> String {
    s.chars().map(lower_char).collect()
}

/// `s` in upper case, letter by letter ([`upper_char`]).
pub fn to_upper(s: &str) -> String {
    s.chars().map(upper_char).collect()
}

/// Whether `c` is a capital this module knows.
pub fn is_upper(c: char) -> bool {
    lower_char(c) != c
}

/// Whether `c` is a small letter this module knows.
pub fn is_lower(c: char) -> bool {
    upper_char(c) != c
}

/// Whether `c` belongs in a word: an ASCII letter or digit, or any other non-ASCII
/// character that is neither whitespace nor common punctuation, symbols or emoji (so
/// "São", "Zürich", "東京" and "Москва" stay whole words, and "Paris🌧" is "Paris").
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    !c.is_whitespace()
        && !matches!(c,
            '\u{A0}'..='\u{BF}' // Latin-1 punctuation and symbols (« » ¿ ° …)
            | '\u{D7}' | '\u{F7}' // × ÷
            | '\u{2000}'..='\u{2BFF}' // general punctuation, arrows, maths, shapes
            | '\u{3000}'..='\u{303F}' // CJK punctuation
            | '\u{FF00}'..='\u{FF0F}' // full-width punctuation
            | '\u{FE00}'..='\u{FE0F}' // variation selectors (emoji presentation)
            | '\u{1F000}'..='\u{1FAFF}' // emoji and pictographs
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocks this module claims to know, where it must agree with the standard
    /// library for every letter whose case maps to one letter.
    const KNOWN: [(u32, u32); 5] = [
        (0x00, 0x7F),
        (0x80, 0xFF),
        (0x100, 0x17F),
        (0x386, 0x3CE),
        (0x400, 0x45F),
    ];

    fn single(mut it: impl Iterator<Item = char>) -> Option<char> {
        let c = it.next()?;
        it.next().is_none().then_some(c)
    }

    #[test]
    fn agrees_with_std_on_the_known_blocks() {
        for (lo, hi) in KNOWN {
            for c in (lo..=hi).filter_map(char::from_u32) {
                if let Some(l) = single(c.to_lowercase()) {
                    assert_eq!(lower_char(c), l, "lower U+{:04X}", c as u32);
                }
                if let Some(u) = single(c.to_uppercase()) {
                    assert_eq!(upper_char(c), u, "upper U+{:04X}", c as u32);
                } else {
                    assert_eq!(upper_char(c), c, "U+{:04X} keeps its case", c as u32);
                }
            }
        }
    }

    #[test]
    fn never_maps_outside_what_std_would_do() {
        for c in (0..0x3_0000).filter_map(char::from_u32) {
            let l = lower_char(c);
            if l != c {
                assert_eq!(single(c.to_lowercase()), Some(l), "U+{:04X}", c as u32);
            }
            let u = upper_char(c);
            if u != c {
                assert_eq!(single(c.to_uppercase()), Some(u), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn strings() {
        assert_eq!(
            to_lower("Get_Weather in SÃO PAULO, ZÜRICH"),
            "get_weather in são paulo, zürich"
        );
        assert_eq!(
            to_upper("straße, Łódź, αθήνα, москва"),
            "STRAßE, ŁÓDŹ, ΑΘΉΝΑ, МОСКВА"
        );
        assert!(is_upper('Ž') && is_lower('ž') && !is_upper('7') && !is_lower('東'));
    }

    #[test]
    fn words() {
        for c in ['a', 'Z', '7', 'ã', 'ü', '東', 'Ж'] {
            assert!(is_word_char(c), "{c}");
        }
        for c in [
            ' ', '-', '_', '.', '\u{A0}', '«', '¿', '—', '→', '、', '\u{3000}',
        ] {
            assert!(!is_word_char(c), "{c}");
        }
    }
}
