//! The mock model's final answer (step 6): written from the results the host fed
//! back, never beyond them. After a failed call it says the tool failed instead of
//! inventing an answer: the behaviour `isError` exists to make possible.

use mcpg_core::model::{ContentBlock, ResourceContents};

use super::{MockTurn, answer_turn};
use crate::provider::{ResultView, ToolOutput};

/// The answer after the host fed back `outputs`.
pub fn after_results(outputs: &[ToolOutput]) -> MockTurn {
    let mut sentences = Vec::new();
    let mut failed = false;
    for o in outputs {
        let name = &o.call.name;
        match &o.result {
            ResultView::Result(r) if r.failed() => {
                failed = true;
                let (text, _) = read(r);
                let detail = if text.is_empty() {
                    "it gave no reason".to_owned()
                } else {
                    text
                };
                sentences.push(format!(
                    "Sorry, {name} failed: {detail}. I won't guess an answer."
                ));
            }
            ResultView::Result(r) => {
                let (text, extras) = read(r);
                let body = match (text.is_empty(), &r.structured_content) {
                    (false, _) => quote(text),
                    (true, Some(sc)) => sc.to_string(),
                    (true, None) if !extras.is_empty() => String::new(),
                    (true, None) => "nothing (an empty result)".to_owned(),
                };
                let mut s = format!("{name} says: {body}");
                if !extras.is_empty() {
                    if !body.is_empty() {
                        s.push(' ');
                    }
                    s.push_str(&format!("(It also returned {}.)", extras.join(", ")));
                }
                sentences.push(s.trim().to_owned());
            }
            ResultView::ProtocolError { code, message } => {
                failed = true;
                sentences.push(format!(
                    "I couldn't use {name}: the server refused the call (error {code}: {message}), so the tool never ran."
                ));
            }
            ResultView::Failed(why) => {
                failed = true;
                sentences.push(format!("The call to {name} did not finish ({why})."));
            }
        }
    }
    let why = if failed {
        "The result says the call failed, so the mock model reports the failure instead of inventing an answer."
    } else {
        "The mock model writes its answer from the tool's result, adding nothing the result does not say."
    };
    answer_turn(sentences.join(" "), why.to_owned())
}

/// Characters of a result the answer quotes: a model's answer is bounded by its
/// output limit, and echoing a 10 MB result would copy it through step 6 again
/// (issue #33).
const QUOTE_MAX: usize = 2_000;

/// `text`, or its first [`QUOTE_MAX`] characters and how many more there were.
fn quote(text: String) -> String {
    match text.char_indices().nth(QUOTE_MAX) {
        None => text,
        Some((cut, _)) => {
            let more = text.get(cut..).map_or(0, |rest| rest.chars().count());
            let head = text.get(..cut).unwrap_or_default();
            format!("{head}… ({more} more characters)")
        }
    }
}

/// The text a model reads (text blocks and embedded text resources), and short
/// notes on the rest ("an image/png image").
fn read(r: &mcpg_core::model::CallToolResult) -> (String, Vec<String>) {
    let mut text = Vec::new();
    let mut extras = Vec::new();
    for block in &r.content {
        match block {
            ContentBlock::Text(t) => text.push(t.text.clone()),
            ContentBlock::Resource(e) => match &e.resource {
                ResourceContents::Text(t) => text.push(t.text.clone()),
                _ => extras.push("a binary resource".to_owned()),
            },
            ContentBlock::Image(i) => extras.push(format!("an {} image", i.mime_type)),
            ContentBlock::Audio(a) => extras.push(format!("{} audio", a.mime_type)),
            ContentBlock::ResourceLink(l) => extras.push(format!("a link to {}", l.uri)),
            ContentBlock::Unknown(_) => extras.push("content of an unknown type".to_owned()),
        }
    }
    (text.join("\n"), extras)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_result_is_quoted_by_its_head_and_a_count() {
        assert_eq!(quote("short".to_owned()), "short");
        let exact = "é".repeat(QUOTE_MAX);
        assert_eq!(quote(exact.clone()), exact);
        let long = format!("{}{}", "é".repeat(QUOTE_MAX), "xyz");
        assert_eq!(
            quote(long),
            format!("{}… (3 more characters)", "é".repeat(QUOTE_MAX))
        );
    }
}
