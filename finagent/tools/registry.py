"""A registry that finds tools by name and exports them in every form we need."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from finagent.observability import redact
from finagent.tools.base import Tool, ToolContext, ToolResult

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.tools import StructuredTool

MAX_NAME_ECHO = 100


class ToolRegistry:
    """Tools by name; the single place the agents, CLI and MCP server look them up.

    ``build`` defers the tools: they are built, and their modules imported, when the
    registry is first read (a CLI question that calls no tool never pays for them). The
    build runs once, under a lock; if it raises, the next read tries again, and no reader
    ever sees a half-built registry.
    """

    def __init__(
        self,
        tools: Iterable[Tool[Any]] = (),
        *,
        build: Callable[[], Iterable[Tool[Any]]] | None = None,
    ) -> None:
        self._by_name: dict[str, Tool[Any]] = {}
        self._build = build
        self._lock = threading.Lock()
        for tool in tools:
            self.register(tool)

    @property
    def _tools(self) -> dict[str, Tool[Any]]:
        if self._build is not None:
            with self._lock:
                if self._build is not None:
                    built: dict[str, Tool[Any]] = {}
                    for tool in self._build():
                        if tool.name in built or tool.name in self._by_name:
                            raise ValueError(f"tool {tool.name!r} is already registered")
                        built[tool.name] = tool
                    self._by_name.update(built)
                    self._build = None
        return self._by_name

    @property
    def built(self) -> bool:
        """Whether the tools exist (a deferred registry not read yet: False)."""
        return self._build is None

    def register(self, tool: Tool[Any]) -> None:
        if tool.name in self._tools:
            raise ValueError(f"tool {tool.name!r} is already registered")
        self._tools[tool.name] = tool

    def get(self, name: str) -> Tool[Any] | None:
        return self._tools.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[Tool[Any]]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> list[str]:
        return list(self._tools)

    def subset(self, names: Iterable[str]) -> ToolRegistry:
        """A registry with only ``names``; unknown names raise KeyError."""
        missing = [n for n in names if n not in self._tools]
        if missing:
            raise KeyError(f"unknown tools: {', '.join(missing)}")
        return ToolRegistry(self._tools[n] for n in names)

    def as_langchain(self, ctx: ToolContext | None = None) -> list[StructuredTool]:
        return [tool.as_langchain(ctx) for tool in self._tools.values()]

    def openai_schemas(self) -> list[dict[str, Any]]:
        return [tool.openai_schema() for tool in self._tools.values()]

    async def call(self, name: str, arguments: dict[str, Any], ctx: ToolContext) -> ToolResult:
        """Call a tool by name; an unknown name is an ``Error:`` text, not an exception."""
        tool = self._tools.get(name)
        if tool is None:
            known = ", ".join(sorted(self._tools)) or "none"
            shown = str(name)[:MAX_NAME_ECHO]  # the name comes from the LLM: echo it bounded
            text = redact(f"Error: unknown tool {shown!r}; available tools: {known}")
            return ToolResult(text, tool=shown, error_kind="unknown_tool")
        return await tool.invoke(arguments, ctx)
