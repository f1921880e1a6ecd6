"""load_history: validates the question and loads the chat's previous turns."""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import (
    AIMessage,
    AnyMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
)
from langgraph.graph.message import REMOVE_ALL_MESSAGES
from langgraph.runtime import Runtime

from finagent.input_checks import NO_USER, InvalidRequestError, checked_query
from finagent.nodes.context import AgentContext, caller_or_none, deps_of, history_of
from finagent.state import AgentState

# a new turn on the same thread starts from empty working values
TURN_RESET: dict[str, Any] = {
    "chunks": None,
    "external": None,
    "tool_results": None,
    "notices": None,
    "debug": None,
    "answer_messages": [RemoveMessage(id=REMOVE_ALL_MESSAGES)],
    "error": None,
    "answer": "",
}


def unanswered(messages: list[AnyMessage], asked_id: str | None) -> AnyMessage | None:
    """The question an earlier turn took (``asked_id``) if no answer follows it: that
    turn crashed before its reply."""
    if not asked_id:
        return None
    for index, message in enumerate(messages):
        if message.id == asked_id:
            later = messages[index + 1 :]
            return None if any(isinstance(m, AIMessage) for m in later) else message
    return None


def asked(state: AgentState) -> tuple[str, list[BaseMessage], str]:
    """The turn's question, the chat messages to record, and the question message's id.

    A human message after the last answer is the question (a chat client sent it);
    otherwise ``query`` is, and it joins the conversation as a human message. A crashed
    turn's question (taken by an earlier turn, never answered) leaves the conversation
    first, so the run answers its own input.
    """
    messages = list(state.get("messages") or [])
    recorded: list[BaseMessage] = []
    stale = unanswered(messages, state.get("asked_id"))
    if stale is not None and stale.id is not None:
        recorded.append(RemoveMessage(id=stale.id))
        messages = [m for m in messages if m is not stale]
    if messages and isinstance(messages[-1], HumanMessage):
        last = messages[-1]
        return last.text, recorded, last.id or ""
    query = state.get("query") or ""
    if not query.strip():
        return query, recorded, ""
    question = HumanMessage(content=query, id=str(uuid.uuid4()))
    return query, [*recorded, question], str(question.id)


async def load_history(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    deps = deps_of(runtime)
    text, recorded, asked_id = asked(state)
    turn = TURN_RESET | {"query": text, "messages": recorded, "asked_id": asked_id}
    who = caller_or_none(runtime)
    if who is None:
        return turn | {"error": "no_user", "answer": NO_USER}
    try:
        query = checked_query(text, deps.settings.max_query_chars)
    except InvalidRequestError as exc:
        return turn | {"error": exc.code, "answer": str(exc)}
    chat_id = state.get("chat_id") or who.chat_id
    history = []
    if chat_id:
        turns = deps.settings.history_turns * 2
        history = await history_of(runtime, deps).last(who.user_id, chat_id, turns)
    return turn | {"query": query, "chat_id": chat_id, "history": history}
