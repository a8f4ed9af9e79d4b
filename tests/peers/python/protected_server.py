"""An MCP server behind OAuth, on the Python SDK's own auth support (`mcp` 2.x).

    .venv/bin/python protected_server.py --issuer http://127.0.0.1:AS_PORT [--port N] [--cors]

It is a resource server only (RFC 9728): the authorization server is
`tests/peers/node-auth/as.mjs` (oidc-provider), named by `--issuer`. The SDK
serves the protected resource metadata at
`/.well-known/oauth-protected-resource/mcp` and answers a request without a
valid token with `401` and `WWW-Authenticate: Bearer ..., resource_metadata=...`.
Tokens are the AS's JWT access tokens, checked here against the AS's JWKS:
signature, `iss`, `aud` = this server's `/mcp` URL (RFC 8707), expiry, and the
scope `mcp:tools` (else `403 insufficient_scope`).

Tools: `whoami` (the token's subject, client and scopes) and `admin_report`,
which needs `mcp:admin`: a call without it gets HTTP `403` with
`WWW-Authenticate: Bearer error="insufficient_scope", scope="mcp:tools mcp:admin",
resource_metadata="..."` (our middleware, before the SDK sees the request) so
clients can test step-up. `--cors` adds CORS headers for loopback pages.

Prints `protected MCP server listening on http://127.0.0.1:PORT/mcp` once it
accepts connections (`--port 0`, the default, picks a free port).
"""

import argparse
import asyncio
import json
import logging
import socket
import sys
import time

import jwt
import uvicorn
from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from starlette.middleware.cors import CORSMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

ADMIN_SCOPE = "mcp:admin"
TOOLS_SCOPE = "mcp:tools"


class JwtVerifier:
    """Checks the AS's JWT access tokens (RFC 9068 shape) against its JWKS."""

    def __init__(self, issuer: str, audience: str) -> None:
        self.issuer = issuer
        self.audience = audience
        # oidc-provider serves its keys at /jwks (its discovery's jwks_uri).
        self.keys = jwt.PyJWKClient(f"{issuer}/jwks", cache_keys=True)

    def check(self, token: str) -> AccessToken | None:
        """The token's grants if it is valid for this server, else None."""
        try:
            key = self.keys.get_signing_key_from_jwt(token)
            claims = jwt.decode(
                token,
                key.key,
                algorithms=["RS256"],
                issuer=self.issuer,
                audience=self.audience,
                options={"require": ["exp", "iss", "aud", "sub"]},
            )
        except jwt.PyJWTError:
            return None
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id", "")),
            scopes=str(claims.get("scope", "")).split(),
            expires_at=int(claims["exp"]),
            resource=self.audience,
            subject=str(claims["sub"]),
            claims={"iss": claims["iss"]},
        )

    async def verify_token(self, token: str) -> AccessToken | None:
        """The SDK's TokenVerifier protocol; the JWKS fetch blocks, so it runs in a thread."""
        return await asyncio.to_thread(self.check, token)


class StepUpForAdmin:
    """Answers a `tools/call` of `admin_report` without `mcp:admin` with 403 insufficient_scope.

    The SDK can only require one scope set for the whole endpoint; a per-tool
    scope has to be checked before the request reaches it.
    """

    def __init__(self, app: ASGIApp, verifier: JwtVerifier, metadata_url: str) -> None:
        self.app = app
        self.verifier = verifier
        self.metadata_url = metadata_url

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        if self._needs_step_up(scope, body):
            challenge = (
                f'Bearer error="insufficient_scope", scope="{TOOLS_SCOPE} {ADMIN_SCOPE}", '
                f'resource_metadata="{self.metadata_url}", error_description="admin_report needs {ADMIN_SCOPE}"'
            )
            payload = json.dumps({"error": "insufficient_scope", "error_description": f"admin_report needs {ADMIN_SCOPE}"}).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(payload)).encode()),
                        (b"www-authenticate", challenge.encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": payload})
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _needs_step_up(self, scope: Scope, body: bytes) -> bool:
        try:
            message = json.loads(body)
        except ValueError:
            return False
        if not isinstance(message, dict) or message.get("method") != "tools/call":
            return False
        params = message.get("params")
        if not isinstance(params, dict) or params.get("name") != "admin_report":
            return False
        header = dict(scope["headers"]).get(b"authorization", b"").decode("latin-1")
        if not header.lower().startswith("bearer "):
            return False  # no token at all: the SDK answers 401
        grants = self.verifier.check(header[7:])
        # An invalid token is the SDK's 401 to give; a valid one short of admin is ours.
        return grants is not None and ADMIN_SCOPE not in grants.scopes


def build(issuer: str, port: int, cors: bool) -> ASGIApp:
    """The whole ASGI app: the SDK's Streamable HTTP app, our step-up check, optional CORS."""
    resource = f"http://127.0.0.1:{port}/mcp"
    verifier = JwtVerifier(issuer, resource)
    server = MCPServer(
        "python-protected",
        version="0.1.0",
        token_verifier=verifier,
        auth=AuthSettings(
            issuer_url=issuer,
            resource_server_url=resource,
            required_scopes=[TOOLS_SCOPE],
            validate_token_resource=True,
        ),
    )

    @server.tool()
    def whoami() -> dict:
        """Who the access token belongs to: subject, client and granted scopes."""
        token = get_access_token()
        if token is None:
            return {"subject": None, "client_id": None, "scopes": []}
        return {"subject": token.subject, "client_id": token.client_id, "scopes": sorted(token.scopes)}

    @server.tool()
    def admin_report() -> str:
        """An admin-only report (needs the scope mcp:admin: step-up)."""
        token = get_access_token()
        subject = token.subject if token else "nobody"
        return f"admin report for {subject}: all systems nominal at {int(time.time())}"

    app: ASGIApp = StepUpForAdmin(
        server.streamable_http_app(),
        verifier,
        f"http://127.0.0.1:{port}/.well-known/oauth-protected-resource/mcp",
    )
    if cors:
        app = CORSMiddleware(
            app,
            allow_origin_regex=r"http://(127\.0\.0\.1|localhost)(:\d+)?",
            allow_methods=["GET", "POST", "DELETE"],
            allow_headers=["*"],
            expose_headers=["www-authenticate", "mcp-session-id", "mcp-protocol-version"],
        )
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issuer", required=True, help="the authorization server, e.g. http://127.0.0.1:4555")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--cors", action="store_true", help="CORS headers for loopback page origins")
    args = parser.parse_args()
    # The SDK logs every new session at INFO; tests want only problems on stderr.
    logging.basicConfig(level=logging.WARNING)
    # Bind first: the resource URL (the tokens' audience) must hold the real port.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = build(args.issuer.rstrip("/"), port, args.cors)
    config = uvicorn.Config(app, log_level="warning")
    userver = uvicorn.Server(config)

    async def serve() -> None:
        task = asyncio.create_task(userver.serve(sockets=[sock]))
        while not userver.started and not task.done():
            await asyncio.sleep(0.05)
        print(f"protected MCP server listening on http://127.0.0.1:{port}/mcp", flush=True)
        await task

    asyncio.run(serve())
    sys.exit(0)


if __name__ == "__main__":
    main()
