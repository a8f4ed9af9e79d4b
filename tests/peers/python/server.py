"""A small MCP server on the Python SDK (`mcp` 2.x), used as a test peer.

Serves stdio by default; `--http PORT` serves Streamable HTTP on
127.0.0.1:PORT at /mcp. Run it with the venv that `cargo xtask install`
builds: `tests/peers/python/.venv/bin/python tests/peers/python/server.py`.

Tools: add, echo, fail (a tool error: isError true), crash (the process
dies in the middle of the call). Resources: `note://python/readme` (text)
and the template `greeting://{name}`. Prompt: `review(code, language)`.
Completions: the prompt's `language` and the template's `name`.
"""

import argparse
import os

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import Completion, PromptReference, ResourceTemplateReference

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    if args.http is None:
        server.run()
    else:
        server.run("streamable-http", host="127.0.0.1", port=args.http, streamable_http_path="/mcp")


if __name__ == "__main__":
    main()
