//! Spec checks on resources, templates, prompts, their contents and completions.

use serde_json::Value;

use super::{kind_of, truncate};
use crate::diag::{Diagnostic, Rule, Severity};
use crate::model::{CompleteResult, ContentBlock, GetPromptResult, Prompt, ResourceContents};
use crate::model::{Resource, ResourceTemplate, Role};
use crate::version::ProtocolVersion;

/// A field `what` uses that the negotiated `version` does not define yet
/// (`since` introduced it).
fn since(
    present: bool,
    since: ProtocolVersion,
    version: ProtocolVersion,
    what: &str,
    out: &mut Vec<Diagnostic>,
) {
    if present && version < since {
        out.push(Diagnostic::new(
            Rule::FieldNotInVersion,
            Severity::Warning,
            format!("{what}, which {version} does not define ({since}+)"),
        ));
    }
}

/// Whether `uri` starts with an RFC 3986 scheme (`letter *(letter / digit / + - .) ":"`).
pub fn has_scheme(uri: &str) -> bool {
    match uri.split_once(':') {
        Some((scheme, _)) => {
            scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// What resources, templates and prompts share: a required `name`, and `title`
/// (2025-06-18+) and `icons` (2025-11-25+).
fn named(
    rule: Rule,
    who: &str,
    name: &str,
    title: bool,
    icons: bool,
    version: ProtocolVersion,
    out: &mut Vec<Diagnostic>,
) {
    if name.is_empty() {
        out.push(Diagnostic::new(
            rule,
            Severity::Warning,
            format!("{who} has no name (required)"),
        ));
    }
    let (title_text, icons_text) = (format!("{who} has a title"), format!("{who} has icons"));
    since(
        title,
        ProtocolVersion::V2025_06_18,
        version,
        &title_text,
        out,
    );
    since(
        icons,
        ProtocolVersion::V2025_11_25,
        version,
        &icons_text,
        out,
    );
}

/// Why `s` is not padded standard base64 (RFC 4648 section 4), if it is not.
/// Checked by hand rather than decoded: the page needs no base64 decoder
/// otherwise, and one costs it ~3 KB of wasm.
pub fn base64_problem(s: &str) -> Option<String> {
    let b = s.as_bytes();
    if !b.len().is_multiple_of(4) {
        return Some(format!("its length {} is not a multiple of 4", b.len()));
    }
    let body = b.iter().rposition(|&c| c != b'=').map_or(0, |i| i + 1);
    if b.len() - body > 2 {
        return Some("it ends in more than two '='".into());
    }
    let bad = b[..body]
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'+' || c == b'/'));
    bad.map(|i| {
        let c = s[i..].chars().next().unwrap_or('?');
        format!("{c:?} at {i} is not in the base64 alphabet")
    })
}

/// Checks one listed resource against the negotiated revision.
pub fn check_resource(r: &Resource, version: ProtocolVersion, out: &mut Vec<Diagnostic>) {
    let who = format!("resource {:?}", truncate(&r.uri, 80));
    if !has_scheme(&r.uri) {
        out.push(Diagnostic::new(
            Rule::ResourceShape,
            Severity::Warning,
            format!("{who}: the uri has no scheme (it must be an absolute URI)"),
        ));
    }
    named(
        Rule::ResourceShape,
        &who,
        &r.name,
        r.title.is_some(),
        r.icons.is_some(),
        version,
        out,
    );
}

/// Checks one resource template: its RFC 6570 syntax and its fields.
pub fn check_template(t: &ResourceTemplate, version: ProtocolVersion, out: &mut Vec<Diagnostic>) {
    let who = format!("template {:?}", truncate(&t.uri_template, 80));
    if let Err(why) = super::check_uri_template(&t.uri_template) {
        out.push(Diagnostic::new(
            Rule::UriTemplate,
            Severity::Error,
            format!("{who} is not an RFC 6570 URI template: {why}"),
        ));
    }
    named(
        Rule::ResourceShape,
        &who,
        &t.name,
        t.title.is_some(),
        t.icons.is_some(),
        version,
        out,
    );
}

/// Checks one listed prompt: its fields and its arguments' names.
pub fn check_prompt(p: &Prompt, version: ProtocolVersion, out: &mut Vec<Diagnostic>) {
    let who = format!("prompt {:?}", truncate(&p.name, 80));
    named(
        Rule::PromptShape,
        &who,
        &p.name,
        p.title.is_some(),
        p.icons.is_some(),
        version,
        out,
    );
    let mut seen = std::collections::HashSet::new();
    for a in p.arguments.iter().flatten() {
        if !seen.insert(a.name.as_str()) {
            out.push(Diagnostic::new(
                Rule::PromptShape,
                Severity::Error,
                format!("{who} has two arguments named {:?}", truncate(&a.name, 80)),
            ));
        }
        let titled = format!("{who}'s argument {:?} has a title", truncate(&a.name, 80));
        since(
            a.title.is_some(),
            ProtocolVersion::V2025_06_18,
            version,
            &titled,
            out,
        );
    }
}

/// Checks `contents[i]` of a `resources/read` result: a readable shape, and a
/// blob that is base64.
pub fn check_contents(i: usize, c: &ResourceContents, out: &mut Vec<Diagnostic>) {
    match c {
        ResourceContents::Text(_) => {}
        ResourceContents::Blob(b) => {
            if let Some(e) = base64_problem(&b.blob) {
                out.push(Diagnostic::new(
                    Rule::BlobNotBase64,
                    Severity::Error,
                    format!(
                        "contents[{i}] ({:?}) has a blob that is not base64: {e}",
                        truncate(&b.uri, 80)
                    ),
                ));
            }
        }
        ResourceContents::Unknown(v) => out.push(Diagnostic::new(
            Rule::ResourceShape,
            Severity::Error,
            format!(
                "contents[{i}] is neither text nor blob resource contents (a uri and a string text or blob): {}",
                truncate(&v.to_string(), 120)
            ),
        )),
    }
}

/// Checks a `prompts/get` result's messages against the negotiated revision.
pub fn check_prompt_result(
    r: &GetPromptResult,
    version: ProtocolVersion,
    out: &mut Vec<Diagnostic>,
) {
    for (i, m) in r.messages.iter().enumerate() {
        if let Role::Other(role) = &m.role {
            out.push(Diagnostic::new(
                Rule::PromptShape,
                Severity::Error,
                format!(
                    "messages[{i}] has role {:?}, not \"user\" or \"assistant\"",
                    truncate(role, 40)
                ),
            ));
        }
        let at = format!("messages[{i}].content");
        match &m.content {
            ContentBlock::Unknown(v) => out.push(Diagnostic::new(
                Rule::ContentShape,
                Severity::Error,
                format!(
                    "{at} (type {:?}) does not match any content block type",
                    v.get("type").and_then(Value::as_str).unwrap_or("?")
                ),
            )),
            ContentBlock::Audio(_) => since(
                true,
                ProtocolVersion::V2025_03_26,
                version,
                &format!("{at} is audio"),
                out,
            ),
            ContentBlock::ResourceLink(_) => since(
                true,
                ProtocolVersion::V2025_06_18,
                version,
                &format!("{at} is a resource_link"),
                out,
            ),
            ContentBlock::Resource(e) => {
                let mut inner = Vec::new();
                check_contents(i, &e.resource, &mut inner);
                out.extend(inner.into_iter().map(|mut d| {
                    d.message = format!("{at}: {}", d.message);
                    d
                }));
            }
            _ => {}
        }
    }
}

/// Checks a `completion/complete` result: at most 100 values, a total that
/// covers them.
pub fn check_completion(c: &CompleteResult, out: &mut Vec<Diagnostic>) {
    if c.values.len() > 100 {
        out.push(Diagnostic::new(
            Rule::Completion,
            Severity::Error,
            format!(
                "the completion has {} values; at most 100 are allowed",
                c.values.len()
            ),
        ));
    }
    if let Some(total) = c.total
        && total < c.values.len() as u64
    {
        out.push(Diagnostic::new(
            Rule::Completion,
            Severity::Warning,
            format!(
                "completion.total is {total}, fewer than the {} values sent",
                c.values.len()
            ),
        ));
    }
}

/// The diagnostic for a result member of the wrong type (`what` names it).
pub fn wrong_member(rule: Rule, what: &str, v: Option<&Value>) -> Diagnostic {
    Diagnostic::new(
        rule,
        Severity::Error,
        format!("{what} is {}", v.map_or("missing", kind_of)),
    )
}

#[cfg(test)]
mod tests {
    use super::base64_problem;

    #[test]
    fn base64_is_checked_without_decoding() {
        for ok in ["", "aGk=", "aGVsbG8h", "iVBORw0KGgo=", "+/+/", "AA=="] {
            assert_eq!(base64_problem(ok), None, "{ok}");
        }
        let cases = [
            ("aGk", "multiple of 4"),
            ("a===", "more than two"),
            ("aG-k", "'-' at 2"),
            ("a=Gk", "'=' at 1"),
            ("aé==", "multiple of 4"),
            ("éé", "'é' at 0"),
        ];
        for (bad, why) in cases {
            let e = base64_problem(bad).unwrap_or_default();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
