"""Routing as a service call (CLI ``route``, evals): the orchestrate node's decision alone."""

from __future__ import annotations

from typing import Any

from finagent.bootstrap import Deps
from finagent.input_checks import checked_query, checked_user
from finagent.routing.decide import decide


async def route_query(deps: Deps, user_id: str, query: str, selected: list[str]) -> dict[str, Any]:
    """Decision for ``query`` exactly as the graph would take it (InvalidRequestError, a
    ValueError, for input the graph refuses)."""
    text = checked_query(query, deps.settings.max_query_chars)
    out = await decide(deps, checked_user(user_id), text, [], selected)
    if out.get("error"):
        raise ValueError(out["answer"])
    decision = out["decision"]
    return {
        "scenario": int(decision.scenario),
        "intent": decision.intent,
        "intents": decision.intents,
        "confidence": decision.confidence,
        "source": decision.source,
        "reason": decision.reason,
        "sub_queries": decision.sub_queries,
        "clarifying_questions": decision.clarifying_questions,
        "rule": decision.rule,
        "classifier": decision.classifier,
        "user_documents": decision.user_documents,
        "debug": out.get("debug", {}),
    }
