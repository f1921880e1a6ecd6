"""Helpers shared by the nodes."""

from __future__ import annotations

from finagent.state import AgentState, Decision, Scenario, Turn
from finagent.storage.history import ChatHistory
from finagent.tools.base import ToolContext


def decision_of(state: AgentState) -> Decision:
    """The turn's decision (typed by its reducer), or the knowledge-base default."""
    return state.get("decision") or Decision(scenario=Scenario.ROUTED, intents=["kb"])


def sub_queries(state: AgentState) -> list[str]:
    decision = decision_of(state)
    return decision.sub_queries or [state.get("query", "")]


async def save_turn(history: ChatHistory, state: AgentState, who: ToolContext, answer: str) -> None:
    """Store the question and its answer as one turn of the chat (when there is a chat):
    the one place a turn is saved."""
    chat_id = state.get("chat_id")
    if chat_id:
        await history.append(
            who.user_id,
            chat_id,
            [Turn(role="user", content=state["query"]), Turn(role="assistant", content=answer)],
        )
