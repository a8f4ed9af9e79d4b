//! Small, dependency-free text helpers for the mock model: words, stems, numbers,
//! quoted strings and capitalised names. No regex crate: every byte of the page's
//! wasm counts, and these few scanners are enough for a deterministic mock.

use mcpg_text::case::{is_lower, is_upper, is_word_char, lower_char, to_lower, upper_char};

/// Words that say nothing about which tool fits ("what is the weather in…").
const STOP_WORDS: &[&str] = &[
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "by", "can", "could", "do", "does",
    "for", "from", "get", "give", "how", "i", "in", "is", "it", "its", "like", "me", "my", "now",
    "of", "on", "or", "please", "show", "some", "tell", "that", "the", "there", "this", "to",
    "today", "use", "want", "what", "whats", "when", "where", "which", "with", "would", "you",
    "your", "returns", "return", "current",
];

/// Whether `word` (lower case) is a stop word.
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.contains(&word)
}

/// A word of the user's message, with its position and original spelling.
#[derive(Clone, Debug, PartialEq)]
pub struct Word {
    /// As typed.
    pub text: String,
    /// Lower case.
    pub lower: String,
    /// Index among the message's words.
    pub index: usize,
    /// Byte offset in the message.
    pub start: usize,
}

/// Splits `s` into words: runs of letters and digits (apostrophes are dropped, so
/// "what's" is "whats"; `_`, `-` and `.` separate words, so tool names split too).
pub fn words(s: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if is_word_char(c) {
            if cur.is_empty() {
                start = i;
            }
            cur.push(c);
        } else if c == '\'' || c == '’' {
            // Keep "what's" in one piece.
        } else if !cur.is_empty() {
            push_word(&mut out, &mut cur, start);
        }
    }
    if !cur.is_empty() {
        push_word(&mut out, &mut cur, start);
    }
    out
}

fn push_word(out: &mut Vec<Word>, cur: &mut String, start: usize) {
    let text = std::mem::take(cur);
    out.push(Word {
        lower: to_lower(&text),
        index: out.len(),
        start,
        text,
    });
}

/// Splits an identifier such as `getWeather`, `get_weather` or `get-weather.v2` into
/// lower-case words.
pub fn identifier_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in name.chars() {
        if !is_word_char(c) {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        // camelCase boundary: a capital after a lower-case letter starts a word.
        if is_upper(c) && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = is_lower(c) || c.is_ascii_digit();
        cur.push(lower_char(c));
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// A crude stem, so that "numbers" meets "number" and "counting" meets "count".
pub fn stem(word: &str) -> &str {
    for suffix in ["ing", "ies", "es", "ed", "s"] {
        if let Some(base) = word.strip_suffix(suffix)
            && base.chars().count() >= 3
        {
            return base;
        }
    }
    word
}

/// Whether two lower-case words mean the same for matching purposes.
pub fn same_word(a: &str, b: &str) -> bool {
    a == b || stem(a) == stem(b)
}

/// A number found in the message.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Number {
    /// Its value.
    pub value: f64,
    /// Whether it was written without a fraction.
    pub integral: bool,
    /// Index of the word it came from.
    pub index: usize,
}

/// Every number in the message, in order: `5`, `-3`, `2.5` (a leading minus counts
/// when it directly precedes the digits).
pub fn numbers(s: &str) -> Vec<Number> {
    let ws = words(s);
    let mut out = Vec::new();
    for w in &ws {
        let text = w.text.as_str();
        if !text.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        // A decimal part is split off as its own word by `words`; join it back.
        let mut literal = text.to_owned();
        let after = &s[w.start + text.len()..];
        if let Some(rest) = after.strip_prefix('.') {
            let frac: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if !frac.is_empty() {
                literal.push('.');
                literal.push_str(&frac);
            }
        }
        // Skip the fraction words we just absorbed.
        if w.start > 0 && s[..w.start].ends_with('.') {
            let before = &s[..w.start - 1];
            if before.ends_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
        }
        let negative =
            s[..w.start].ends_with('-') && !s[..w.start.saturating_sub(1)].ends_with(is_word_char);
        if let Ok(mut value) = literal.parse::<f64>() {
            if negative {
                value = -value;
            }
            out.push(Number {
                value,
                integral: !literal.contains('.'),
                index: w.index,
            });
        }
    }
    out
}

/// Text between matching quotes ("…", '…', “…”, `…`), in order.
pub fn quoted(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let close = match c {
            '"' => '"',
            '“' => '”',
            '`' => '`',
            // An apostrophe inside a word ("what's") is not a quote.
            '\'' if i == 0 || !s[..i].ends_with(is_word_char) => '\'',
            _ => continue,
        };
        let body_start = i + c.len_utf8();
        if let Some(len) = s[body_start..].find(close) {
            let body = &s[body_start..body_start + len];
            if !body.trim().is_empty() {
                out.push(body.to_owned());
            }
            let end = body_start + len + close.len_utf8();
            while chars.peek().is_some_and(|(j, _)| *j < end) {
                chars.next();
            }
        }
    }
    out
}

/// Runs of capitalised words that are not stop words ("New York", "Austin"), with the
/// index of their first word. The first word of the message counts only when it is
/// not a stop word ("Austin weather?" yes, "What…" no).
pub fn names(ws: &[Word]) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut run: Vec<&Word> = Vec::new();
    let flush = |run: &mut Vec<&Word>, out: &mut Vec<(usize, String)>| {
        if let Some(first) = run.first() {
            let joined: Vec<&str> = run.iter().map(|w| w.text.as_str()).collect();
            out.push((first.index, joined.join(" ")));
        }
        run.clear();
    };
    for w in ws {
        let capital = w.text.chars().next().is_some_and(is_upper);
        // Next to each other, with no more than a space (and a dropped apostrophe)
        // between: a line break or a parenthesis ends a name ("Austin?\n\n(Context").
        let adjacent = run
            .last()
            .is_some_and(|p| p.index + 1 == w.index && w.start <= p.start + p.text.len() + 2);
        if capital && !is_stop_word(&w.lower) {
            if !adjacent {
                flush(&mut run, &mut out);
            }
            run.push(w);
        } else {
            flush(&mut run, &mut out);
        }
    }
    flush(&mut run, &mut out);
    out
}

/// Upper-cases the first letter ("austin" → "Austin"), for names typed in lower case.
pub fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => std::iter::once(upper_char(first)).chain(chars).collect(),
        None => String::new(),
    }
}

/// A `YYYY-MM-DD` date in the text, if any.
pub fn date(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    (0..bytes.len().saturating_sub(9)).find_map(|i| {
        let cand = s.get(i..i + 10)?;
        let b = cand.as_bytes();
        let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
        let boundary_before = i == 0 || !bytes[i - 1].is_ascii_digit();
        let boundary_after = bytes.get(i + 10).is_none_or(|c| !c.is_ascii_digit());
        (digits(0..4)
            && b[4] == b'-'
            && digits(5..7)
            && b[7] == b'-'
            && digits(8..10)
            && boundary_before
            && boundary_after)
            .then(|| cand.to_owned())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_on_punctuation_and_keep_apostrophes() {
        let w: Vec<String> = words("What's the weather in New-York?")
            .into_iter()
            .map(|w| w.lower)
            .collect();
        assert_eq!(w, ["whats", "the", "weather", "in", "new", "york"]);
    }

    #[test]
    fn words_beyond_ascii_stay_whole_and_fold_case() {
        let w: Vec<String> = words("Météo à SÃO PAULO, Zürich🌧 и Москва?")
            .into_iter()
            .map(|w| w.lower)
            .collect();
        assert_eq!(w, ["météo", "à", "são", "paulo", "zürich", "и", "москва"]);
        assert_eq!(identifier_words("getÉtéWeather"), ["get", "été", "weather"]);
        assert_eq!(capitalise("éclair"), "Éclair");
    }

    #[test]
    fn identifiers_split_every_way() {
        assert_eq!(identifier_words("get_weather"), ["get", "weather"]);
        assert_eq!(identifier_words("getTinyImage"), ["get", "tiny", "image"]);
        assert_eq!(identifier_words("get-sum"), ["get", "sum"]);
    }

    #[test]
    fn stems_meet() {
        assert!(same_word("numbers", "number"));
        assert!(same_word("counting", "count"));
        assert!(!same_word("is", "i"));
    }

    #[test]
    fn finds_numbers() {
        let n: Vec<f64> = numbers("add 2.5 and -3, then 10")
            .iter()
            .map(|n| n.value)
            .collect();
        assert_eq!(n, [2.5, -3.0, 10.0]);
        assert!(numbers("2025-06-01").iter().all(|n| n.value >= 0.0));
    }

    #[test]
    fn finds_quotes_and_names() {
        assert_eq!(
            quoted(r#"reverse "hello world" and 'x'"#),
            ["hello world", "x"]
        );
        assert!(quoted("what's up").is_empty());
        let ws = words("What is the weather in New York and Austin");
        let n: Vec<String> = names(&ws).into_iter().map(|(_, n)| n).collect();
        assert_eq!(n, ["New York", "Austin"]);
        // A line break or bracket between two capitalised words ends the name.
        let ws = words("The forecast for Austin?\n\n(Context from the app: Paris)");
        let n: Vec<String> = names(&ws).into_iter().map(|(_, n)| n).collect();
        assert_eq!(n, ["Austin", "Context", "Paris"]);
        let ws = words("Martha's Vineyard");
        let n: Vec<String> = names(&ws).into_iter().map(|(_, n)| n).collect();
        assert_eq!(n, ["Marthas Vineyard"]);
    }

    #[test]
    fn finds_dates() {
        assert_eq!(date("on 2026-03-14 please").as_deref(), Some("2026-03-14"));
        assert_eq!(date("no date 2026-3-14"), None);
    }
}
