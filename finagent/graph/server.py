"""Graphs for the LangGraph API / Studio (langgraph.json).

Both are graph factories: langgraph-api calls them in its event loop before a run, so the
process-wide root (finagent/bootstrap.py) opens its stores and clients there, once. The
agent graph's nodes take the root's dependencies when the run's context carries none
(a context set from Studio or the API is JSON: user, chat and options only).
The agent graph gets the answer budget (``ANSWER_BUDGET_S``) per run, as ``Agent.run`` has.
"""

from __future__ import annotations

from typing import Any

from langgraph.graph.state import CompiledStateGraph

from finagent.bootstrap import Deps, default_root
from finagent.graph.agent import compile_agent_graph
from finagent.graph.api_graph import for_langgraph_api
from finagent.graph.research import research_graph_over
from finagent.observability import redact_stdlib_records

_agent: list[CompiledStateGraph[Any, Any, Any, Any]] = []
_research: dict[int, CompiledStateGraph[Any, Any, Any, Any]] = {}


async def agent() -> CompiledStateGraph[Any, Any, Any, Any]:
    redact_stdlib_records()  # langgraph-api formats and writes the records; we redact them
    root = default_root()
    await root.start()
    if not _agent:
        _agent.append(for_langgraph_api(compile_agent_graph(), root.settings.answer_budget_s))
    return _agent[0]


async def research() -> CompiledStateGraph[Any, Any, Any, Any]:
    redact_stdlib_records()
    deps: Deps = await default_root().start()
    if id(deps) not in _research:
        _research.clear()
        _research[id(deps)] = research_graph_over(deps)
    return _research[id(deps)]
