//! Transports: the same demo over the deprecated HTTP+SSE transport and over
//! Streamable HTTP, both played inside the page (`mcpg_demo_sse`), so the
//! difference shows with no network: where each answer travels.

use super::basics::{at, done, on_wire};
use crate::{Check, Choice, Lesson, Model, Need, Provider, Server, Setup, Sign, TransportKind};

/// A need seen when the Server panel's Transport row names `kind`.
const fn over(task: &'static str, kind: TransportKind) -> Need {
    Need {
        task,
        sign: Sign::Transport(kind),
    }
}

/// Why HTTP+SSE was replaced.
pub const HTTP_SSE: Lesson = Lesson {
    slug: "http-sse",
    title: "Why HTTP+SSE was replaced",
    goal: "Run the same demo over the old HTTP+SSE transport (2024-11-05) and over Streamable HTTP, and see where each answer travels.",
    setup: Setup {
        server: Server::SseDemo,
        prompt: "What's the weather in Paris?",
        model: Model::Mock,
        provider: Provider::Anthropic,
        revision: None,
    },
    task: "The lesson connects to the demo over the old HTTP+SSE transport, played in this page. Run the loop, then read the Transport row in the “Server” tab. Then press “Connect over Streamable HTTP” (the same demo at /mcp) and run the loop again.",
    needs: &[
        done(
            "Run the loop over HTTP+SSE: step 4's call is POSTed, and step 5's result arrives on the GET stream the page opened when it connected",
            5,
        ),
        over(
            "Read the Transport row: the POST was answered 405, so the page “fell back to HTTP+SSE (2024-11-05)”, opened a GET stream and waited for its endpoint event, which named /messages/?session_id=…",
            TransportKind::Sse,
        ),
        over(
            "Press “Connect over Streamable HTTP”: the Transport row now says “Streamable HTTP: a POST answered 200”, with no stream to wait for",
            TransportKind::StreamableHttp,
        ),
        on_wire(
            "Run the loop again: step 5's result comes back as the response to the POST that carried the call",
            "result.content",
            None,
        ),
    ],
    notice: &[
        at(
            4,
            "params.name",
            "The call names the tool the same way over either transport: what differs is the road its answer takes back.",
        ),
        at(
            5,
            "result.content[0].text",
            "Over HTTP+SSE this answer came on the long-held GET stream, matched to its call by the id alone; over Streamable HTTP it is the POST's own response.",
        ),
    ],
    pitfalls: &[],
    check: Check::Choice {
        question: "Why did Streamable HTTP replace HTTP+SSE?",
        choices: &[
            Choice {
                text: "Every answer travels on a separate, long-held GET stream: a dropped stream loses the answers",
                right: true,
                feedback: "Right: each POST only gets 202 Accepted and its answer goes out on the stream; the old transport cannot resume, so a cut stream loses what was in flight, and every request must reach the one server holding that stream (sticky sessions). Streamable HTTP answers the POST itself and streams only when it needs to; 2026-07-28 goes further and keeps no session at all.",
            },
            Choice {
                text: "HTTP+SSE could not carry tool calls, only notifications",
                right: false,
                feedback: "You ran a tool call over it: POSTed to the endpoint the stream named, answered on the stream.",
            },
            Choice {
                text: "Browsers cannot read an event stream",
                right: false,
                feedback: "They do: this page reads a real server's event stream with fetch, as it does for the old transport's GET; Streamable HTTP uses the same SSE format when it streams an answer.",
            },
        ],
    },
};
