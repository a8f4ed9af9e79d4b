//! Tool names against each format's naming rule: the same [`name_rules`] the host
//! renames by, so a finding here is a name the host rewrites.

use super::{HostAction, Rule, Severity, Sink};
use crate::provider::{Provider, name_rules};

/// Anthropic, OpenAI and Gemini refuse a request whose tool name breaks their rule
/// (`provider::refused_names` builds those 400s); Ollama checks no names, but this
/// host renames for it all the same (`name_rules` gives it OpenAI's rule), so there
/// the finding is a rewrite.
pub(super) fn check(name: &str, format: Provider, sink: &mut Sink<'_>) {
    let rules = name_rules(format);
    if rules.accepts(name) {
        return;
    }
    let severity = if format == Provider::Ollama {
        Severity::Rewrite
    } else {
        Severity::Reject
    };
    let label = format.label();
    let pattern = rules.pattern();
    let chars = name.chars().count();
    if name.len() > rules.max_len {
        sink.push(
            "/name".into(),
            Rule::NameTooLong,
            severity,
            HostAction::Renames,
            format!(
                "the name is {} bytes long; {label} allows at most {} ({pattern}); the host renames it",
                name.len(),
                rules.max_len
            ),
        );
    }
    let mut bad: Vec<char> = name
        .chars()
        .filter(|c| {
            !(c.is_ascii_alphanumeric()
                || *c == '_'
                || (c.is_ascii() && rules.extra.contains(&(*c as u8))))
        })
        .collect();
    bad.sort_unstable();
    bad.dedup();
    if chars == 0 || !bad.is_empty() {
        let what = if chars == 0 {
            "the name is empty".to_owned()
        } else {
            let list: Vec<String> = bad.iter().map(|c| format!("'{c}'")).collect();
            format!(
                "the name has characters {label} does not allow: {}",
                list.join(" ")
            )
        };
        sink.push(
            "/name".into(),
            Rule::NameCharacters,
            severity,
            HostAction::Renames,
            format!("{what} ({pattern}); the host renames it"),
        );
    }
    if rules.letter_first
        && name
            .chars()
            .next()
            .is_some_and(|c| !(c.is_ascii_alphabetic() || c == '_'))
    {
        sink.push(
            "/name".into(),
            Rule::NameFirstCharacter,
            severity,
            HostAction::Renames,
            format!("{label} wants a letter or _ first ({pattern}); the host renames it"),
        );
    }
}
