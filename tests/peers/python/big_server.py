"""A big MCP server on the Python SDK's low-level server (`mcp` 2.x): many
generated tools listed in pages, and a tool whose answer is megabytes of text.
It is what a learner meets when they point the playground at a real server with
a large catalogue (issue #33): the page must stay usable with it.

Tools: `tool_0000` … (each with its own description and a small input schema of
one to four properties), and `big_text` (answers `--big-mb` megabytes of text in
one text block; a `lines` argument is ignored, it only makes the schema real).
`tools/list` answers `--page-size` tools per page, with an opaque `nextCursor`.

Serves stdio. Run it with the venv that `cargo xtask install` builds:
`tests/peers/python/.venv/bin/python tests/peers/python/big_server.py` (1,000 generated tools and big_text: 1,001 in 11 pages).
"""

import argparse

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

VERBS = ["get", "list", "create", "update", "delete", "search", "sync", "export"]
NOUNS = ["invoice", "customer", "ticket", "order", "report", "user", "repo", "alert", "note", "event"]
KINDS = [
    {"type": "string", "description": "An identifier, as shown in the web app."},
    {"type": "integer", "minimum": 1, "maximum": 500, "description": "How many to return."},
    {"type": "boolean", "description": "Include archived items."},
    {"type": "string", "enum": ["asc", "desc"], "description": "Sort order."},
]


def make_tool(i: int) -> types.Tool:
    """Tool number `i`: a name, a sentence and one to four properties, all from `i`."""
    verb = VERBS[i % len(VERBS)]
    noun = NOUNS[(i // len(VERBS)) % len(NOUNS)]
    count = 1 + i % 4
    props = {f"arg{k}": KINDS[(i + k) % len(KINDS)] for k in range(count)}
    return types.Tool(
        name=f"tool_{i:04d}",
        title=f"{verb.capitalize()} {noun} #{i}",
        description=f"{verb.capitalize()} a {noun} in workspace {i % 37}. Tool {i} of a large generated catalogue.",
        input_schema={"type": "object", "properties": props, "required": ["arg0"]},
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tools", type=int, default=1000, help="how many generated tools (besides big_text)")
    parser.add_argument("--page-size", type=int, default=100, help="tools per tools/list page")
    parser.add_argument("--big-mb", type=float, default=10.0, help="megabytes big_text answers")
    args = parser.parse_args()

    tools = [make_tool(i) for i in range(args.tools)]
    tools.append(
        types.Tool(
            name="big_text",
            title="A very long answer",
            description=f"Answers {args.big_mb:g} MB of text in one block, to see how a host copes.",
            input_schema={"type": "object", "properties": {"lines": {"type": "integer"}}},
        )
    )
    line = "The quick brown fox jumps over the lazy dog; 0123456789 abcdefghij.\n"
    big = (line * (int(args.big_mb * 1_000_000) // len(line) + 1))[: int(args.big_mb * 1_000_000)]

    async def list_tools(ctx, params):
        cursor = params.cursor if params else None
        start = int(cursor[2:]) if cursor and cursor.startswith("p:") and cursor[2:].isdigit() else 0
        end = start + args.page_size
        page = tools[start:end]
        return types.ListToolsResult(tools=page, next_cursor=f"p:{end}" if end < len(tools) else None)

    async def call_tool(ctx, params):
        if params.name == "big_text":
            return types.CallToolResult(content=[types.TextContent(type="text", text=big)])
        if not any(t.name == params.name for t in tools):
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"no tool {params.name}")], is_error=True
            )
        shown = ", ".join(f"{k}={v}" for k, v in sorted((params.arguments or {}).items()))
        return types.CallToolResult(content=[types.TextContent(type="text", text=f"{params.name} ran with {shown}")])

    server = Server("python-big", version="0.1.0", on_list_tools=list_tools, on_call_tool=call_tool)

    async def run() -> None:
        async with stdio_server() as (read, write):
            await server.run(read, write, server.create_initialization_options())

    anyio.run(run)


if __name__ == "__main__":
    main()
