//! The notebook: short notes on MCP, readable as `note://playground/TOPIC`, the
//! first three also through the `read_note` tool.

/// `(topic, text)`, in the notebook's order.
pub const NOTES: [(&str, &str); 8] = [
    (
        "pagination",
        "tools/list may return nextCursor: keep asking until it is absent, or you miss tools.",
    ),
    (
        "errors",
        "isError: true is the tool failing (the model should see it); a JSON-RPC error is the protocol failing.",
    ),
    (
        "progress",
        "Send _meta.progressToken with a request to get notifications/progress while it runs.",
    ),
    (
        "resources",
        "Resources are data the application chooses to read with resources/read; tools are what the model chooses to call.",
    ),
    (
        "prompts",
        "Prompts are templates the user picks; prompts/get fills in their arguments and returns the messages that start a conversation.",
    ),
    (
        "completions",
        "completion/complete suggests values for a prompt argument or a resource template variable while the user types.",
    ),
    (
        "logging",
        "logging/setLevel (in 2026-07-28: _meta io.modelcontextprotocol/logLevel on each request) asks for notifications/message at that level and above.",
    ),
    (
        "subscriptions",
        "resources/subscribe (in 2026-07-28: resourceSubscriptions on subscriptions/listen) asks for notifications/resources/updated; read the resource again to see what changed.",
    ),
];

/// The notes `read_note` offers (its input schema's enum, unchanged since it shipped).
pub const READ_NOTE_TOPICS: [&str; 3] = ["pagination", "errors", "progress"];

/// The text of the note about `topic`.
pub fn note(topic: &str) -> Option<&'static str> {
    NOTES
        .iter()
        .find(|(t, _)| *t == topic)
        .map(|(_, text)| *text)
}

/// The notebook's index, `note://playground/`.
pub fn index() -> String {
    let mut out = String::from("Notes in this notebook (read each as note://playground/TOPIC):\n");
    for (topic, _) in NOTES {
        out.push_str("- ");
        out.push_str(topic);
        out.push('\n');
    }
    out
}
