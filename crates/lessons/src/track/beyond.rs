//! Beyond tools: resources, prompts, skills, completions and logs. Each lesson still runs
//! the loop (so its pointers name what a step shows), and its task sends the
//! learner to the Resources, Prompts or Logs panel for the rest.

use super::basics::{at, mock, on_card, on_wire};
use crate::{Check, Choice, Lesson, Provider, Setup};

/// Every lesson here: the demo, the mock model, Anthropic's format.
const fn setup(prompt: &'static str) -> Setup {
    mock(prompt, Provider::Anthropic)
}

/// Resources: the application decides.
pub const RESOURCES: Lesson = Lesson {
    slug: "resources",
    title: "Resources: the application decides",
    goal: "See that resources are data the application chooses to read, while tools are actions the model chooses to call.",
    setup: setup("Read the note about pagination"),
    task: "Run the loop, open the Result panel and press “Read it” on the resource_link; then open the Resources panel and read a resource of your own choosing.",
    needs: &[
        on_card(
            "Run the loop: step 5 carries a resource_link",
            5,
            "result.content[1].type",
            Some("\"resource_link\""),
        ),
        on_wire(
            "Read a resource: the host sends resources/read",
            "method",
            Some("\"resources/read\""),
        ),
    ],
    notice: &[
        at(
            5,
            "result.content[1].uri",
            "A link to a resource: the server does not send it, and the model cannot read it. Read it is the application's choice (resources/read in the Resources panel).",
        ),
        at(
            2,
            "[0].input_schema",
            "The model is given tools only: no resource from resources/list is in this list.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "Who decides that a resource is read?",
        choices: &[
            Choice {
                text: "The application (the host, or the user through it)",
                right: true,
                feedback: "Right: resources are application-controlled. The host reads them with resources/read and decides what, if anything, goes into the model's context.",
            },
            Choice {
                text: "The model, by calling resources/read",
                right: false,
                feedback: "The model only sees the tools of step 2; resources/read is a request the host sends (see the Resources panel's exchange).",
            },
            Choice {
                text: "The server, by pushing it to the client",
                right: false,
                feedback: "A server can announce that a resource changed (a subscription), but the client asks for its contents.",
            },
        ],
    },
};

/// Prompts: the user picks them.
pub const PROMPTS: Lesson = Lesson {
    slug: "prompts",
    title: "Prompts: the user picks them",
    goal: "Start the loop from a prompt the server offers instead of a message you type.",
    setup: setup("What's the weather in Tokyo? Tell me what to pack."),
    task: "Open the Prompts panel, choose plan_trip, fill city with Tokyo and press “Get the prompt”; then press “Use in the loop”, which puts its messages in the loop and runs it. Compare step 3 with a run of the typed message.",
    needs: &[
        on_wire(
            "Get plan_trip: the host sends prompts/get",
            "params.name",
            Some("\"plan_trip\""),
        ),
        on_card(
            "Use it in the loop: step 3 starts from the prompt's messages",
            3,
            "messages[0].content",
            None,
        ),
    ],
    notice: &[at(
        3,
        "messages[0].content",
        "The conversation the model is given: with Use in the loop, the prompt's messages are placed here, exactly as if typed.",
    )],
    pitfalls: &[],
    check: Check::Choice {
        question: "Who chooses which prompt to use?",
        choices: &[
            Choice {
                text: "The user, from what the host shows (a menu, a slash command)",
                right: true,
                feedback: "Right: prompts are user-controlled templates. The server offers them, the user picks one, and prompts/get fills it in.",
            },
            Choice {
                text: "The model, like a tool",
                right: false,
                feedback: "Prompts are not in the model's tool list (step 2); they seed the conversation before the model says anything.",
            },
            Choice {
                text: "The server, on every request",
                right: false,
                feedback: "The server only answers prompts/list and prompts/get; it never inserts a prompt by itself.",
            },
        ],
    },
};

/// Completions.
pub const COMPLETIONS: Lesson = Lesson {
    slug: "completions",
    title: "Completions",
    goal: "See the server suggest argument values as you type, for a prompt or a resource template.",
    setup: setup("What's the weather in Reykjavik?"),
    task: "Open the Resources panel, type Re into the city field of weather://{city}/today and pick a suggestion; read it. Then run the loop.",
    needs: &[
        on_wire(
            "Type in the template's city field: the host sends completion/complete",
            "method",
            Some("\"completion/complete\""),
        ),
        on_card(
            "Run the loop for Reykjavik",
            4,
            "params.arguments.city",
            Some("\"Reykjavik\""),
        ),
    ],
    notice: &[at(
        4,
        "params.arguments.city",
        "The same city the template form's completion/complete offered: the server knows its own values.",
    )],
    pitfalls: &[],
    check: Check::Choice {
        question: "What does completion/complete return?",
        choices: &[
            Choice {
                text: "Suggested values for one argument, given what was typed so far",
                right: true,
                feedback: "Right: values (and optionally total and hasMore) for one argument of a prompt or a template, with the other arguments as context.",
            },
            Choice {
                text: "The model's next words",
                right: false,
                feedback: "No model is involved: it is the server's own list of values, like autocomplete in a form.",
            },
            Choice {
                text: "The resource's contents",
                right: false,
                feedback: "Contents come from resources/read once the URI is complete.",
            },
        ],
    },
};

/// Logs.
pub const LOGS: Lesson = Lesson {
    slug: "logs",
    title: "Logs",
    goal: "Ask the server for log messages at a level, and see them arrive beside the loop.",
    setup: setup("What's the weather in Paris?"),
    task: "Open the Logs panel, choose debug, then run the loop. Back in the Logs panel, filter the messages by level; then choose warning and run it again.",
    needs: &[
        on_wire(
            "Choose debug and run the loop: the server sends messages at debug",
            "params.level",
            Some("\"debug\""),
        ),
        on_card(
            "Choose warning and run it again: step 4's call asks for warning in its _meta (2026-07-28 has no logging/setLevel)",
            4,
            "params._meta[\"io.modelcontextprotocol/logLevel\"]",
            Some("\"warning\""),
        ),
    ],
    notice: &[at(
        5,
        "result.content[0].text",
        "The result goes back to the model in step 6; the log messages sent during the call do not.",
    )],
    pitfalls: &[],
    check: Check::Choice {
        question: "Who are the server's log messages for?",
        choices: &[
            Choice {
                text: "The user and the developer: the host shows them, the model does not get them",
                right: true,
                feedback: "Right: notifications/message is for the client to show or record; step 6 feeds back the result only.",
            },
            Choice {
                text: "The model, to explain the result",
                right: false,
                feedback: "Look at step 6's request: the log lines are not in it.",
            },
            Choice {
                text: "Nobody unless the call fails",
                right: false,
                feedback: "At debug the demo logs every call, successful or not.",
            },
        ],
    },
};

/// Skills: context the host gives the model, checked before use.
pub const SKILLS: Lesson = Lesson {
    slug: "skills",
    title: "Skills: instructions the host gives the model, checked first",
    goal: "See how a host uses a skill the server publishes: listed with skills/list, each file read over MCP and checked against its SHA-256, then SKILL.md handed to the model in the system prompt, which a prompt never is.",
    setup: setup("What's the weather in Austin?"),
    task: "Open the Skills panel: the host lists the server's skills with skills/list. On weather-report press “Read and verify”: the host reads its two files with resources/read and checks each one's size and digest. Tick “Use in the loop”, then run the loop: step 2 shows the system prompt with the skill beside the tools.",
    needs: &[
        on_wire(
            "Open the Skills panel: the host sends skills/list",
            "method",
            Some("\"skills/list\""),
        ),
        on_wire(
            "Read and verify: the host reads SKILL.md with resources/read",
            "params.uri",
            Some("\"skill://weather-report/SKILL.md\""),
        ),
        on_card(
            "Use it in the loop and run: step 2 carries the skill in the system prompt",
            2,
            "skills[0]",
            Some("\"weather-report\""),
        ),
    ],
    notice: &[at(
        2,
        "[0].input_schema",
        "A skill is not among the tools: the host gives its SKILL.md to the model in the system prompt, the next block of this step while a skill is in use.",
    )],
    pitfalls: &[],
    check: Check::Choice {
        question: "How does a skill differ from a prompt?",
        choices: &[
            Choice {
                text: "A skill is context the host gives the model; a prompt is a template the user picks",
                right: true,
                feedback: "Right: a prompt starts a conversation when the user chooses it (prompts/get), while a skill's SKILL.md is instructions the host adds to what the model reads, once its files are read and their digests match.",
            },
            Choice {
                text: "A skill is a tool the model calls when it needs the instructions",
                right: false,
                feedback: "Step 2's tools do not include it: the host put SKILL.md in the system prompt itself, after reading and checking the files.",
            },
            Choice {
                text: "The server sends a skill's instructions to the model directly",
                right: false,
                feedback: "The server only answered skills/list and resources/read: the host checked each file's size and SHA-256 and decided to pass SKILL.md on. The server never talks to the model.",
            },
        ],
    },
};
