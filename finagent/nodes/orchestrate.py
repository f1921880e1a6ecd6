"""orchestrate: one structured LLM call, the rule classifier as fallback, S3/S4 by real size."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from finagent.answering import messages
from finagent.nodes.common import run_context
from finagent.observability import get_logger, redact
from finagent.routing.llm_router import llm_decide
from finagent.routing.rules import classify
from finagent.services import Services
from finagent.state import AgentState, Decision, Scenario

log = get_logger("finagent.orchestrate")


def make_orchestrate(services: Services):  # type: ignore[no-untyped-def]
    settings = services.settings

    async def orchestrate(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        query = state["query"]
        history = state.get("history") or []
        selected = list(dict.fromkeys(state.get("selected_document_ids") or []))
        debug: dict[str, Any] = {}
        decision: Decision | None = None
        if services.llm is not None:
            try:
                decision = await llm_decide(
                    services.llm_for("orchestrator"),
                    query,
                    history,
                    bool(selected),
                    settings.llm_structured_method,
                )
                if decision.confidence < settings.orchestrator_confidence_threshold:
                    debug["orchestrator_fallback"] = f"low confidence {decision.confidence:.2f}"
                    debug["llm_decision"] = decision.model_dump(mode="json")
                    decision = None
            except Exception as exc:  # any failure or invalid output -> rules
                # redact before cutting: a cut could leave half a key that no pattern matches
                reason = redact(f"{type(exc).__name__}: {exc}")[:200]
                log.warning("orchestrator_llm_failed", reason=reason)
                debug["orchestrator_fallback"] = reason
                decision = None
        if decision is None:
            decision = classify(query, history, bool(selected))
        if selected and decision.scenario != Scenario.CLARIFY:
            ctx = run_context(config)
            docs, missing = await services.documents.get_many(ctx.user_id, selected)
            if missing:
                text = messages.DOCUMENTS_NOT_FOUND.format(ids=", ".join(missing))
                return {"error": "unknown_documents", "answer": text, "decision": decision}
            total = sum(d.size for d in docs)
            decision.scenario = (
                Scenario.FULL_DOCUMENTS
                if total <= settings.full_documents_max_chars
                else Scenario.SELECTED_SEARCH
            )
            decision.intents = []
            debug["selected_total_chars"] = total
        log.info(
            "scenario_decision",
            scenario=int(decision.scenario),
            intents=decision.intents,
            confidence=decision.confidence,
            source=decision.source,
        )
        debug["decision"] = decision.model_dump(mode="json")
        return {"decision": decision, "selected_document_ids": selected, "debug": debug}

    return orchestrate
