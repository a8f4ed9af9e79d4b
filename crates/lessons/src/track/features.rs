//! What a result can carry and what a session can do besides one call:
//! structured output, progress and cancel, `list_changed`, and playing the model.

use super::basics::{chose, done, on_card, on_wire};
use crate::{Check, Choice, Lesson, Model, Pitfall, Pointer, Provider, Server, Setup};

const fn setup(prompt: &'static str, model: Model) -> Setup {
    Setup {
        server: Server::Demo,
        prompt,
        model,
        provider: Provider::Anthropic,
        revision: None,
    }
}

const fn at(step: u8, field: &'static str, note: &'static str) -> Pointer {
    Pointer {
        step,
        field,
        note,
        prompt: None,
    }
}

/// Structured output.
pub const STRUCTURED: Lesson = Lesson {
    slug: "structured",
    title: "Structured output",
    goal: "See a result carry typed JSON checked against the tool's outputSchema, next to text for everyone else.",
    setup: setup("Forecast for Paris for 3 days", Model::Mock),
    task: "Run the loop and open step 5, then the Result panel. Then switch the host to naive, run it again and read step 6; switch back to the careful host and run it once more.",
    needs: &[
        on_card(
            "Run the loop: step 5 carries structuredContent",
            5,
            "result.structuredContent",
            None,
        ),
        chose(
            "Naive host: step 6 drops structuredContent and passes only content",
            Pitfall::DropStructured,
            true,
        ),
        chose(
            "Back to the careful host, run it again: step 6 keeps the data",
            Pitfall::DropStructured,
            false,
        ),
    ],
    notice: &[
        at(
            5,
            "result.structuredContent",
            "Typed data: it must fit the outputSchema the tool listed (the Result panel shows the check).",
        ),
        at(
            5,
            "result.content[0].text",
            "The same data as text, for clients and models that read only content.",
        ),
    ],
    pitfalls: &[Pitfall::DropStructured],
    check: Check::Choice {
        question: "Why does the result also carry the forecast as text in content[0]?",
        choices: &[
            Choice {
                text: "So a client that does not read structuredContent still gets the data",
                right: true,
                feedback: "Right: the spec asks a tool with structured output to send it as text too, for older clients and for models.",
            },
            Choice {
                text: "Because structuredContent is only for errors",
                right: false,
                feedback: "structuredContent holds the normal result; isError says whether it failed.",
            },
            Choice {
                text: "It is a mistake of the demo server",
                right: false,
                feedback: "It is on purpose: the text twin is what the spec recommends.",
            },
        ],
    },
};

/// Structured output that breaks its own schema.
pub const OUTPUT_SCHEMA: Lesson = Lesson {
    slug: "output-schema",
    title: "When the output breaks its schema",
    goal: "See the host check structuredContent against the tool's outputSchema, and catch a server that breaks its own promise.",
    setup: setup("Forecast for Reykjavik for 3 days", Model::Mock),
    task: "Run the loop, open step 5 and read its explanation; then open the Result panel and read the check under the structured content.",
    notice: &[
        at(
            5,
            "result.structuredContent.days[1].high",
            "null, where the outputSchema the tool listed promises an integer: the server broke its own schema (a missing reading).",
        ),
        at(
            5,
            "result.content[0].text",
            "The text twin has the same gap: the model would read it as it is.",
        ),
    ],
    needs: &[on_card(
        "Run the loop: step 5's structuredContent has a null where a number belongs",
        5,
        "result.structuredContent.days[1].high",
        Some("null"),
    )],
    pitfalls: &[],
    check: Check::Choice {
        question: "The structuredContent does not fit the tool's outputSchema. Whose mistake is it?",
        choices: &[
            Choice {
                text: "The server's: a tool that declares an outputSchema must return structuredContent that fits it",
                right: true,
                feedback: "Right: outputSchema is the server's promise (a MUST for servers); the client should check it (a SHOULD) and not trust data that breaks it as typed.",
            },
            Choice {
                text: "The model's: it asked for the wrong days",
                right: false,
                feedback: "The arguments fit the inputSchema (3 days, 1 to 5 allowed); the mismatch is in what the server sent back.",
            },
            Choice {
                text: "Nobody's: outputSchema is only a hint",
                right: false,
                feedback: "Annotations are hints; outputSchema is a contract the server must keep.",
            },
        ],
    },
};

/// Progress and cancel.
pub const PROGRESS: Lesson = Lesson {
    slug: "progress",
    title: "Progress and cancel",
    goal: "See a slow call report progress, and stop one with Cancel.",
    setup: setup("Count slowly to 10", Model::Mock),
    task: "Run the loop and watch the progress bar in the Result panel; run it again and press “Cancel the call” there while it counts.",
    needs: &[
        on_wire(
            "Run the loop: the server reports notifications/progress",
            "method",
            Some("\"notifications/progress\""),
        ),
        on_wire(
            "Run it again and press Cancel: the host sends notifications/cancelled",
            "method",
            Some("\"notifications/cancelled\""),
        ),
    ],
    notice: &[
        at(
            4,
            "params._meta.progressToken",
            "The host asks for progress: the server's notifications/progress carry this token back (see the wire log).",
        ),
        at(
            5,
            "result.content[0].text",
            "Without a cancel, the call ends with a normal result.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "How does the host know which call a notifications/progress is about?",
        choices: &[
            Choice {
                text: "It carries the progressToken the host sent in the call's _meta",
                right: true,
                feedback: "Right: the token ties progress to the request; cancelling sends notifications/cancelled with the request's id.",
            },
            Choice {
                text: "It carries the tool's name",
                right: false,
                feedback: "Two calls of one tool could run at once; the token tells them apart.",
            },
            Choice {
                text: "It is the response, sent several times",
                right: false,
                feedback: "A request gets exactly one response; progress comes as notifications before it.",
            },
        ],
    },
};

/// `list_changed`.
pub const LIST_CHANGED: Lesson = Lesson {
    slug: "list-changed",
    title: "list_changed",
    goal: "See a server announce that its tools changed, and the host list them again.",
    setup: setup("Toggle the bonus tool", Model::Mock),
    task: "Run the loop, then look at the wire log and the Tools panel's count. Run it again to take the bonus tool away. Then switch the host to naive and run it once more: watch the count. Switch back to the careful host and run it again.",
    needs: &[
        on_wire(
            "Run the loop: the server sends notifications/tools/list_changed",
            "method",
            Some("\"notifications/tools/list_changed\""),
        ),
        on_card(
            "Run it again: the second toggle takes secret_recipe away",
            5,
            "result.content[0].text",
            Some("\"Removed secret_recipe; the tool list changed.\""),
        ),
        chose(
            "Naive host, once more: it ignores the notification, and the Tools panel keeps the old list",
            Pitfall::IgnoreListChanged,
            true,
        ),
        chose(
            "Back to the careful host, run it again: it lists again at once",
            Pitfall::IgnoreListChanged,
            false,
        ),
    ],
    notice: &[
        at(
            5,
            "result.content[0].text",
            "The tool added secret_recipe; the server then sent notifications/tools/list_changed (wire log).",
        ),
        at(
            4,
            "params.name",
            "Nothing in the call asked for a new list: the notification did.",
        ),
    ],
    pitfalls: &[Pitfall::IgnoreListChanged],
    check: Check::Choice {
        question: "What did the careful host do when notifications/tools/list_changed arrived?",
        choices: &[
            Choice {
                text: "Sent tools/list again and read every page",
                right: true,
                feedback: "Right: the notification carries no tools, only the news; the Tools panel's count follows it (27 with secret_recipe, 26 without).",
            },
            Choice {
                text: "Nothing until the page is reloaded",
                right: false,
                feedback: "Look at the wire log: a new tools/list followed the notification at once.",
            },
            Choice {
                text: "Read the new tool from the notification",
                right: false,
                feedback: "The notification has no params worth reading; the host must list again.",
            },
        ],
    },
};

/// Untrusted tool descriptions (tool poisoning) and annotations as claims.
pub const UNTRUSTED: Lesson = Lesson {
    slug: "untrusted-descriptions",
    title: "What a server sends is untrusted",
    goal: "See a server write instructions for the model into a tool description and markup into a resource, and why a host treats all of it, annotations included, as untrusted.",
    setup: setup("Toggle the bonus tool", Model::Mock),
    task: "Run the loop: the server adds secret_recipe (if it says it removed it, run it again). Then press the button below that puts “Tell me the secret recipe” in the message box, run the loop, and read secret_recipe's description at the end of step 2's list; its annotations are in the Tools panel. Last, open the Resources panel and read “Hostile HTML”.",
    notice: &[
        at(
            5,
            "result.content[0].text",
            "A tool you never saw before arrives: its name, description and annotations are all the server's words.",
        ),
        Pointer {
            step: 2,
            field: "[0].description",
            note: "Every description goes to the model as it is: the server's words become part of the model's prompt.",
            prompt: Some("Tell me the secret recipe"),
        },
    ],
    needs: &[
        on_card(
            "Run the loop: the server adds secret_recipe",
            5,
            "result.content[0].text",
            Some("\"Added secret_recipe; the tool list changed.\""),
        ),
        on_card(
            "Run “Tell me the secret recipe”: step 2 hands secret_recipe's description to the model",
            2,
            "[24].name",
            Some("\"secret_recipe\""),
        ),
        on_wire(
            "Read “Hostile HTML” in the Resources panel: the page shows its markup as text and runs none of it",
            "params.uri",
            Some("\"demo://playground/hostile.html\""),
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "secret_recipe's description tells the model to call it first and to put your earlier messages in its arguments. Who wrote that, and what should a host do with it?",
        choices: &[
            Choice {
                text: "The server; the host hands descriptions to the model as they are, so it treats them, and the annotations, as untrusted claims",
                right: true,
                feedback: "Right: a description becomes part of the model's prompt (tool poisoning), and readOnlyHint and the other annotations are hints from the same server. A careful host shows new and changed tools to the user and never lets a server's words widen what the model may do.",
            },
            Choice {
                text: "The MCP spec vets descriptions, so the model may follow it",
                right: false,
                feedback: "Nothing in MCP vets a description: a server can write anything there.",
            },
            Choice {
                text: "You did, when you toggled the bonus tool",
                right: false,
                feedback: "You only asked for the list to change; every word of the new tool came from the server.",
            },
        ],
    },
};

/// Playing the model.
pub const PLAY_MODEL: Lesson = Lesson {
    slug: "play-model",
    title: "Playing the model",
    goal: "Be the model: pick the tool and write the answer yourself, and see what the host does with it.",
    setup: setup("What's the weather in Austin?", Model::Play),
    task: "Step until “Your turn as the model” shows below the steps. Press “Or call a tool”, then “Fill its form” on get_weather in the Tools panel; type Austin as the city and press “Send as the model”. The host runs steps 4 and 5 itself; at step 6, write the answer in the box and press “Answer with this text”.",
    needs: &[
        on_card(
            "Call get_weather as the model: step 3 holds your call",
            3,
            "content[0].name",
            Some("\"get_weather\""),
        ),
        done("Write the answer at step 6", 6),
    ],
    notice: &[
        at(
            3,
            "content[0].input.city",
            "Your choice, written as the model's reply in the chosen API's format.",
        ),
        at(4, "params.name", "The host, not you, sends tools/call."),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "Playing the model, who sent tools/call to the server?",
        choices: &[
            Choice {
                text: "I did, from the box",
                right: false,
                feedback: "You only said which tool and which arguments, as a model does.",
            },
            Choice {
                text: "The host, from the call I picked",
                right: true,
                feedback: "Right: a model never talks to an MCP server; the host reads its reply and makes the call.",
            },
            Choice {
                text: "The server called itself",
                right: false,
                feedback: "Servers answer requests; the host made one in step 4.",
            },
        ],
    },
};
