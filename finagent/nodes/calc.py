"""S2 ``calc`` branch: deadlines (art. 6.1) and пени (art. 75) computed by the calculators.

The question is read once, here, into a :class:`CalcRequest` (by the rule extractor, and
with an LLM by the LLM extractor too, refereed by the rules); the node writes the answer
itself (the computed result, the variants of an ambiguous question, a clarifying question
naming what is missing, or the refusal of another country's rules) and the turn ends.
When there is nothing to compute (a situation the calculators do not guess at, or an LLM
orchestrator routed a question without a calculation here), it searches the knowledge base
instead, as the ``kb`` branch does, and the answer node answers from it.
"""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.answering.final import finalise
from finagent.clients.llm import keeps_schema_limits
from finagent.moscow_time import moscow_today
from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.nodes.intents import kb_passages
from finagent.state import AgentState

_ANSWER_MODES = {"answer": "calc", "variants": "calc", "clarify": "clarified", "decline": "calc"}


async def calculate_node(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    # the calculators load with the first calculation, not with every answer
    from finagent.answering.calc import LlmReader, calculate

    deps = deps_of(runtime)
    reader = None
    if deps.llm is not None:
        reader = LlmReader(
            deps.llm_for("calc"),
            deps.settings.llm_structured_method,
            keeps_schema_limits(deps.settings),
        )
    outcome = await calculate(
        state["query"], deps.registry, caller(runtime), moscow_today(), deps.catalog, reader
    )
    debug = {"calc": outcome.debug, "calc_request": outcome.debug.pop("request", None)}
    if not outcome.parsed:  # nothing to compute: answer from the knowledge base
        found = await kb_passages(deps, state)
        return {**found, "debug": {**found.get("debug", {}), **debug, "calc": "not parsed"}}
    text, numbering = finalise(outcome.markdown, [], [])
    return {
        "answer": text,
        "debug": {**debug, "answer_mode": _ANSWER_MODES[outcome.mode], **numbering},
    }


def after_calculate(state: AgentState) -> str:
    """The calc node answered (save the turn), or left it to the answer node."""
    return "save_turn" if state.get("answer") else "answer"
