"""An MCP server on the Python SDK (`mcp` 2.x) whose tools ask the client the
classic way, as most servers written before 2026-07-28 do: `ctx.elicit`,
`ctx.session.list_roots()` and `ctx.session.create_message()`, each a
server-to-client request sent in the middle of the call.

Under 2025-11-25 and earlier those requests reach the client. Under 2026-07-28
there are no server-to-client requests outside `input_required` (multi round-trip
requests), so the SDK refuses them with -32600 "Cannot send 'roots/list': this
transport context has no back-channel for server-initiated requests." The
playground's advice table names that refusal; this peer is how its test meets it.

Serves stdio by default; `--http PORT` serves Streamable HTTP on
127.0.0.1:PORT at /mcp. Run it with the venv that `cargo xtask install` builds:
`tests/peers/python/.venv/bin/python tests/peers/python/classic_asks.py`.

Tools: roots (lists the client's roots), sample (asks the client's model for
a haiku), confirm (asks the user to confirm through a form elicitation).
"""

import argparse
import warnings

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import SamplingMessage, TextContent
from pydantic import BaseModel

# `list_roots` is deprecated as of 2026-07-28, and this peer exists to call it.
warnings.simplefilter("ignore")

server = MCPServer("python-classic-asks", version="0.1.0")


@server.tool()
async def roots(ctx: Context) -> str:
    """List the client's roots (a roots/list request to the client)."""
    result = await ctx.session.list_roots()
    return ", ".join(str(r.uri) for r in result.roots) or "no roots"


@server.tool()
async def sample(topic: str, ctx: Context) -> str:
    """Ask the client's model for a haiku (a sampling/createMessage request)."""
    result = await ctx.session.create_message(
        [SamplingMessage(role="user", content=TextContent(type="text", text=f"A haiku about {topic}"))],
        max_tokens=64,
    )
    content = result.content
    return content.text if isinstance(content, TextContent) else "a reply that is not text"


class Confirmation(BaseModel):
    """What `confirm` asks for."""

    ok: bool


@server.tool()
async def confirm(action: str, ctx: Context) -> str:
    """Ask the user to confirm an action (an elicitation/create request)."""
    answer = await ctx.elicit(f"Go ahead with {action}?", Confirmation)
    return f"the user chose {answer.action}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on 127.0.0.1:PORT/mcp")
    args = parser.parse_args()
    if args.http is not None:
        server.run("streamable-http", host="127.0.0.1", port=args.http, streamable_http_path="/mcp")
    else:
        server.run()


if __name__ == "__main__":
    main()
