"""load_history: validates the question and loads the chat's previous turns."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import RemoveMessage
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime

from finagent.input_checks import NO_USER, InvalidRequestError, checked_query
from finagent.nodes.context import AgentContext, caller_or_none, deps_of
from finagent.state import AgentState

# a new turn on the same thread starts from empty working values
TURN_RESET: dict[str, Any] = {
    "chunks": None,
    "external": None,
    "tool_results": None,
    "notices": None,
    "debug": None,
    "messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES)],
    "error": None,
    "answer": "",
}


async def load_history(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    deps = deps_of(runtime)
    who = caller_or_none(runtime)
    if who is None:
        return TURN_RESET | {"error": "no_user", "answer": NO_USER}
    try:
        query = checked_query(state.get("query") or "", deps.settings.max_query_chars)
    except InvalidRequestError as exc:
        return TURN_RESET | {"error": exc.code, "answer": str(exc)}
    chat_id = state.get("chat_id") or who.chat_id
    history = []
    if chat_id:
        history = await deps.history.last(who.user_id, chat_id, deps.settings.history_turns * 2)
    return TURN_RESET | {"query": query, "chat_id": chat_id, "history": history}
