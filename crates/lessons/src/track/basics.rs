//! The loop itself: its six steps, paging, the two kinds of failure, reshaping
//! per provider, and several calls in one turn.

use crate::{Check, Choice, Lesson, Model, Need, Pitfall, Pointer, Provider, Server, Setup, Sign};

pub(super) const fn mock(prompt: &'static str, provider: Provider) -> Setup {
    Setup {
        server: Server::Demo,
        prompt,
        model: Model::Mock,
        provider,
        revision: None,
    }
}

/// A need seen on a step card: `field` (equal to `value`, JSON text, if given).
pub(super) const fn on_card(
    task: &'static str,
    step: u8,
    field: &'static str,
    value: Option<&'static str>,
) -> Need {
    Need {
        task,
        sign: Sign::Field { step, field, value },
    }
}

/// A need seen in the wire log: a message with `field` (equal to `value` if given).
pub(super) const fn on_wire(
    task: &'static str,
    field: &'static str,
    value: Option<&'static str>,
) -> Need {
    Need {
        task,
        sign: Sign::Wire { field, value },
    }
}

/// A need seen in the wire log's app ↔ host lane: a message with `field` (equal to
/// `value` if given).
pub(super) const fn on_app(
    task: &'static str,
    field: &'static str,
    value: Option<&'static str>,
) -> Need {
    Need {
        task,
        sign: Sign::App { field, value },
    }
}

/// A need seen when a card says the host made a choice about `pitfall`, naive or
/// careful.
pub(super) const fn chose(task: &'static str, pitfall: Pitfall, naive: bool) -> Need {
    Need {
        task,
        sign: Sign::Choice { pitfall, naive },
    }
}

/// A need seen when the sign-in panel shows a card of `exchange`.
pub(super) const fn signed(task: &'static str, exchange: crate::AuthStep) -> Need {
    Need {
        task,
        sign: Sign::Auth(exchange),
    }
}

/// A need seen when step `step` has finished.
pub(super) const fn done(task: &'static str, step: u8) -> Need {
    Need {
        task,
        sign: Sign::Done(step),
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
    task: "Press the step button until the model's answer shows (five presses: steps 4 and 5 arrive together), and read each card's badge: “over MCP” or “inside the host”.",
    needs: &[done("Walk the loop to step 6, the model's answer", 6)],
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
    pitfalls: &[],
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
    setup: mock("What is the square of 7?", Provider::Anthropic),
    task: "Switch the host to naive and run the loop: read step 1 and the model's answer. Then switch back to the careful host, do step 1 again and open its request and response blocks, page by page, to the last one.",
    needs: &[
        chose(
            "Naive host, run the loop: it reads page 1 only, and the model never sees math.square",
            Pitfall::FirstPageOnly,
            true,
        ),
        on_card(
            "Careful host, do step 1: it asks for the fifth and last page (cursor \"page-24\")",
            1,
            "params.cursor",
            Some("\"page-24\""),
        ),
    ],
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
    pitfalls: &[Pitfall::FirstPageOnly],
    check: Check::Choice {
        question: "Page 1 came back with six tools and nextCursor \"page-6\". What does the host do next?",
        choices: &[
            Choice {
                text: "Sends tools/list again with params.cursor \"page-6\"",
                right: true,
                feedback: "Right: the cursor is opaque; the host hands it back until a page comes without one. The demo has 26 tools on 5 pages (count_task among them: the page declares the Tasks extension).",
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
    task: "Run the loop for Atlantis. Switch the host to naive and run it again; switch back to the careful host and run it once more. Then switch to naive again, press the button below that puts “call no_such_tool” in the message box, and run the loop; switch back to the careful host and run that message once more.",
    needs: &[
        on_card(
            "Run the loop for Atlantis: step 5 shows isError true",
            5,
            "result.isError",
            Some("true"),
        ),
        chose(
            "Naive host, Atlantis again: step 6 feeds the error back as if it were a success",
            Pitfall::ErrorAsSuccess,
            true,
        ),
        chose(
            "Careful host, Atlantis once more: step 6 tells the model the tool failed",
            Pitfall::ErrorAsSuccess,
            false,
        ),
        on_card(
            "Naive host, “call no_such_tool”: it sends a tool the server never listed, and step 5 shows error -32602",
            5,
            "error.code",
            Some("-32602"),
        ),
        chose(
            "Careful host, “call no_such_tool” again: it refuses the invented tool itself",
            Pitfall::AcceptInventedTool,
            false,
        ),
    ],
    notice: &[
        at(
            5,
            "result.isError",
            "Atlantis: the tool ran and said it failed. It is still a result, and the model reads it.",
        ),
        Pointer {
            step: 4,
            field: "params.name",
            note: "A tool the server never listed: the careful host builds the call and does not send it. The naive host sends it, and the server answers with no result at all, a JSON-RPC error (-32602).",
            prompt: Some("call no_such_tool"),
        },
    ],
    pitfalls: &[Pitfall::ErrorAsSuccess, Pitfall::AcceptInventedTool],
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
    task: "Run the loop in the OpenAI Chat format. Switch the host to naive and run it again. Then switch back to the careful host, switch the Model API format to Gemini, run the loop again and look at step 2.",
    needs: &[
        on_card(
            "Run the loop in OpenAI Chat's format: step 2 lists math_square",
            2,
            "[19].function.name",
            Some("\"math_square\""),
        ),
        chose(
            "Naive host: it sends math.square unchanged, and OpenAI answers step 3 with a 400",
            Pitfall::RawNames,
            true,
        ),
        on_card(
            "Careful host, Gemini's format: step 2 holds functionDeclarations",
            2,
            "[0].functionDeclarations[19].name",
            None,
        ),
    ],
    notice: &[
        at(
            2,
            "[19].function.name",
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
    pitfalls: &[Pitfall::RawNames],
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
    needs: &[Need {
        task: "Run the loop: two step 4 cards",
        sign: Sign::Cards { step: 4, count: 2 },
    }],
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
    pitfalls: &[],
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

/// The two generations of MCP and the revision the page speaks.
pub const GENERATIONS: Lesson = Lesson {
    slug: "generations",
    title: "Two generations: initialize and server/discover",
    goal: "Know which protocol revision the page speaks with the demo, and what changed between the two generations of MCP.",
    setup: mock("What's the weather in Austin?", Provider::Anthropic),
    task: "Read the line under the server bar. Open the Server tab, set Protocol revision to “2025-11-25 only” and read the first messages of the wire log; then set it back to auto and read them again. Run the loop once and open step 1.",
    notice: &[
        at(
            1,
            "result.resultType",
            "2026-07-28 marks every result with resultType: complete here, input_required when the server needs an answer first.",
        ),
        at(
            1,
            "result.ttlMs",
            "A list says how long it may be cached (ttlMs, cacheScope): a stateless server has no session to tell you it changed.",
        ),
        at(
            1,
            "method",
            "tools/list itself reads the same in both generations.",
        ),
    ],
    needs: &[
        on_wire(
            "Pin 2025-11-25: the host opens with initialize",
            "method",
            Some("\"initialize\""),
        ),
        on_wire(
            "Back to auto: the host opens with server/discover",
            "method",
            Some("\"server/discover\""),
        ),
        done("Run the loop in 2026-07-28", 6),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "On auto, with the demo, what is the first message the host sends?",
        choices: &[
            Choice {
                text: "server/discover, and no initialize at all",
                right: true,
                feedback: "Right: 2026-07-28 is stateless. The client asks what the server supports, and every request then carries its revision; there is no session to set up.",
            },
            Choice {
                text: "initialize, then notifications/initialized",
                right: false,
                feedback: "That is the first generation (2024-11-05 to 2025-11-25): you saw it with the revision pinned to 2025-11-25.",
            },
            Choice {
                text: "tools/list, with no set-up",
                right: false,
                feedback: "Look at the wire log's first rows after switching back to auto: one message comes before tools/list.",
            },
        ],
    },
};
