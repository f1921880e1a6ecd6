"""orchestrate: the scenario decision for the turn (finagent/routing/decide.py)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.routing.decide import decide
from finagent.state import AgentState, Decision, Scenario


async def orchestrate(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    deps = deps_of(runtime)
    update = await decide(
        deps,
        caller(runtime).user_id,
        state["query"],
        list(state.get("history") or []),
        list(state.get("selected_document_ids") or []),
    )
    # a question routed to the knowledge base (S2, a kb or calc intent) searches it and its
    # answer looks the Code's units up: they start loading now, beside the graph's step to
    # the search, not when the search starts (their scroll runs mostly outside the GIL); a
    # no-op while they are fresh or loading. Other turns never need them: nothing loads.
    decision = update.get("decision")
    if _searches_kb(decision) and "error" not in update and deps.catalog is not None:
        deps.catalog.prefetch()  # tests' deps may have no catalogue
    return update


def _searches_kb(decision: Any) -> bool:
    if not isinstance(decision, Decision) or decision.scenario != Scenario.ROUTED:
        return False
    return not decision.intents or bool({"kb", "calc"} & set(decision.intents))
