//! When the server asks: sampling, an elicitation form, a URL elicitation, roots,
//! and the 2026-07-28 way of asking (`input_required`). Each calls one of the demo's
//! asking tools; the loop pauses in step 4 while the server waits for the host.

use super::basics::{at, mock};
use crate::{Check, Choice, Lesson, ProtocolVersion, Provider, Setup};

/// The classic lessons pin 2025-11-25, where the server sends requests of its own.
const fn setup(prompt: &'static str) -> Setup {
    let mut s = mock(prompt, Provider::Anthropic);
    s.revision = Some(ProtocolVersion::V2025_11_25);
    s
}

/// Sampling: the server asks the host's model, a person approves.
pub const SAMPLING: Lesson = Lesson {
    slug: "sampling",
    title: "Sampling: the server asks the model",
    goal: "See a server ask the host's model to write something in the middle of a call, with a person approving the request and the reply.",
    setup: setup("Summarize the note about errors"),
    task: "Run the loop. In step 4 the server asks (sampling/createMessage): read the request, approve it, let the mock answer and approve the reply. Run it again and reject the request.",
    notice: &[
        at(
            4,
            "params.maxTokens",
            "Inside step 4, the server asks: sampling/createMessage goes from server to host while the call to summarize_note stays open. Its messages, systemPrompt, modelPreferences and maxTokens are the server's wishes; the host decides.",
        ),
        at(
            5,
            "result.content[0].text",
            "The summary came from the host's model: the server has no model of its own and never sees your API key.",
        ),
    ],
    check: Check::Choice {
        question: "A server sends sampling/createMessage. Whose model writes the answer?",
        choices: &[
            Choice {
                text: "The host's, once a person has approved the request",
                right: true,
                feedback: "Right: the host picks the model (the server only hints), and the spec asks for a person to see and approve both the request and the reply.",
            },
            Choice {
                text: "The server's, with its own API key",
                right: false,
                feedback: "A server that had its own model would not need sampling: it asks because the model lives with the host.",
            },
            Choice {
                text: "Any model: the client forwards the request to a provider unread",
                right: false,
                feedback: "The host reads it, can edit or reject it (the server gets error -1), and chooses which model answers.",
            },
        ],
    },
};

/// Elicitation, form mode.
pub const ELICIT_FORM: Lesson = Lesson {
    slug: "elicitation-form",
    title: "Elicitation: the server asks you",
    goal: "Answer a server's question through a form the host builds from its requestedSchema, and see accept, decline and cancel differ.",
    setup: setup("Reserve a table for dinner"),
    task: "Run the loop. When the server asks (elicitation/create), look at the form: a party size with a default and a time with titled choices. Accept once, then run again and decline, then cancel.",
    notice: &[
        at(
            4,
            "params.requestedSchema.properties.time.oneOf",
            "The form the host builds from requestedSchema: titled choices (const and title), next to an integer with a default.",
        ),
        at(
            4,
            "result.action",
            "Your answer goes back as the result of the server's request: accept (with content), decline or cancel.",
        ),
        at(
            5,
            "result.content[0].text",
            "What the tool made of your answer: a booking, a decline or a cancel each read differently.",
        ),
    ],
    check: Check::Choice {
        question: "You press Decline. What does the server receive?",
        choices: &[
            Choice {
                text: "{\"action\": \"decline\"} and no content",
                right: true,
                feedback: "Right: decline is an explicit no; cancel means you dismissed it without choosing; only accept carries content.",
            },
            Choice {
                text: "The form's default values",
                right: false,
                feedback: "Defaults only fill the form; nothing is sent unless you accept.",
            },
            Choice {
                text: "A JSON-RPC error",
                right: false,
                feedback: "Declining is a normal answer (an ElicitResult), not a protocol failure.",
            },
        ],
    },
};

/// Elicitation, URL mode.
pub const ELICIT_URL: Lesson = Lesson {
    slug: "elicitation-url",
    title: "URL elicitation: never opened without a click",
    goal: "See a server send you to a web page for something it must not see through the client, and the host open it only when you click.",
    setup: setup("Link my account"),
    task: "Run the loop. The server asks with a URL: read the full address and its domain, then open it (or decline). The server finishes when it sends notifications/elicitation/complete.",
    notice: &[
        at(
            4,
            "params.url",
            "The full URL the server wants you to visit: the host shows it and its domain, and opens it only when you click.",
        ),
        at(
            5,
            "result.content[0].text",
            "The result comes after the completion notice: accepting only meant you agreed to open the page.",
        ),
    ],
    check: Check::Choice {
        question: "The server sent a URL. When does the host open it?",
        choices: &[
            Choice {
                text: "Only when you click, after it showed the full URL and its domain",
                right: true,
                feedback: "Right: a server must never make the host open a page on its own; you check where it leads first.",
            },
            Choice {
                text: "At once, in a new tab, so the flow is quick",
                right: false,
                feedback: "That would let any server open any page: phishing by protocol. The spec requires your consent.",
            },
            Choice {
                text: "Never: the client fetches the URL and sends the page to the server",
                right: false,
                feedback: "The point of URL mode is that the page's content (a password, a payment) never passes through the client.",
            },
        ],
    },
};

/// Roots.
pub const ROOTS: Lesson = Lesson {
    slug: "roots",
    title: "Roots: what the server may see",
    goal: "See a server ask the client which folders it shares, and the client answer with its own list.",
    setup: setup("Show my roots"),
    task: "Run the loop: the server sends roots/list and the host answers with the roots in its list. Edit the list (a file:// URI) and run it again.",
    notice: &[
        at(
            4,
            "result.roots",
            "The host's answer to roots/list: the file:// URIs it chose to share, nothing more.",
        ),
        at(
            5,
            "result.content[0].text",
            "Exactly the roots the client chose to share: the server learns them only by asking.",
        ),
    ],
    check: Check::Choice {
        question: "Who decides which folders a server works in?",
        choices: &[
            Choice {
                text: "The client (you, through the host's list of roots)",
                right: true,
                feedback: "Right: roots are the client's answer, and when the list changes it tells the server (notifications/roots/list_changed).",
            },
            Choice {
                text: "The server, from its own configuration",
                right: false,
                feedback: "A server may have defaults, but roots are how the client tells it where it may look.",
            },
            Choice {
                text: "The model, in its tool call",
                right: false,
                feedback: "Roots are not tool arguments: the server asks the client directly, with roots/list.",
            },
        ],
    },
};

/// 2026-07-28: asking with `input_required` and retrying (MRTR).
pub const MRTR: Lesson = Lesson {
    slug: "input-required",
    title: "2026-07-28: input_required and the retry",
    goal: "See how 2026-07-28 asks without a request of its own: the call ends with input_required, and the host retries it with the answers and the requestState.",
    setup: mock("Reserve a table for dinner", Provider::Anthropic),
    task: "With the revision on Auto (the demo speaks 2026-07-28), run the loop and answer the form. Compare the two tools/call requests in the wire log: the retry carries inputResponses and requestState.",
    notice: &[
        at(
            4,
            "result.inputRequests.booking",
            "The same question as the elicitation lesson, but inside the call's result (resultType input_required): under 2026-07-28 the server sends no request of its own.",
        ),
        at(
            4,
            "params.requestState",
            "The retried tools/call: the same name and arguments, your answer in inputResponses, and the server's requestState sent back unchanged.",
        ),
        at(
            5,
            "result.content[0].text",
            "The answer to the retried call: the server read your inputResponses and checked its requestState.",
        ),
    ],
    check: Check::Choice {
        question: "What must the host send back, unchanged, when it retries the call?",
        choices: &[
            Choice {
                text: "The requestState the server sent",
                right: true,
                feedback: "Right: the server keeps no session, so its state travels with the client and comes back exactly as sent (the demo's is tamper-evident: an edited one is refused).",
            },
            Choice {
                text: "The JSON-RPC id of the first call",
                right: false,
                feedback: "The retry is a new request with a new id; requestState ties it to the first.",
            },
            Choice {
                text: "Nothing: the server remembers the first call",
                right: false,
                feedback: "Under 2026-07-28 the server is stateless; what it needs to continue is in requestState.",
            },
        ],
    },
};
