"""Routing as a service call (CLI ``route``, evals): the orchestrate node's decision alone."""

from __future__ import annotations

from typing import Any

from finagent.bootstrap import Deps
from finagent.nodes.orchestrate import make_orchestrate


async def route_query(
    services: Deps, user_id: str, query: str, selected: list[str]
) -> dict[str, Any]:
    """Decision for ``query`` exactly as the graph would take it."""
    text = query.strip()
    if not text:
        raise ValueError("empty query")
    if len(text) > services.settings.max_query_chars:
        raise ValueError(f"query too long ({len(text)} > {services.settings.max_query_chars})")
    orchestrate = make_orchestrate(services)
    config = {"configurable": {"user_id": user_id}}
    out = await orchestrate({"query": text, "selected_document_ids": selected}, config)  # type: ignore[arg-type]
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
