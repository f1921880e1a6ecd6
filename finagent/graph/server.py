"""Graphs for the LangGraph API / Studio (langgraph.json).

Both are graph factories: langgraph-api calls them in its event loop before a run, so the
process-wide root (finagent/bootstrap.py) opens its stores and clients there, once.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph.state import CompiledStateGraph

from finagent.bootstrap import Deps, default_root
from finagent.graph.agent import build_agent_graph
from finagent.graph.research import research_graph_over

_built: dict[str, tuple[Deps, CompiledStateGraph[Any, Any, Any, Any]]] = {}


async def agent() -> CompiledStateGraph[Any, Any, Any, Any]:
    deps = await default_root().start()
    cached = _built.get("agent")
    if cached is None or cached[0] is not deps:
        cached = _built["agent"] = (deps, build_agent_graph(deps))
    return cached[1]


async def research() -> CompiledStateGraph[Any, Any, Any, Any]:
    deps = await default_root().start()
    cached = _built.get("research")
    if cached is None or cached[0] is not deps:
        cached = _built["research"] = (deps, research_graph_over(deps))
    return cached[1]
