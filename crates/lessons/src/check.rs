//! A lesson's check: multiple choice with feedback per choice, or a short answer
//! compared leniently (case, punctuation, filler words and order do not matter).

/// One choice of a multiple-choice check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The choice as shown.
    pub text: &'static str,
    /// Whether it is the right one (exactly one per check).
    pub right: bool,
    /// Why it is right or wrong.
    pub feedback: &'static str,
}

/// The question a lesson ends with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Pick one choice.
    Choice {
        /// The question.
        question: &'static str,
        /// The choices, in the order shown.
        choices: &'static [Choice],
    },
    /// Type a short answer.
    Short {
        /// The question.
        question: &'static str,
        /// The right answer as shown after a right reply.
        answer: &'static str,
        /// Other spellings accepted besides `answer`.
        also: &'static [&'static str],
        /// Why it is right (shown after a right answer).
        right: &'static str,
        /// A hint shown after a wrong answer.
        wrong: &'static str,
    },
}

/// How an answer was judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Right or wrong.
    pub right: bool,
    /// What to tell the learner.
    pub feedback: &'static str,
}

/// Words that carry no answer ("steps 1, 4 and 5" is "1 4 5").
const FILLER: [&str; 7] = ["step", "steps", "and", "the", "a", "an", "it"];

/// A short answer reduced to what matters: lower-case ASCII words and numbers, in
/// order, with filler words dropped. Everything else is a separator except `.`,
/// `_` and `/` inside a word (tool names such as `math.square`).
pub fn normalize(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/')))
        .map(|w| w.trim_matches(|c| matches!(c, '.' | '_' | '/')))
        .map(str::to_ascii_lowercase)
        .filter(|w| !w.is_empty() && !FILLER.contains(&w.as_str()))
        .collect()
}

/// Whether two normalized answers hold the same words, in any order and however
/// often each comes (compared as sets: no sort, whose code the page would carry).
fn same_words(a: &[String], b: &[String]) -> bool {
    a.iter().all(|w| b.contains(w)) && b.iter().all(|w| a.contains(w))
}

impl Check {
    /// The question.
    pub fn question(&self) -> &'static str {
        match self {
            Check::Choice { question, .. } | Check::Short { question, .. } => question,
        }
    }

    /// The order to show the choices in for lesson `slug` (indices into the
    /// choices, seeded by the slug: see [`crate::shuffled`]); empty for a short
    /// answer.
    pub fn shown_order(&self, slug: &str) -> Vec<usize> {
        match self {
            Check::Choice { choices, .. } => crate::shuffled(slug, choices.len()),
            Check::Short { .. } => Vec::new(),
        }
    }

    /// Judges choice `index` (a multiple-choice check) or `text` (a short answer).
    /// An index past the choices, or an answer to the other kind of check, is
    /// wrong, with no feedback.
    pub fn judge(&self, index: Option<usize>, text: &str) -> Verdict {
        match self {
            Check::Choice { choices, .. } => index.and_then(|i| choices.get(i)).map_or(
                Verdict {
                    right: false,
                    feedback: "",
                },
                |c| Verdict {
                    right: c.right,
                    feedback: c.feedback,
                },
            ),
            Check::Short {
                answer,
                also,
                right,
                wrong,
                ..
            } => {
                let given = normalize(text);
                let ok = !given.is_empty()
                    && std::iter::once(answer)
                        .chain(also.iter())
                        .any(|a| same_words(&normalize(a), &given));
                Verdict {
                    right: ok,
                    feedback: if ok { right } else { wrong },
                }
            }
        }
    }
}
