//! What the server declared against what it answers: a declared feature whose
//! list fails, or a feature answered but never declared.

use crate::check::{Check, Finding, Verdict};

/// How the server answered one feature's list request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answered {
    /// A result.
    Yes,
    /// A JSON-RPC error.
    Error {
        /// Its code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// No usable answer, in words.
    Failed(String),
}

/// One feature: whether it was declared and how its list was answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeatureSeen {
    /// The capability (`tools`, `resources`, `prompts`).
    pub feature: &'static str,
    /// The request tried (`tools/list`…).
    pub method: &'static str,
    /// Whether `capabilities` has it.
    pub declared: bool,
    /// How the request was answered.
    pub answered: Answered,
}

/// The features a doctor tries, with the request that shows each.
pub const FEATURES: [(&str, &str); 3] = [
    ("tools", "tools/list"),
    ("resources", "resources/list"),
    ("prompts", "prompts/list"),
];

/// Judges every feature together.
pub fn capabilities(seen: &[FeatureSeen]) -> Finding {
    let mut verdict = Verdict::Pass;
    let mut lines = Vec::new();
    let mut fixes = Vec::new();
    for f in seen {
        let (feature, method) = (f.feature, f.method);
        let line = match (&f.answered, f.declared) {
            (Answered::Yes, true) => format!("{feature}: declared and answered"),
            (Answered::Error { .. } | Answered::Failed(_), false) => {
                format!("{feature}: not declared, not answered")
            }
            (Answered::Yes, false) => {
                verdict = verdict.worst(Verdict::Warn);
                fixes.push(format!(
                    "declare `{feature}` in the server's capabilities (clients that respect \
                     them never ask {method})"
                ));
                format!("{feature}: answered {method} but not declared")
            }
            (Answered::Error { code, message }, true) => {
                verdict = Verdict::Fail;
                fixes.push(format!(
                    "answer {method}, or stop declaring `{feature}` ({})",
                    crate::advice::rpc_fix(method, *code, message)
                ));
                format!("{feature}: declared, but {method} answered error {code}: {message}")
            }
            (Answered::Failed(why), true) => {
                verdict = Verdict::Fail;
                fixes.push(format!("answer {method}, or stop declaring `{feature}`"));
                format!("{feature}: declared, but {method}: {why}")
            }
        };
        lines.push(line);
    }
    let evidence = lines.join("; ");
    match verdict {
        Verdict::Pass | Verdict::Skip => Finding::pass(Check::Capabilities, evidence),
        v => {
            Finding::new(Check::Capabilities, v, evidence).with_fix(capitalized(&fixes.join("; ")))
        }
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect::<String>() + ".",
        None => String::new(),
    }
}
