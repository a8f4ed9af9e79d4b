//! The loop itself: its six steps, paging, the two kinds of failure, reshaping
//! per provider, and several calls in one turn.

use crate::{Check, Choice, Lesson, Model, Pointer, Provider, Server, Setup};

pub(super) const fn mock(prompt: &'static str, provider: Provider) -> Setup {
    Setup {
        server: Server::Demo,
        prompt,
        model: Model::Mock,
        provider,
        revision: None,
    }
}

pub(super) const fn at(step: u8, field: &'static str, note: &'static str) -> Pointer {
    Pointer {
        step,
        field,
        note,
        prompt: None,
    }
}

/// The six steps, and which of them are MCP.
pub const SIX_STEPS: Lesson = Lesson {
    slug: "six-steps",
    title: "The six steps",
    goal: "See the whole tool loop once and tell the steps that cross the wire from the ones inside the host.",
    setup: mock("What's the weather in Austin?", Provider::Anthropic),
    task: "Press the step button six times (or run the whole loop) and read each card's badge.",
    notice: &[
        at(
            1,
            "method",
            "Step 1 is a JSON-RPC request to the server: tools/list.",
        ),
        at(
            3,
            "content[0].name",
            "Step 3 is the model's reply in Anthropic's format: the host reads the call out of it, and no MCP message is involved.",
        ),
        at(
            4,
            "params.arguments.city",
            "Step 4 sends the model's arguments to the server in tools/call.",
        ),
        at(
            5,
            "result.content[0].text",
            "Step 5 is the server's CallToolResult, the text the model will read.",
        ),
    ],
    check: Check::Short {
        question: "Which steps crossed the wire between the host and the MCP server? (numbers)",
        answer: "1, 4, 5",
        also: &["1 4 5", "one four five"],
        right: "Right: tools/list (1), tools/call (4) and its result (5) are MCP messages. Reshaping (2), the model's pick (3) and feeding the result back (6) happen inside the host.",
        wrong: "Look at the badges: the cards marked “over MCP” are the ones that crossed the wire.",
    },
};

/// All pages of `tools/list`.
pub const PAGINATION: Lesson = Lesson {
    slug: "pagination",
    title: "All pages of tools/list",
    goal: "See why a host must follow nextCursor until it is gone.",
    setup: mock("What's the weather in Austin?", Provider::Anthropic),
    task: "Do step 1 and open its request and response blocks, page by page.",
    notice: &[
        at(
            1,
            "result.nextCursor",
            "Each page but the last ends with nextCursor: there is more.",
        ),
        at(
            1,
            "params.cursor",
            "The host sends the cursor back, unchanged, to get the next page.",
        ),
    ],
    check: Check::Choice {
        question: "Page 1 came back with six tools and nextCursor \"page-6\". What does the host do next?",
        choices: &[
            Choice {
                text: "Sends tools/list again with params.cursor \"page-6\"",
                right: true,
                feedback: "Right: the cursor is opaque; the host hands it back until a page comes without one. The demo has 25 tools on 5 pages.",
            },
            Choice {
                text: "Shows the six tools to the model: that is the list",
                right: false,
                feedback: "That is the common bug: every tool after page 1 would be invisible to the model.",
            },
            Choice {
                text: "Sends tools/list with params.page 2",
                right: false,
                feedback: "There is no page number in MCP: the cursor is an opaque string the host passes back as it is.",
            },
        ],
    },
};

/// `isError` vs a JSON-RPC error.
pub const IS_ERROR: Lesson = Lesson {
    slug: "is-error",
    title: "isError vs a JSON-RPC error",
    goal: "Tell a tool that ran and failed from a request the protocol refused.",
    setup: mock("What's the weather in Atlantis?", Provider::Anthropic),
    task: "Run the loop for Atlantis, then use the second message (an unknown tool) and run it again.",
    notice: &[
        at(
            5,
            "result.isError",
            "Atlantis: the tool ran and said it failed. It is still a result, and the model reads it.",
        ),
        Pointer {
            step: 5,
            field: "error.code",
            note: "An unknown tool: no result at all, a JSON-RPC error (-32602). The tool never ran.",
            prompt: Some("call no_such_tool"),
        },
    ],
    check: Check::Choice {
        question: "get_weather answered Atlantis with result.isError: true. What happened?",
        choices: &[
            Choice {
                text: "The tool ran and reported a failure; the model is told and can react",
                right: true,
                feedback: "Right: isError is business logic (an unknown city). The host feeds it back to the model in step 6 as a failed tool result.",
            },
            Choice {
                text: "The server refused the request; the tool never ran",
                right: false,
                feedback: "That is a JSON-RPC error: an error member instead of result, as with no_such_tool.",
            },
            Choice {
                text: "The connection broke",
                right: false,
                feedback: "The answer arrived: a normal response with a result. Nothing broke below MCP.",
            },
        ],
    },
};

/// Reshaping per provider, with a name rewrite.
pub const RESHAPE: Lesson = Lesson {
    slug: "reshape",
    title: "Reshaping per provider",
    goal: "See the host rewrite MCP tools for one model API, names included, and map the name back.",
    setup: mock("square 12", Provider::OpenAiChat),
    task: "Run the loop in the OpenAI Chat format, then switch the format to Gemini and look at step 2 again.",
    notice: &[
        at(
            2,
            "[20].function.name",
            "OpenAI allows no dot in a tool name: math.square becomes math_square (listed under “Names rewritten”).",
        ),
        at(
            3,
            "choices[0].message.tool_calls[0].function.name",
            "The model calls the name it was given: math_square.",
        ),
        at(
            4,
            "params.name",
            "The host maps it back: tools/call names math.square, the server's own name.",
        ),
    ],
    check: Check::Short {
        question: "The model called math_square. Which tool name does the host send in tools/call?",
        answer: "math.square",
        also: &[],
        right: "Right: the server only knows its own names; the rename is the host's business and is undone before step 4.",
        wrong: "Look at step 4: params.name is what reached the server.",
    },
};

/// Parallel calls.
pub const PARALLEL: Lesson = Lesson {
    slug: "parallel",
    title: "Parallel calls",
    goal: "See one model turn ask for two tools, and the host run both and feed both results back.",
    setup: mock(
        "What's the weather in Paris and the time zone of Tokyo?",
        Provider::Anthropic,
    ),
    task: "Run the loop and count the tools/call cards.",
    notice: &[
        at(
            3,
            "content[1].name",
            "One reply, two tool_use blocks: the model asked for both at once.",
        ),
        at(
            6,
            "content[1].tool_use_id",
            "Both results go back in one message, each tied to its call by id.",
        ),
    ],
    check: Check::Choice {
        question: "How many tools/call requests crossed the wire in this loop?",
        choices: &[
            Choice {
                text: "One, carrying both tools",
                right: false,
                feedback: "tools/call names one tool. Count the step 4 cards.",
            },
            Choice {
                text: "Two, one per tool, each with its own id",
                right: true,
                feedback: "Right: MCP has no batch call; the host sends one tools/call per requested tool and gathers the results.",
            },
            Choice {
                text: "None: the model called the tools itself",
                right: false,
                feedback: "The model never reaches the server; it only asks, and the host calls.",
            },
        ],
    },
};
