"""A small MCP server on the Python SDK (`mcp` 2.x), used as a test peer.

Serves stdio by default; `--http PORT` serves Streamable HTTP on
127.0.0.1:PORT at /mcp; `--sse PORT` serves the deprecated HTTP+SSE transport
(2024-11-05) on 127.0.0.1:PORT: GET /sse, whose `endpoint` event names
/messages/?session_id=… to POST to (a POST to /sse answers 405); with `--cors` it
also answers a browser page on any origin (CORS headers, no Origin check: a test
peer on loopback, for the page's direct HTTP+SSE test). Run it with the venv that `cargo xtask install`
builds: `tests/peers/python/.venv/bin/python tests/peers/python/server.py`.

Tools: add, echo, fail (a tool error: isError true), crash (the process
dies in the middle of the call), book (asks the client for a party size
and a time through elicitation: `elicitation/create` up to 2025-11-25, an
`input_required` round under 2026-07-28). Resources: `note://python/readme` (text)
and the template `greeting://{name}`. Prompt: `review(code, language)`.
Completions: the prompt's `language` and the template's `name`.
"""

import argparse
import os
from typing import Annotated

from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.mcpserver import Elicit, MCPServer, Resolve
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import Completion, PromptReference, ResourceTemplateReference
from pydantic import BaseModel, Field

server = MCPServer("python-peer", version="0.1.0")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    # The return annotation is what gives the tool an outputSchema and the
    # result a structuredContent ({"result": a + b}).
    return a + b


@server.tool()
def echo(text: str) -> str:
    """Return the given text unchanged."""
    return text


@server.tool()
def fail(reason: str):  # noqa: ANN201 - no return annotation: no outputSchema for a tool that never returns
    """Always fails with the given reason, as a tool error (isError: true)."""
    # ToolError is the SDK's "anticipated failure": the message reaches the
    # client in the result's content, unlike an arbitrary exception.
    raise ToolError(reason)


@server.tool()
def crash():  # noqa: ANN201 - no return annotation: no outputSchema for a tool that never returns
    """Kill the whole server process (exit code 3) in the middle of the call."""
    # os._exit skips every cleanup and flush: the client sees the peer vanish.
    os._exit(3)


class Booking(BaseModel):
    """What `book` asks the client for."""

    party_size: int = Field(default=2, description="How many people")
    time: str = Field(description="When, as HH:MM")


def ask_booking(restaurant: str) -> Elicit[Booking]:
    """The question `book` asks; the SDK sends it the way the revision wants."""
    return Elicit(f"Book a table at {restaurant}: how many people, and when?", Booking)


@server.tool()
def book(restaurant: str, booking: Annotated[ElicitationResult[Booking], Resolve(ask_booking)]) -> str:
    """Book a table: asks the client for a party size and a time (elicitation)."""
    # The union annotation lets the tool say what the learner chose instead of
    # the SDK turning a decline into a tool error.
    if isinstance(booking, AcceptedElicitation):
        return f"Booked {restaurant} for {booking.data.party_size} at {booking.data.time}."
    return f"No booking: the user chose {booking.action}."


@server.resource("note://python/readme", name="readme", title="Read me", mime_type="text/plain")
def readme() -> str:
    """A short text note."""
    return "Hello from the Python peer.\nSecond line."


@server.resource("greeting://{name}", name="greeting", mime_type="text/plain")
def greeting(name: str) -> str:
    """A greeting for the given name."""
    return f"Hello, {name}!"


@server.prompt()
def review(code: str, language: str = "python") -> str:
    """Ask for a review of a piece of code."""
    return f"Please review this {language} code:\n{code}"


LANGUAGES = ["python", "rust", "typescript", "ruby"]
NAMES = ["alice", "alex", "bob"]


@server.completion()
async def complete(ref, argument, context):  # noqa: ANN001, ANN201 - the SDK's callback shape
    """Prefix completions for the prompt's `language` and the template's `name`."""
    if isinstance(ref, PromptReference) and ref.name == "review" and argument.name == "language":
        pool = LANGUAGES
    elif isinstance(ref, ResourceTemplateReference) and ref.uri == "greeting://{name}" and argument.name == "name":
        pool = NAMES
    else:
        return None
    values = [v for v in pool if v.startswith(argument.value)]
    return Completion(values=values, total=len(values), has_more=False)


def serve_sse_with_cors(port: int) -> None:
    """The SDK's own HTTP+SSE app, wrapped in Starlette's CORS middleware."""
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.middleware.cors import CORSMiddleware

    app = server.sse_app(
        sse_path="/sse",
        message_path="/messages/",
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    app.add_middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST"], allow_headers=["*"])
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    served = parser.add_mutually_exclusive_group()
    served.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    served.add_argument("--sse", type=int, metavar="PORT", help="serve HTTP+SSE (2024-11-05) on 127.0.0.1:PORT/sse")
    parser.add_argument("--cors", action="store_true", help="with --sse: CORS for a page on any origin")
    args = parser.parse_args()
    if args.cors and args.sse is not None:
        serve_sse_with_cors(args.sse)
    elif args.http is not None:
        server.run("streamable-http", host="127.0.0.1", port=args.http, streamable_http_path="/mcp")
    elif args.sse is not None:
        server.run("sse", host="127.0.0.1", port=args.sse, sse_path="/sse", message_path="/messages/")
    else:
        server.run()


if __name__ == "__main__":
    main()
