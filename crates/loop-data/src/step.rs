//! One step of the loop as the page shows it.

use std::sync::Arc;

use serde_json::Value;

use crate::pitfalls::HostChoice;

/// Where a step stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepStatus {
    /// Under way (a listing or a call in flight).
    Running,
    /// Finished normally.
    Done,
    /// Finished with a failure (the explanation says which kind).
    Failed,
    /// Did not happen in this run (e.g. no tool was called).
    Skipped,
}

impl StepStatus {
    /// The status as one lower-case word, as recorded in shared sessions:
    /// "running", "done", "failed", "skipped".
    pub fn as_str(self) -> &'static str {
        match self {
            StepStatus::Running => "running",
            StepStatus::Done => "done",
            StepStatus::Failed => "failed",
            StepStatus::Skipped => "skipped",
        }
    }
}

impl std::fmt::Display for StepStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a block is, for the readers that branch on it (the loop's picture, the
/// CLI): they read this, never the label's words or arrows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// Built by the host and shown, not sent (the reshaped tools, what it knows of a
    /// call that got no response).
    Built,
    /// Sent by the host, over MCP or to the model ("→ …").
    Sent,
    /// Received by the host, from the server or the model ("← …").
    Received,
    /// A question the server asks the host while a call waits: the method
    /// (`sampling/createMessage`, `elicitation/create`, `roots/list`) or
    /// `input_required` (2026-07-28).
    Asked(String),
    /// The host's answer to such a question (a response, or the retried call).
    Answer,
}

impl BlockKind {
    /// Whether the host sent it: [`BlockKind::Sent`] or an [`BlockKind::Answer`].
    pub fn is_sent(&self) -> bool {
        matches!(self, BlockKind::Sent | BlockKind::Answer)
    }

    /// Whether the host received it: [`BlockKind::Received`] or a question
    /// ([`BlockKind::Asked`]).
    pub fn is_received(&self) -> bool {
        matches!(self, BlockKind::Received | BlockKind::Asked(_))
    }
}

/// Wire text longer than this is shown as it came, not re-indented: a second parse
/// and print of a 10 MB answer cost the page's main thread tens of milliseconds
/// each, for a block that opens folded and shows only its head (issue #33).
pub const REINDENT_MAX: usize = 1024 * 1024;

/// A labelled piece of JSON: exactly what crossed the wire or what the host built.
#[derive(Clone, Debug, PartialEq)]
pub struct JsonBlock {
    /// What it is, for readers that branch on it.
    pub kind: BlockKind,
    /// What it is, in words for the learner ("→ tools/call (sent)").
    pub label: String,
    /// Pretty-printed JSON (the wire text re-indented; member order kept). Shared:
    /// the page copies the steps into its view on every change, and a block can
    /// hold a 10 MB answer (issue #33's profile: a tenth of a second of copies).
    pub json: Arc<str>,
}

impl JsonBlock {
    /// A block from wire text: re-indented when it parses, verbatim when it does not
    /// or when it is longer than [`REINDENT_MAX`].
    pub fn wire(kind: BlockKind, label: impl Into<String>, raw: &str) -> Self {
        let json = (raw.len() <= REINDENT_MAX)
            .then(|| serde_json::from_str::<Value>(raw).ok())
            .flatten()
            .and_then(|v| serde_json::to_string_pretty(&v).ok())
            .map_or_else(|| raw.into(), Arc::from);
        JsonBlock {
            kind,
            label: label.into(),
            json,
        }
    }

    /// A block from a value the host built.
    pub fn value(kind: BlockKind, label: impl Into<String>, v: &Value) -> Self {
        JsonBlock {
            kind,
            label: label.into(),
            json: serde_json::to_string_pretty(v)
                .unwrap_or_else(|_| v.to_string())
                .into(),
        }
    }
}

/// One of the six steps of the walkthrough, as it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// 1 to 6.
    pub number: u8,
    /// Short title ("tools/list").
    pub title: String,
    /// Whether the step travels over MCP (1, 4, 5) or happens inside the host (2, 3, 6).
    pub over_mcp: bool,
    /// Where it stands.
    pub status: StepStatus,
    /// The exact JSON of the step.
    pub blocks: Vec<JsonBlock>,
    /// One or two sentences: what happened and why it matters.
    pub explanation: String,
    /// What the host chose here about each pitfall that mattered at this step
    /// (careful or naive), so a card says whose choice it was. Empty when no
    /// pitfall was relevant; several when one step concerns more than one (step 6
    /// may feed back an `isError` result that also has `structuredContent`).
    pub choices: Vec<HostChoice>,
}

/// The fixed titles of the six steps.
pub const TITLES: [&str; 6] = [
    "tools/list: the host asks the server for its tools",
    "The host reshapes the tools for the model",
    "The model picks a tool and arguments",
    "tools/call: the host asks the server to run it",
    "The server returns a CallToolResult",
    "The host feeds the result back; the model answers",
];

/// Step 5's title when the server answered with a JSON-RPC error: there is no
/// `CallToolResult` then, so the fixed title would say what did not happen.
pub const TITLE_RPC_ERROR: &str = "The server answers with a JSON-RPC error, not a CallToolResult";

/// Step 5's title when no response came at all (the connection went, the call
/// timed out or was cancelled).
pub const TITLE_NO_RESULT: &str = "The call ends without a response";

impl Step {
    /// A new step `number` (1–6) with its fixed title and side.
    pub fn new(number: u8, status: StepStatus, explanation: impl Into<String>) -> Self {
        let title = TITLES
            .get(usize::from(number.saturating_sub(1)))
            .copied()
            .unwrap_or("");
        Step {
            number,
            title: title.to_owned(),
            over_mcp: matches!(number, 1 | 4 | 5),
            status,
            blocks: Vec::new(),
            explanation: explanation.into(),
            choices: Vec::new(),
        }
    }
}

/// Whether a step block is a question from the server ([`BlockKind::Asked`]).
pub fn is_asked(block: &JsonBlock) -> bool {
    matches!(block.kind, BlockKind::Asked(_))
}

/// Whether a step block is the host's answer to a question from the server.
pub fn is_answer(block: &JsonBlock) -> bool {
    block.kind == BlockKind::Answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_text_is_reindented_up_to_the_limit_and_kept_as_it_came_past_it() {
        let small = JsonBlock::wire(BlockKind::Received, "small", r#"{"a":1}"#);
        assert_eq!(&*small.json, "{\n  \"a\": 1\n}");
        let junk = JsonBlock::wire(BlockKind::Received, "junk", "{not json");
        assert_eq!(&*junk.json, "{not json");
        let raw = format!(r#"{{"text":"{}"}}"#, "x".repeat(REINDENT_MAX));
        let big = JsonBlock::wire(BlockKind::Received, "big", &raw);
        assert_eq!(&*big.json, raw);
    }
}
