"""S5: ask clarifying questions and stop."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from finagent.answering import messages
from finagent.nodes.common import decision_of, run_context
from finagent.observability import redact
from finagent.services import Services
from finagent.state import AgentState, Turn
from finagent.text_safety import utf8_safe


def make_clarify(services: Services):  # type: ignore[no-untyped-def]
    async def clarify(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        asked = decision_of(state).clarifying_questions  # LLM text: redact and bound it
        questions = [redact(utf8_safe(q))[:300] for q in asked if q.strip()] or [
            "Уточните, пожалуйста, ваш вопрос."
        ]
        answer = messages.CLARIFY_HEADER + "\n" + "\n".join(f"- {q}" for q in questions)
        chat_id = state.get("chat_id")
        if chat_id:
            user = run_context(config).user_id
            await services.history.append(
                user,
                chat_id,
                [Turn(role="user", content=state["query"]), Turn(role="assistant", content=answer)],
            )
        return {"answer": answer}

    return clarify
