"""finagent's own tools served over MCP (stdio or streamable HTTP).

Built on the low-level ``mcp`` server so that input schemas are exactly the tools'
Pydantic models. Over HTTP with FINAGENT_API_TOKENS set, every request needs a bearer
token and calls act for the token's user (:mod:`finagent.mcp.auth`); otherwise the user is
fixed when the server starts (``--user`` / ``FINAGENT_MCP_USER``). A caller can never
choose it through arguments: a ``user_id`` argument is rejected. Run with
``python -m finagent.mcp.server --user alice`` or
``finagent mcp --user alice [--transport http --port 8765]``.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import os
import sys
from collections.abc import AsyncIterator, Iterable
from typing import Any, Literal

import anyio
import mcp.types as types
from mcp.server.lowlevel import Server
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.types import Receive, Scope, Send

from finagent.config import Settings, get_settings
from finagent.mcp import USER_ENV
from finagent.mcp.auth import bearer_middleware, is_loopback, request_user
from finagent.observability import configure_logging, get_logger
from finagent.tools.base import Tool, ToolContext
from finagent.tools.registry import ToolRegistry
from finagent.tools.sgr import SYSTEM_TOOLS

log = get_logger("finagent.mcp.server")

SERVER_NAME = "finagent"
#: Argument names a caller might use to pick a user; never accepted.
IDENTITY_ARGUMENTS = frozenset({"user_id", "userId", "user"})
Transport = Literal["stdio", "http"]


def exported_tools(registry: ToolRegistry, names: Iterable[str] | None = None) -> list[Tool[Any]]:
    """Tools to serve: ``names`` or every registry tool except the SGR system tools."""
    if names is not None:
        return list(registry.subset(list(names)))
    return [tool for tool in registry if tool.name not in SYSTEM_TOOLS]


def mcp_tool_definition(tool: Tool[Any]) -> types.Tool:
    """MCP tool definition: name, description and the input model's JSON schema."""
    schema = tool.input_model.model_json_schema()
    schema.pop("title", None)
    return types.Tool(name=tool.name, description=tool.description, inputSchema=schema)


def build_server(
    registry: ToolRegistry, user_id: str | None, *, tools: Iterable[str] | None = None
) -> Server[Any, Any]:
    """A low-level MCP server calling finagent tools as the request's authenticated user.

    ``user_id`` is used for requests without one (stdio, HTTP without tokens); ``None``
    serves authenticated HTTP requests only (see :func:`http_app`).
    """
    if user_id is not None and not user_id.strip():
        raise ValueError(f"the MCP server needs a user: pass --user or set {USER_ENV}")
    fixed_user = user_id.strip() if user_id else None
    served = {tool.name: tool for tool in exported_tools(registry, tools)}
    server: Server[Any, Any] = Server(SERVER_NAME)

    @server.list_tools()  # type: ignore[no-untyped-call, untyped-decorator]
    async def list_tools() -> list[types.Tool]:
        return [mcp_tool_definition(tool) for tool in served.values()]

    @server.call_tool()  # type: ignore[untyped-decorator]
    async def call_tool(name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        tool = served.get(name)
        if tool is None:
            text = f"Error: unknown tool {name!r}; available tools: {', '.join(sorted(served))}"
            return _result(text)
        properties = tool.input_model.model_json_schema().get("properties", {})
        identity = sorted(k for k in arguments if k in IDENTITY_ARGUMENTS and k not in properties)
        if identity:
            log.warning("mcp_identity_argument_rejected", tool=name, arguments=identity)
            return _result(
                f"Error: {', '.join(identity)} cannot be set by the caller; "
                "the server decides the user (bearer token or --user)"
            )
        user = request_user(server.request_context.request) or fixed_user
        if user is None:  # build_server(..., None) outside an authenticated http_app
            return _result("Error: not authenticated; send 'Authorization: Bearer <token>'")
        result = await tool.invoke(arguments, ToolContext(user_id=user))
        return _result(result.text, is_error=not result.ok)

    return server


def _result(text: str, *, is_error: bool = True) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=text)], isError=is_error
    )


def _security(host: str) -> TransportSecuritySettings | None:
    """DNS-rebinding protection when bound to loopback (as the MCP SDK does)."""
    if not is_loopback(host):
        return None
    return TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
    )


def http_app(
    server: Server[Any, Any],
    *,
    host: str = "127.0.0.1",
    path: str = "/mcp",
    auth: Settings | None = None,
) -> Starlette:
    """Starlette app serving ``server`` over streamable HTTP at ``path`` (needs lifespan).

    With ``auth``, every request needs a bearer token of its FINAGENT_API_TOKENS (401
    otherwise) and tool calls act for the token's user.
    """
    manager = StreamableHTTPSessionManager(
        app=server, stateless=True, security_settings=_security(host)
    )

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        await manager.handle_request(scope, receive, send)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with manager.run():
            yield

    middleware = [bearer_middleware(auth)] if auth is not None else []
    return Starlette(routes=[Mount(path, app=handle)], lifespan=lifespan, middleware=middleware)


async def serve_stdio(server: Server[Any, Any]) -> None:
    from mcp.server.stdio import stdio_server

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def serve_http(
    server: Server[Any, Any], *, host: str, port: int, auth: Settings | None = None
) -> None:
    import uvicorn

    app = http_app(server, host=host, auth=auth)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()


def load_registry(spec: str) -> ToolRegistry:
    """``module:attr`` naming a ToolRegistry or a no-argument factory of one."""
    module_name, _, attr = spec.partition(":")
    target: Any = getattr(importlib.import_module(module_name), attr or "registry")
    registry = target() if callable(target) else target
    if not isinstance(registry, ToolRegistry):
        raise TypeError(f"{spec} is not a ToolRegistry")
    return registry


async def default_registry() -> ToolRegistry:
    """The research registry of the process-wide root (started in this loop)."""
    from finagent.bootstrap import default_root

    return (await default_root().start()).research_registry


def access_policy(
    settings: Settings,
    *,
    transport: Transport,
    host: str,
    user: str | None,
    insecure_no_auth: bool = False,
) -> tuple[str | None, Settings | None]:
    """``(fixed user, auth settings)`` of a server, or ValueError when it must not start.

    HTTP with FINAGENT_API_TOKENS: bearer tokens decide the user (``user`` is ignored).
    Otherwise ``user`` is required, and HTTP without tokens is allowed on loopback only,
    unless ``insecure_no_auth``.
    """
    if transport == "http" and settings.token_users():
        if user:
            log.warning("mcp_user_ignored", reason="bearer tokens decide the user")
        return None, settings
    if not user or not user.strip():
        raise ValueError(f"the MCP server needs a user: pass --user or set {USER_ENV}")
    if transport == "http" and not is_loopback(host):
        if not insecure_no_auth:
            raise ValueError(
                f"refusing to serve MCP over HTTP on non-loopback host {host!r} without "
                "authentication: set FINAGENT_API_TOKENS ('token:user,...'), bind to "
                "127.0.0.1, or pass --insecure-no-auth to let anyone act as the user"
            )
        log.warning("mcp_server_unauthenticated", host=host, user_id=user.strip())
    return user.strip(), None


async def serve(
    *,
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    user: str | None = None,
    registry: ToolRegistry | None = None,
    tools: Iterable[str] | None = None,
    settings: Settings | None = None,
    insecure_no_auth: bool = False,
) -> None:
    """Build the server (default registry: the services') and serve until cancelled."""
    user_id, auth = access_policy(
        settings or get_settings(),
        transport=transport,
        host=host,
        user=user or os.environ.get(USER_ENV),
        insecure_no_auth=insecure_no_auth,
    )
    server = build_server(registry or await default_registry(), user_id, tools=tools)
    log.info(
        "mcp_server_start",
        transport=transport,
        auth="bearer" if auth else "none",
        user_id=user_id,
        host=host,
        port=port,
    )
    if transport == "stdio":
        await serve_stdio(server)
    else:
        await serve_http(server, host=host, port=port, auth=auth)


def run(**kwargs: Any) -> None:
    """Synchronous entry point of :func:`serve`."""
    anyio.run(functools.partial(serve, **kwargs))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m finagent.mcp.server")
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--user", default=None, help=f"user the tools act for (or {USER_ENV})")
    parser.add_argument(
        "--registry", default=None, help="module:attr of a ToolRegistry (default: the services')"
    )
    parser.add_argument("--tool", action="append", dest="tools", help="serve only these tools")
    parser.add_argument(
        "--insecure-no-auth",
        action="store_true",
        help="allow HTTP on a non-loopback host without FINAGENT_API_TOKENS",
    )
    args = parser.parse_args(argv)
    configure_logging("INFO")  # redacted, on stderr: stdout is the stdio protocol channel
    try:
        run(
            transport=args.transport,
            host=args.host,
            port=args.port,
            user=args.user,
            registry=load_registry(args.registry) if args.registry else None,
            tools=args.tools,
            insecure_no_auth=args.insecure_no_auth,
        )
    except (ValueError, KeyError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
