"""Tools of external MCP servers as finagent tools (through langchain-mcp-adapters).

Each MCP tool becomes a :class:`~finagent.tools.base.Tool` named ``<server>_<tool>``
whose input model is generated from the server's JSON schema; failures come back as
``Error: ...`` and output is cut at the agent's ``mcp_context_limit``. A server that
cannot be reached is reported in :attr:`MCPLoadResult.errors` (and logged) while the
other servers still load.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from json_schema_to_pydantic import create_model as schema_to_model
from langchain_core.tools import BaseTool
from langchain_mcp_adapters.client import MultiServerMCPClient
from pydantic import BaseModel, ConfigDict, create_model

from finagent.agents_config import MCPServerConfig
from finagent.clients.call_log import external_call
from finagent.observability import get_logger, register_secrets
from finagent.redaction import url_secrets
from finagent.tools.base import Tool, ToolContext, ToolError

log = get_logger("finagent.mcp")

_NAME_OK = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass
class MCPLoadResult:
    """Tools loaded from every reachable server and one error line per failed server."""

    tools: list[Tool[Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class MCPTool(Tool[BaseModel]):
    """Base of the generated per-tool classes: calls one tool of one MCP server."""

    server: str = ""

    def __init__(self, lc_tool: BaseTool) -> None:
        self._tool = lc_tool

    async def run(self, args: BaseModel, ctx: ToolContext) -> str:
        arguments = args.model_dump(by_alias=True, exclude_unset=True)
        try:
            async with external_call(f"mcp:{self.server}", self._tool.name):
                content = await self._tool.ainvoke(arguments)
        except Exception as exc:
            raise ToolError(
                f"MCP tool {self._tool.name!r} of server {self.server!r} failed: {_reason(exc)}"
            ) from exc
        return content_text(content)


def content_text(content: Any) -> str:
    """Text of an MCP tool result (a string or LangChain content blocks)."""
    if isinstance(content, tuple) and len(content) == 2:
        content = content[0]
    if isinstance(content, str):
        return content
    parts = []
    for block in content if isinstance(content, list) else [content]:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        elif isinstance(block, dict):
            parts.append(f"[{block.get('type', 'content')} omitted]")
        else:
            parts.append(str(block))
    return "\n".join(parts)


def _reason(exc: BaseException) -> str:
    """A short, payload-free description of an exception (first leaf of a group)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    message = " ".join(str(exc).split())[:200]
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


class MCPInput(BaseModel):
    """Base of generated MCP input models: unknown arguments pass through to the server."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


def model_from_schema(name: str, schema: dict[str, Any] | None) -> type[BaseModel]:
    """A Pydantic input model for an MCP tool's JSON schema, nested objects and ``$ref`` kept.

    Conversion is done by ``json-schema-to-pydantic``; a schema it cannot convert gives a
    permissive model (the server still validates), with a warning in the log.
    """
    schema = {"type": "object", **(schema or {})}
    schema.setdefault("title", name)
    try:
        return schema_to_model(
            schema,
            base_model_type=MCPInput,
            allow_undefined_array_items=True,
            allow_undefined_type=True,
            populate_by_name=True,
        )
    except Exception as exc:  # the library raises its own and pydantic's errors
        log.warning("mcp_schema_not_converted", tool=name, error=_reason(exc))
        return create_model(name, __base__=MCPInput)


def tool_name(server: str, name: str) -> str:
    """``<server>_<tool>`` cleaned to the characters function-calling APIs accept."""
    return _NAME_OK.sub("_", f"{server}_{name}")[:64]


def wrap_tool(server: str, lc_tool: BaseTool, *, context_limit: int) -> Tool[Any]:
    """A finagent tool calling ``lc_tool`` (loaded from MCP server ``server``)."""
    name = tool_name(server, lc_tool.name)
    schema = lc_tool.args_schema if isinstance(lc_tool.args_schema, dict) else None
    if schema is None and lc_tool.args_schema is not None:
        schema = lc_tool.tool_call_schema.model_json_schema()  # type: ignore[union-attr]
    model = model_from_schema(f"{name}_input", schema)
    description = (lc_tool.description or lc_tool.name).strip()
    cls = type(
        f"MCPTool_{name}",
        (MCPTool,),
        {
            "name": name,
            "input_model": model,
            "output_limit": context_limit,
            "server": server,
            "__doc__": f"{description}\n\n(MCP server: {server})",
        },
    )
    tool: Tool[Any] = cls(lc_tool)
    return tool


def connection(server: MCPServerConfig) -> dict[str, Any]:
    """The langchain-mcp-adapters connection dict of one configured server."""
    if server.transport == "stdio":
        conn: dict[str, Any] = {
            "transport": "stdio",
            "command": server.command,
            "args": list(server.args),
        }
        if server.env is not None:
            conn["env"] = dict(server.env)
        if server.cwd is not None:
            conn["cwd"] = str(server.cwd)
        return conn
    return {
        "transport": "streamable_http",
        "url": server.url,
        "headers": dict(server.headers) or None,
        "timeout": timedelta(seconds=server.timeout_s),
    }


async def load_mcp_tools(
    servers: Iterable[MCPServerConfig], *, context_limit: int = 15_000
) -> MCPLoadResult:
    """Load the tools of every server concurrently; failures are reported, not raised."""
    servers = list(servers)
    for server in servers:
        register_secrets(
            [*server.headers.values(), *(server.env or {}).values(), *url_secrets(server.url)]
        )
    client = MultiServerMCPClient(
        {s.name: connection(s) for s in servers},  # type: ignore[misc]
        handle_tool_errors=False,
    )

    async def one(server: MCPServerConfig) -> list[Tool[Any]]:
        async with external_call(f"mcp:{server.name}", "list_tools"):
            tools = await asyncio.wait_for(
                client.get_tools(server_name=server.name), timeout=server.timeout_s
            )
        return [wrap_tool(server.name, t, context_limit=context_limit) for t in tools]

    outcomes = await asyncio.gather(*(one(s) for s in servers), return_exceptions=True)
    result = MCPLoadResult()
    for server, outcome in zip(servers, outcomes, strict=True):
        if isinstance(outcome, BaseException):
            if not isinstance(outcome, Exception):
                raise outcome
            error = f"MCP server {server.name!r} is unavailable ({_reason(outcome)})"
            log.warning("mcp_server_unavailable", server=server.name, error=_reason(outcome))
            result.errors.append(error)
            continue
        log.info("mcp_tools_loaded", server=server.name, tools=len(outcome))
        result.tools.extend(outcome)
    return result
