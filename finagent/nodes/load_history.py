"""load_history: validates the question and loads the chat's previous turns."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import RemoveMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph.message import REMOVE_ALL_MESSAGES

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.nodes.common import user_id_or_none
from finagent.state import AgentState


def make_load_history(services: Deps):  # type: ignore[no-untyped-def]
    async def load_history(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        reset: dict[str, Any] = {
            "chunks": None,
            "external": None,
            "tool_results": None,
            "notices": None,
            "debug": None,
            "messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES)],
            "error": None,
            "answer": "",
        }
        query = (state.get("query") or "").strip()
        limit = services.settings.max_query_chars
        user_id = user_id_or_none(config)
        if user_id is None:
            return reset | {"error": "no_user", "answer": "Не указан пользователь (user_id)."}
        if not query:
            return reset | {"error": "empty_query", "answer": messages.EMPTY_QUERY}
        if len(query) > limit:
            text = messages.QUERY_TOO_LONG.format(length=len(query), limit=limit)
            return reset | {"error": "query_too_long", "answer": text}
        chat_id = state.get("chat_id") or (config.get("configurable") or {}).get("chat_id")
        history = []
        if chat_id:
            history = await services.history.last(
                user_id, chat_id, services.settings.history_turns * 2
            )
        return reset | {"query": query, "chat_id": chat_id, "history": history}

    return load_history
