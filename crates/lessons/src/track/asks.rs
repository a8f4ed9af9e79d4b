//! When the server asks: sampling, an elicitation form, a URL elicitation, roots,
//! and the 2026-07-28 way of asking (`input_required`). Each calls one of the demo's
//! asking tools; the loop pauses in step 4 while the server waits for the host.

use super::basics::{at, mock, on_card, on_wire};
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
    goal: "See a server ask the host's model for text mid-call, a person approving the request and the reply.",
    setup: setup("Summarize the note about errors"),
    task: "Run the loop. In step 4 the server asks: read the request and press “Approve the request”, let “The mock model” write the reply, and press “Send this reply”. Run it again and press “Reject it”.",
    needs: &[
        on_card(
            "Approve twice: step 5 holds the text the host's model wrote",
            5,
            "result.content[0].text",
            None,
        ),
        on_wire(
            "Run it again and reject: the host answers error -1",
            "error.code",
            Some("-1"),
        ),
    ],
    notice: &[
        at(
            4,
            "params.maxTokens",
            "The direction reverses: sampling/createMessage goes from server to host while the call waits. Messages, systemPrompt, modelPreferences, maxTokens: the server's wishes; the host decides.",
        ),
        at(
            5,
            "result.content[0].text",
            "Written by the host's model: the server has none, and never sees your API key.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "A server sends sampling/createMessage. Whose model writes the answer?",
        choices: &[
            Choice {
                text: "The host's, once a person has approved the request",
                right: true,
                feedback: "Right: the host picks the model (the server only hints), and a person approves the request and the reply.",
            },
            Choice {
                text: "The server's, with its own API key",
                right: false,
                feedback: "A server with its own model would not need sampling.",
            },
            Choice {
                text: "Any model: the client forwards the request to a provider unread",
                right: false,
                feedback: "The host reads it, may edit or reject it (error -1), and picks the model.",
            },
        ],
    },
};

/// Elicitation, form mode.
pub const ELICIT_FORM: Lesson = Lesson {
    slug: "elicitation-form",
    title: "Elicitation: the server asks you",
    goal: "Answer a server's question in a form built from its requestedSchema, and see accept, decline and cancel differ.",
    setup: setup("Reserve a table for dinner"),
    task: "Run the loop and look at the form the server asks for; press “Accept and send”. Run it again and press “Decline”; then once more and press “Cancel”.",
    needs: &[
        on_wire("Accept the form", "result.action", Some("\"accept\"")),
        on_wire("Decline it", "result.action", Some("\"decline\"")),
        on_wire("Cancel it", "result.action", Some("\"cancel\"")),
    ],
    notice: &[
        at(
            4,
            "params.requestedSchema.properties.time.oneOf",
            "Titled choices (const and title) next to an integer with a default: the host builds the form.",
        ),
        at(
            4,
            "result.action",
            "Your answer is the result of the server's request: accept (with content), decline or cancel.",
        ),
        at(
            5,
            "result.content[0].text",
            "What the tool made of your answer: each of the three reads differently.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "You press Decline. What does the server receive?",
        choices: &[
            Choice {
                text: "{\"action\": \"decline\"} and no content",
                right: true,
                feedback: "Right: decline is a no, cancel a dismissal; only accept carries content.",
            },
            Choice {
                text: "The form's default values",
                right: false,
                feedback: "Defaults only fill the form; nothing is sent without accept.",
            },
            Choice {
                text: "A JSON-RPC error",
                right: false,
                feedback: "Declining is a normal ElicitResult, not a failure.",
            },
        ],
    },
};

/// Elicitation, URL mode.
pub const ELICIT_URL: Lesson = Lesson {
    slug: "elicitation-url",
    title: "URL elicitation: never opened without a click",
    goal: "See a server send you to a web page the host opens only when you click.",
    setup: setup("Link my account"),
    task: "Run the loop and read the URL and its domain; open it, then press “Done”. The call waits for your Done; the server then sends notifications/elicitation/complete.",
    needs: &[on_wire(
        "Open the page and press Done: the server sends notifications/elicitation/complete",
        "method",
        Some("\"notifications/elicitation/complete\""),
    )],
    notice: &[
        at(
            4,
            "params.url",
            "The URL to visit: shown with its domain, opened only on your click.",
        ),
        at(
            5,
            "result.content[0].text",
            "It comes after the completion notice: accepting only meant you would open the page.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "The server sent a URL. When does the host open it?",
        choices: &[
            Choice {
                text: "Only when you click, after it showed the full URL and its domain",
                right: true,
                feedback: "Right: no server may make the host open a page; you check where it leads first.",
            },
            Choice {
                text: "At once, in a new tab, so the flow is quick",
                right: false,
                feedback: "Any server could then open any page: the spec requires your consent.",
            },
            Choice {
                text: "Never: the client fetches the URL and sends the page to the server",
                right: false,
                feedback: "URL mode exists so that what you type there never passes through the client.",
            },
        ],
    },
};

/// Roots.
pub const ROOTS: Lesson = Lesson {
    slug: "roots",
    title: "Roots: what the server may see",
    goal: "See a server ask the client which folders it shares.",
    setup: setup("Show my roots"),
    task: "Run the loop; when the server asks, send the roots in the box (one file:// URI per line, a name after a space, such as file:///home/learner/project project). Then add a line, press “Save” and run again.",
    needs: &[
        on_card(
            "Send your roots: step 4 holds the host's answer",
            4,
            "result.roots[0].uri",
            None,
        ),
        on_wire(
            "Change the list and Save: the host tells the server",
            "method",
            Some("\"notifications/roots/list_changed\""),
        ),
    ],
    notice: &[
        at(
            4,
            "result.roots",
            "The host's answer: the file:// URIs it shares, nothing more.",
        ),
        at(
            5,
            "result.content[0].text",
            "The server learns the roots only by asking.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "Who decides which folders a server works in?",
        choices: &[
            Choice {
                text: "The client (you, through the host's list of roots)",
                right: true,
                feedback: "Right: and when the list changes it tells the server (notifications/roots/list_changed).",
            },
            Choice {
                text: "The server, from its own configuration",
                right: false,
                feedback: "Roots are how the client tells the server where it may look.",
            },
            Choice {
                text: "The model, in its tool call",
                right: false,
                feedback: "Roots are not arguments: the server asks the client, with roots/list.",
            },
        ],
    },
};

/// 2026-07-28: asking with `input_required` and retrying (MRTR).
pub const MRTR: Lesson = Lesson {
    slug: "input-required",
    title: "2026-07-28: input_required and the retry",
    goal: "See 2026-07-28 ask without a request: the call ends input_required and the host retries it with the answers.",
    setup: mock("Reserve a table for dinner", Provider::Anthropic),
    task: "With the revision on auto (2026-07-28 with the demo, as the line under the server bar says), run the loop, answer the form, and compare the two tools/call requests.",
    needs: &[
        on_card(
            "Run the loop: the call ends input_required",
            4,
            "result.resultType",
            Some("\"input_required\""),
        ),
        on_card(
            "Answer the form: the host retries with requestState",
            4,
            "params.requestState",
            None,
        ),
    ],
    notice: &[
        at(
            4,
            "result.inputRequests.booking",
            "The elicitation lesson's question, inside the call's result (resultType input_required).",
        ),
        at(
            4,
            "params.requestState",
            "The retry: same name and arguments, your answer in inputResponses, requestState unchanged.",
        ),
        at(
            5,
            "result.content[0].text",
            "The answer to the retry, once the server checked its requestState.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "What must the host send back, unchanged, when it retries the call?",
        choices: &[
            Choice {
                text: "The requestState the server sent",
                right: true,
                feedback: "Right: the server keeps no session; its state travels with the client (the demo refuses an edited one).",
            },
            Choice {
                text: "The JSON-RPC id of the first call",
                right: false,
                feedback: "The retry has a new id; requestState ties it to the first.",
            },
            Choice {
                text: "Nothing: the server remembers the first call",
                right: false,
                feedback: "It is stateless: what it needs is in requestState.",
            },
        ],
    },
};
