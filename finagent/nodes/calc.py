"""S2 ``calc`` branch: deadlines (art. 6.1) and пени (art. 75) computed by the calculators.

When the question gives nothing to compute from (the LLM orchestrator may route such a
question here), the branch searches the knowledge base instead, as the ``kb`` branch does.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.answering.calc import CALC_TOOL, calculate
from finagent.moscow_time import moscow_today
from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.nodes.intents import kb_passages
from finagent.state import AgentState, ExternalData

SOURCE_NOTE = "расчёт по НК РФ (ст. 6.1, ст. 75; ключевая ставка — cbr.ru)"


async def calculate_node(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    deps = deps_of(runtime)
    outcome = await calculate(
        state["query"], deps.registry, caller(runtime), moscow_today(), deps.catalog
    )
    if outcome.parsed is False:  # nothing to compute: answer from the knowledge base
        found = await kb_passages(deps, state)
        return {**found, "debug": {**found.get("debug", {}), "calc": "not parsed"}}
    item = ExternalData(
        tool=CALC_TOOL, source_note=SOURCE_NOTE, content=outcome.markdown, ok=outcome.ok
    )
    return {"external": [item], "debug": {"calc": outcome.debug}}


def calc_answer(external: list[ExternalData]) -> str | None:
    """The calculators' Markdown answer of this turn, if the ``calc`` branch ran."""
    return next((e.content for e in external if e.tool == CALC_TOOL), None)
