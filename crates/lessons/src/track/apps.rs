//! MCP Apps: a tool's own view, hosted by the page, and the third conversation it
//! adds (view ↔ host, beside host ↔ server and host ↔ model).

use super::basics::{at, mock, on_app, on_card, on_wire};
use crate::{Check, Choice, Lesson, Provider};

/// A tool's view, and who talks to whom.
pub const APPS: Lesson = Lesson {
    slug: "apps",
    title: "MCP Apps: a tool's view talks to the host, never to the server",
    goal: "See the third conversation an app adds: the view of get_weather talks to the host by postMessage, and the host alone decides what reaches the server.",
    setup: mock("What's the weather in Austin?", Provider::Anthropic),
    task: "Run the loop: get_weather links a view, which the host reads over MCP and shows under step 5. In the view, press its 3-day forecast button. Then open the Wire log: the view's tools/call is a row of the app ↔ host lane, and the host's own tools/call to the server follows it.",
    needs: &[
        on_wire(
            "Run the loop: the host reads the view's ui:// resource over MCP",
            "params.uri",
            Some("\"ui://demo/weather-card\""),
        ),
        on_app(
            "The view and the host shake hands (ui/initialize)",
            "method",
            Some("\"ui/initialize\""),
        ),
        on_app(
            "Press the view's 3-day forecast button: the view asks the host to call get_forecast",
            "params.name",
            Some("\"get_forecast\""),
        ),
        on_wire(
            "The host sends that call to the server as its own request",
            "params.name",
            Some("\"get_forecast\""),
        ),
    ],
    notice: &[
        at(
            4,
            "params.name",
            "The model picked get_weather as it would any tool: its view is named in the tool's _meta.ui.resourceUri, which the host reads, not the model.",
        ),
        at(
            5,
            "result.content[0].text",
            "This CallToolResult goes to the model in step 6 and, as ui/notifications/tool-result, to the view under step 5.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "How did the view's tools/call reach the MCP server?",
        choices: &[
            Choice {
                text: "The host checked it and sent it as its own request",
                right: true,
                feedback: "Right: the view runs in a sandboxed frame with no connection of its own. The host checks that the tool's visibility includes the app (a tool marked only for the model is refused), then calls the server itself; a tool marked only for the app is, the other way round, withheld from the model in step 2.",
            },
            Choice {
                text: "The view called the server over its own connection",
                right: false,
                feedback: "The frame has no session with the server and its policy allows no connection it did not declare: in the Wire log its call is an app ↔ host row, and the one to the server is the host's.",
            },
            Choice {
                text: "The model called get_forecast for the view",
                right: false,
                feedback: "The model took no turn: the conversation still ends with step 6's answer about get_weather. The view asked the host directly.",
            },
        ],
    },
};

/// An app-only tool: listed, called by the view, never offered to the model.
pub const APP_ONLY: Lesson = Lesson {
    slug: "app-only",
    title: "App-only tools: listed, but never offered to the model",
    goal: "See a tool the server lists for its view alone: the host keeps get_weather_details out of the model's tools in step 2, and calls it only when the view asks.",
    setup: mock("What's the weather in Austin?", Provider::Anthropic),
    task: "Run the loop. Step 1's third page lists get_weather_details with the visibility [\"app\"]; step 2 offers the model every other tool and says which one it withheld. In the view under step 5, press its Details button: the view asks the host for get_weather_details, and the host calls the server.",
    needs: &[
        on_card(
            "Run the loop: step 1's third page lists get_weather_details, for the app only",
            1,
            "result.tools[3]._meta.ui.visibility[0]",
            Some("\"app\""),
        ),
        on_app(
            "Press the view's Details button: the view asks the host to call get_weather_details",
            "params.name",
            Some("\"get_weather_details\""),
        ),
        on_wire(
            "The host calls get_weather_details on the server, as its own request",
            "params.name",
            Some("\"get_weather_details\""),
        ),
    ],
    notice: &[at(
        2,
        "[0].name",
        "Step 2 offers the model 25 of the 26 tools listed: get_weather_details is not among them, because its visibility leaves the model out.",
    )],
    pitfalls: &[],
    check: Check::Choice {
        question: "Why did the model never call get_weather_details?",
        choices: &[
            Choice {
                text: "The host left it out of the model's tools: its visibility is the app alone",
                right: true,
                feedback: "Right: _meta.ui.visibility [\"app\"] means only the server's own view may call it. The host lists it in step 1 and calls it when the view asks, but must not offer it to the model, and would refuse the model's call if one came anyway.",
            },
            Choice {
                text: "The server hid it from tools/list",
                right: false,
                feedback: "Step 1's third page lists it: the server hides nothing. The host decides what the model is offered.",
            },
            Choice {
                text: "The model saw it and preferred get_weather",
                right: false,
                feedback: "The model never saw it: step 2's tool list, the exact body sent to the model, has 24 tools and not this one.",
            },
        ],
    },
};
