"""The tools of one research agent: its registry tools plus MCP tools loaded on first use."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from finagent.agents_config import AgentDefinition
from finagent.observability import get_logger
from finagent.tools.base import Tool, ToolContext, ToolResult
from finagent.tools.registry import ToolRegistry
from finagent.tools.sgr import FINAL_TOOLS

log = get_logger("finagent.research")


RegistrySource = ToolRegistry | Callable[[], Awaitable[ToolRegistry]]


class Toolkit:
    """The tools of one agent: registry tools named in the agent plus MCP tools.

    The registry may be given as an async provider (services start lazily in the
    running loop) and MCP tools load on first use; both are resolved once by ``ready``.
    """

    def __init__(
        self, source: RegistrySource, agent: AgentDefinition, mcp_tools: list[Tool[Any]] | None
    ) -> None:
        self.agent = agent
        self._source = source
        self.registry: ToolRegistry | None = None
        self.local: dict[str, Tool[Any]] = {}
        self.external: dict[str, Tool[Any]] = {t.name: t for t in mcp_tools or []}
        self.mcp_errors: list[str] = []
        self._mcp_loaded = mcp_tools is not None or not agent.mcp_servers
        self._lock = asyncio.Lock()
        if isinstance(source, ToolRegistry):
            self._select(source)

    def _select(self, registry: ToolRegistry) -> None:
        local: dict[str, Tool[Any]] = {}
        for name in self.agent.tools:
            tool = registry.get(name)
            if tool is None:
                # an optional tool left unconfigured (no key or URL): expected, not a fault
                log.info("research_tool_unavailable", agent=self.agent.name, tool=name)
            else:
                local[name] = tool
        if not FINAL_TOOLS & set(local):
            raise ValueError(
                f"agent {self.agent.name!r} has no final tool registered "
                f"({', '.join(sorted(FINAL_TOOLS))})"
            )
        self.registry, self.local = registry, local

    async def ready(self) -> None:
        if self.registry is not None and self._mcp_loaded:
            return
        async with self._lock:
            if self.registry is None and not isinstance(self._source, ToolRegistry):
                self._select(await self._source())
            if not self._mcp_loaded:
                from finagent.extras import require

                require("langchain_mcp_adapters")  # MCP servers configured: the mcp extra
                from finagent.mcp.client import load_mcp_tools

                result = await load_mcp_tools(
                    self.agent.mcp_servers, context_limit=self.agent.execution.mcp_context_limit
                )
                for tool in result.tools:
                    if tool.name in self.local:
                        log.warning("mcp_tool_name_clash", tool=tool.name)
                    else:
                        self.external[tool.name] = tool
                self.mcp_errors = list(result.errors)
                self._mcp_loaded = True

    def tools(self) -> dict[str, Tool[Any]]:
        return {**self.local, **self.external}

    async def call(self, name: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if name in self.external:
            return await self.external[name].invoke(args, ctx)
        assert self.registry is not None
        return await self.registry.call(name, args, ctx)
