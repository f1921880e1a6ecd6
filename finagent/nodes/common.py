"""Helpers shared by the nodes."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

from finagent.state import AgentState, Decision, Scenario, Turn
from finagent.storage.history import ChatHistory
from finagent.tools.base import ToolContext, ToolError


def run_context(config: RunnableConfig, state: AgentState | None = None) -> ToolContext:
    """The caller's identity from the run configuration (never from the question)."""
    ctx = ToolContext.from_config(config)
    if state is not None and state.get("selected_document_ids"):
        return ToolContext(
            user_id=ctx.user_id,
            chat_id=state.get("chat_id") or ctx.chat_id,
            selected_document_ids=tuple(state.get("selected_document_ids") or ()),
        )
    return ctx


def user_id_or_none(config: RunnableConfig) -> str | None:
    try:
        return ToolContext.from_config(config).user_id
    except ToolError:
        return None


def decision_of(state: AgentState) -> Decision:
    decision = state.get("decision")
    if isinstance(decision, dict):  # state restored from JSON (LangGraph API)
        return Decision.model_validate(decision)
    return decision or Decision(scenario=Scenario.ROUTED, intents=["kb"])


def sub_queries(state: AgentState) -> list[str]:
    decision = decision_of(state)
    return decision.sub_queries or [state.get("query", "")]


async def save_turn(
    history: ChatHistory, state: AgentState, config: RunnableConfig, answer: str
) -> None:
    """Store the question and its answer as one turn of the chat (when there is a chat)."""
    chat_id = state.get("chat_id")
    if chat_id:
        await history.append(
            run_context(config).user_id,
            chat_id,
            [Turn(role="user", content=state["query"]), Turn(role="assistant", content=answer)],
        )
