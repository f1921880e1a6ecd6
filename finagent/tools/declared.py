"""finagent's built-in tools as declared on their classes: names, source notes, source names.

Importing this module imports every built-in tool module, so ``DECLARED`` (filled by
``Tool.__init_subclass__``) holds each tool once. The research catalogue, the source notes of
cited data and the agents YAML validation all read it; nothing repeats a tool's metadata.
"""

from __future__ import annotations

from typing import Any

from finagent.tools import (  # noqa: F401  (imported for their tool declarations)
    calc,
    cbr,
    documents,
    internal_search,
    kb_files,
    kb_search,
    legal,
    news,
    rates_aggregate,
    sgr,
    web,
)
from finagent.tools.base import DECLARED, Tool


def declared_tool(name: str) -> type[Tool[Any]]:
    """The class of a built-in tool; KeyError for a name no tool declares."""
    return DECLARED[name]


def builtin_tool_names() -> frozenset[str]:
    """Names of every built-in tool (MCP tools are named per server and are not here)."""
    return frozenset(DECLARED)
