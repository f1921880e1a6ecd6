"""S5: ask clarifying questions and stop (the graph's save_turn stores the turn)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.answering import messages
from finagent.nodes.common import decision_of
from finagent.nodes.context import AgentContext
from finagent.observability import redact
from finagent.state import AgentState
from finagent.text_safety import utf8_safe


async def clarify(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    asked = decision_of(state).clarifying_questions  # LLM text: redact and bound it
    questions = [redact(utf8_safe(q))[:300] for q in asked if q.strip()] or [
        "Уточните, пожалуйста, ваш вопрос."
    ]
    answer = messages.CLARIFY_HEADER + "\n" + "\n".join(f"- {q}" for q in questions)
    return {"answer": answer}
