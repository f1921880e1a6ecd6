"""orchestrate: the scenario decision for the turn (finagent/routing/decide.py)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.routing.decide import decide
from finagent.state import AgentState


async def orchestrate(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    return await decide(
        deps_of(runtime),
        caller(runtime).user_id,
        state["query"],
        list(state.get("history") or []),
        list(state.get("selected_document_ids") or []),
    )
