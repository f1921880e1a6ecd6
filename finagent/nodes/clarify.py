"""S5: ask clarifying questions and stop."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.nodes.common import decision_of, save_turn
from finagent.observability import redact
from finagent.state import AgentState
from finagent.text_safety import utf8_safe


def make_clarify(services: Deps):  # type: ignore[no-untyped-def]
    async def clarify(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        asked = decision_of(state).clarifying_questions  # LLM text: redact and bound it
        questions = [redact(utf8_safe(q))[:300] for q in asked if q.strip()] or [
            "Уточните, пожалуйста, ваш вопрос."
        ]
        answer = messages.CLARIFY_HEADER + "\n" + "\n".join(f"- {q}" for q in questions)
        await save_turn(services.history, state, config, answer)
        return {"answer": answer}

    return clarify
