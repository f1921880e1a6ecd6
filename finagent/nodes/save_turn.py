"""save_turn: the one place a finished turn (question and answer) is stored in the chat."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.nodes.common import save_turn as append_turn
from finagent.nodes.context import AgentContext, caller, deps_of, history_of
from finagent.state import AgentState


async def save_turn(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """Every path that answers (answer, clarify, no_documents) ends here."""
    answer = state.get("answer")
    if answer:
        history = history_of(runtime, deps_of(runtime))
        await append_turn(history, state, caller(runtime), answer)
    return {}
